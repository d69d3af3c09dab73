/* High Card (test game) renderer: each seat's card, face down unless seen. */
import { eventsUpTo, seatNames, el } from "../../viewer/events.js";

export function render(element, replay, position, perspective) {
  const names = seatNames(replay);
  const cards = names.map(() => null);
  const shown = [];
  let over = false;
  for (const ev of eventsUpTo(replay, position, perspective)) {
    if (ev.type === "deal" || ev.type === "swap") {
      const parts = ev.all || (ev.mine ? { [perspective]: ev.mine } : {});
      for (const [seat, part] of Object.entries(parts)) cards[Number(seat)] = part.card;
      if (ev.type === "swap") shown.push(ev.public.discarded);
    }
    if (ev.type === "showdown") {
      ev.public.cards.forEach((card, seat) => { cards[seat] = card; });
      over = true;
    }
  }
  element.append(
    el("ol", { class: "highcard-seats" },
      ...names.map((name, seat) => el("li", { "data-seat": seat },
        el("span", { class: "name", text: name }), " ",
        el("span", { class: "card", "data-hidden": cards[seat] === null ? "true" : "false", text: cards[seat] === null ? "??" : String(cards[seat]) })))),
    el("p", { class: "shown", text: `shown: ${shown.join(" ")}` }),
    over ? el("p", { class: "over", text: "showdown" }) : null,
  );
}

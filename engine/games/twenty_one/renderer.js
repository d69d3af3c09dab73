/*
 * Twenty One renderer: the table after any move of a game, from one perspective.
 *
 * It folds the events the engine logged (never the rules): each round's deal, every trump
 * (whose event carries the face-up rows, the table, the stakes and the target after it),
 * every draw, pass and stop, the round's end with both hush cards, the game's end. A seat's
 * hush card is drawn face down unless the perspective owns it (the spectator sees both,
 * marked as hidden at the table) or the round has ended; the other seat's trumps in hand are
 * card backs. Everything from the replay goes into the page as text only.
 */
import { adoptStyle, eventsUpTo, seatNames, el } from "../../viewer/events.js";

const STYLE_ID = "twenty-one-renderer-style";
const CSS = `
.t21 { font: 14px/1.4 system-ui, sans-serif; color: #f4f1e8; background: radial-gradient(ellipse at center, #1f6b45 0%, #134a30 75%); border-radius: 14px; padding: 14px; max-width: 760px; }
.t21-head { display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; margin-bottom: 10px; }
.t21-head strong { font-size: 16px; }
.t21-badge { background: rgba(0,0,0,.28); border-radius: 999px; padding: 2px 10px; }
.t21-target { background: #f2c14e; color: #2b2100; font-weight: 700; }
.t21-seat { background: rgba(0,0,0,.18); border-radius: 10px; padding: 10px; margin: 8px 0; }
.t21-seat.t21-turn { box-shadow: 0 0 0 2px #f2c14e inset; }
.t21-seat-top { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 14px; }
.t21-name { font-weight: 700; font-size: 15px; }
.t21-pad { margin-left: auto; display: flex; gap: 10px; }
.t21-pad span { background: rgba(255,255,255,.12); border-radius: 6px; padding: 1px 8px; }
.t21-row { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 8px; min-height: 58px; }
.t21-card { width: 38px; height: 54px; border-radius: 6px; background: #fffdf6; color: #1d1d1d; display: inline-flex; align-items: center; justify-content: center; font-weight: 700; font-size: 18px; box-shadow: 0 1px 3px rgba(0,0,0,.45); }
.t21-hush { border: 2px dashed #8a6d2b; }
.t21-back { background: repeating-linear-gradient(45deg, #7b1d2a 0 6px, #94303d 6px 12px); color: #f7dfe2; }
.t21-peek { background: linear-gradient(#fffdf6, #efe6cc); color: #5d4a16; }
.t21-shown { outline: 2px solid #f2c14e; }
.t21-total { margin-left: 8px; font-size: 13px; opacity: .95; }
.t21-chips { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 6px; align-items: center; }
.t21-chip { border-radius: 5px; padding: 1px 7px; font-size: 12px; background: #eadcf8; color: #2d1748; }
.t21-chip.t21-lying { background: #f2c14e; color: #2b2100; }
.t21-chip.t21-chip-back { background: #94303d; color: #f7dfe2; }
.t21-label { font-size: 12px; opacity: .8; margin-right: 4px; }
.t21-middle { display: flex; gap: 14px; align-items: center; justify-content: center; margin: 4px 0; }
.t21-deck { display: inline-flex; flex-direction: column; align-items: center; font-size: 12px; }
.t21-last { background: rgba(0,0,0,.3); border-radius: 8px; padding: 6px 10px; margin-top: 8px; }
.t21-result { background: #f4f1e8; color: #1d1d1d; border-radius: 8px; padding: 6px 10px; margin-top: 8px; }
.t21-over { background: #f2c14e; color: #2b2100; font-weight: 700; }
.t21-log { margin: 6px 0 0; padding-left: 20px; font-size: 12px; opacity: .9; max-height: 140px; overflow: auto; }
`;

const LABELS = {
  perfect_draw: "Perfect Draw", remove: "Remove", return: "Return", exchange: "Exchange",
  one_up: "One-Up", two_up: "Two-Up", shield: "Shield", destroy: "Destroy",
  trump_switch: "Trump Switch",
};

function ensureStyle() {
  adoptStyle(STYLE_ID, CSS);
}

/* A trump id as the table calls it (card_4 -> 4-Card, go_for_24 -> Go For 24). */
export function trumpLabel(id) {
  const text = String(id);
  if (text.startsWith("card_")) return `${text.slice(5)}-Card`;
  if (text.startsWith("add_")) return `Add ${text.slice(4)}`;
  if (text.startsWith("go_for_")) return `Go For ${text.slice(7)}`;
  return LABELS[text] || text;
}

function privateParts(ev, perspective) {
  if (ev.all) return ev.all;
  if (ev.mine !== undefined) return { [String(perspective)]: ev.mine };
  return {};
}

function removeOne(list, item) {
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
}

function sum(cards) {
  return cards.reduce((a, b) => a + b, 0);
}

/* Fold one game's events up to the position into the table as the perspective saw it. */
function fold(replay, position, perspective, names) {
  const sees = (seat) => perspective === null || perspective === undefined || perspective === seat;
  const t = {
    round: 0, starter: null, acting: 0, target: 21, bets: [0, 0], stakes: [0, 0],
    hush: [null, null], faceUp: [[], []], deck: 0, hands: [[], []], handCount: [0, 0],
    table: [[], []], passed: [false, false], toMove: null, ended: null, over: null,
    log: [], last: [],
  };
  const lastStep = position.move - 1;
  for (const ev of eventsUpTo(replay, position, perspective)) {
    const p = ev.public;
    let line = null;
    if (ev.type === "round_start") {
      t.round = p.round; t.starter = p.starter; t.acting = p.acting_bet; t.target = p.target;
      t.bets = [...p.bets]; t.stakes = [...p.stakes]; t.deck = p.deck_count;
      t.faceUp = p.face_up.map((row) => [...row]); t.handCount = [...p.hands];
      t.table = [[], []]; t.passed = [false, false]; t.hush = [null, null]; t.ended = null;
      t.toMove = p.starter; t.log = [];
      for (const [seat, part] of Object.entries(privateParts(ev, perspective))) {
        t.hush[Number(seat)] = part.hush;
        t.hands[Number(seat)].push(...part.trumps);
      }
    } else if (ev.type === "trump") {
      const seat = p.seat;
      t.target = p.target; t.stakes = [...p.stakes]; t.deck = p.deck_count;
      t.handCount = [...p.hands]; t.faceUp = p.face_up.map((row) => [...row]);
      t.table = p.table.map((row) => [...row]);
      if (sees(seat)) {
        removeOne(t.hands[seat], p.trump);
        for (const gone of p.discarded || []) removeOne(t.hands[seat], gone);
      }
      for (const [owner, part] of Object.entries(privateParts(ev, perspective))) {
        t.hands[Number(owner)].push(...part.trumps);
      }
      t.toMove = seat;
      line = { seat, text: describeTrump(p, ev, perspective, names) };
    } else if (ev.type === "move") {
      const seat = p.seat;
      if (p.move === "draw") {
        t.faceUp[seat].push(p.card); t.deck = p.deck_count;
        if (p.hands) t.handCount = [...p.hands];
        for (const [owner, part] of Object.entries(privateParts(ev, perspective))) {
          t.hands[Number(owner)].push(...part.trumps);
        }
        line = { seat, text: `draws ${p.card}${p.bonus ? " and a trump (third card)" : ""}` };
      } else if (p.move === "pass") {
        t.passed[seat] = true;
        line = { seat, text: "passes" };
      } else {
        line = { seat, text: "ends the turn" };
      }
      const other = 1 - seat;
      t.toMove = !t.passed[other] ? other : (!t.passed[seat] ? seat : null);
    } else if (ev.type === "round_end") {
      t.ended = p; t.hush = [...p.hush]; t.faceUp = p.face_up.map((row) => [...row]);
      t.bets = [...p.bets]; t.stakes = [...p.stakes]; t.toMove = null;
    } else if (ev.type === "game_end") {
      t.over = p; t.bets = [...p.bets]; t.toMove = null;
    }
    if (line !== null) t.log.push(line);
    if (ev.step === lastStep && ev.step >= 0) t.last.push({ type: ev.type, public: p, line });
  }
  return t;
}

function describeTrump(p, ev, perspective, names) {
  const name = trumpLabel(p.trump);
  let effect = "";
  if ("took" in p) {
    if (p.took !== null) effect = `takes the ${p.took}`;
    else effect = p.trump.startsWith("add_") ? "the dealer refuses: the value is on the table" : "nothing: the card is not in the deck";
  } else if (p.trump === "remove") {
    effect = p.card === null ? "nothing to remove" : `the opponent's ${p.card} goes back into the deck`;
  } else if (p.trump === "return") {
    effect = p.card === null ? "nothing to return" : `own ${p.card} goes back into the deck`;
  } else if (p.trump === "exchange") {
    effect = p.gave === null ? "nothing to exchange" : `gives ${p.gave}, gets ${p.got}`;
  } else if (p.trump.startsWith("go_for_")) {
    effect = `target ${p.target}${p.replaced ? ` (replaces ${trumpLabel(p.replaced)})` : ""}`;
  } else if (p.trump === "destroy") {
    effect = p.destroyed === null ? "nothing on the table" : `destroys ${trumpLabel(p.destroyed)}`;
  } else if (p.trump === "trump_switch") {
    const gone = (p.discarded || []).map(trumpLabel).join(", ") || "nothing";
    effect = `discards ${gone}, draws ${p.drew}`;
  } else {
    effect = `stakes now ${names[0]} ${p.stakes[0]}, ${names[1]} ${p.stakes[1]}`;
  }
  const drew = privateParts(ev, perspective)[String(p.seat)];
  if (drew && drew.trumps.length) effect += ` (drew ${drew.trumps.map(trumpLabel).join(", ")})`;
  else if (p.trump === "two_up" && p.drew) effect += ", draws a trump";
  return `plays ${name}: ${effect}`;
}

function card(value, extra, hidden) {
  return el("span", { class: `t21-card ${extra || ""}`.trim(), "data-hidden": hidden ? "true" : "false", text: value });
}

function seatPanel(t, seat, names, perspective, showHush) {
  const sees = perspective === null || perspective === undefined || perspective === seat;
  const hushKnown = t.hush[seat] !== null && t.hush[seat] !== undefined;
  const shown = hushKnown && (showHush || sees);
  let hushCard;
  if (!shown) {
    hushCard = card("?", "t21-hush t21-back", true);
  } else {
    const look = showHush ? "t21-hush t21-shown" : "t21-hush t21-peek";
    hushCard = card(String(t.hush[seat]), look, false);
  }
  hushCard.setAttribute("data-hush", "");
  hushCard.setAttribute("data-seat", String(seat));
  hushCard.title = shown ? "hush card" : "hush card (face down)";
  const known = sum(t.faceUp[seat]);
  const totalText = shown ? `total ${known + t.hush[seat]} (shows ${known})` : `shows ${known} + ?`;
  const lying = t.table[seat].map((id) => el("span", { class: "t21-chip t21-lying", text: trumpLabel(id) }));
  let hand;
  if (sees) {
    hand = el("div", { class: "t21-chips", "data-trumps": String(seat), "data-hidden": "false" },
      el("span", { class: "t21-label", text: `trumps (${t.hands[seat].length})` }),
      ...t.hands[seat].map((id) => el("span", { class: "t21-chip", text: trumpLabel(id) })));
  } else {
    const backs = Array.from({ length: t.handCount[seat] }, () => el("span", { class: "t21-chip t21-chip-back", text: "?" }));
    hand = el("div", { class: "t21-chips", "data-trumps": String(seat), "data-hidden": "true" },
      el("span", { class: "t21-label", text: `trumps (${t.handCount[seat]})` }), ...backs);
  }
  const marks = [];
  if (t.starter === seat && !t.over) marks.push("starts");
  if (t.passed[seat]) marks.push("passed");
  if (t.toMove === seat) marks.push("to move");
  return el("section", { class: `t21-seat${t.toMove === seat ? " t21-turn" : ""}`, "data-seat": String(seat) },
    el("div", { class: "t21-seat-top" },
      el("span", { class: "t21-name", text: names[seat] }),
      el("span", { class: "t21-badge", text: `seat ${seat + 1}${marks.length ? " · " + marks.join(" · ") : ""}` }),
      el("span", { class: "t21-pad" },
        el("span", { "data-bets": String(seat), text: `bets ${t.bets[seat]}` }),
        el("span", { "data-stake": String(seat), text: `stake ${t.stakes[seat]}` }))),
    el("div", { class: "t21-row" },
      hushCard,
      ...t.faceUp[seat].map((value) => card(String(value), "", false)),
      el("span", { class: "t21-total", "data-total": String(seat), text: totalText })),
    lying.length ? el("div", { class: "t21-chips" }, el("span", { class: "t21-label", text: "on the table" }), ...lying) : null,
    hand);
}

function gamesSoFar(replay, position, names) {
  const wins = [0, 0];
  for (let index = 0; index < position.game; index += 1) {
    const placings = replay.games[index].placings;
    if (placings && placings[0] !== placings[1]) wins[placings.indexOf(0)] += 1;
  }
  return `games ${names[0]} ${wins[0]} – ${wins[1]} ${names[1]}`;
}

function resultText(ended, names) {
  const who = ended.winner === null ? "a draw: no bets move" : `${names[ended.winner]} wins, ${names[1 - ended.winner]} pays ${ended.paid}`;
  return `Round ${ended.round}: ${names[0]} ${ended.totals[0]} (hush ${ended.hush[0]}) vs ` +
    `${names[1]} ${ended.totals[1]} (hush ${ended.hush[1]}), target ${ended.target}: ${who}`;
}

export function render(element, replay, position, perspective) {
  ensureStyle();
  const names = seatNames(replay);
  const game = replay.games[position.game];
  const t = fold(replay, position, perspective, names);
  // Before the round's hush cards are turned up, the owner and the spectator see them as
  // peeks; once the round has ended (the last one of a game), everybody sees them.
  const roundOver = t.ended !== null && t.ended.round === t.round;
  const bottom = perspective === null || perspective === undefined ? 0 : perspective;
  const order = [1 - bottom, bottom];
  const lastLines = t.last
    .filter((item) => item.line !== null)
    .map((item) => `${names[item.line.seat]} ${item.line.text}`);
  const ended = t.last.find((item) => item.type === "round_end");
  const children = [
    el("div", { class: "t21-head" },
      el("strong", { text: `Game ${game.number}` }),
      el("span", { class: "t21-badge", text: `round ${t.round}` }),
      el("span", { class: "t21-badge", text: `acting bet ${t.acting}` }),
      el("span", { class: "t21-badge t21-target", "data-target": "", text: `target ${t.target}` }),
      el("span", { class: "t21-badge", text: gamesSoFar(replay, position, names) }),
      el("span", { class: "t21-badge", text: perspective === null || perspective === undefined ? "spectator" : `as ${names[perspective]}` })),
    seatPanel(t, order[0], names, perspective, roundOver),
    el("div", { class: "t21-middle" },
      el("span", { class: "t21-deck", "data-deck": "" }, card(String(t.deck), "t21-back", false), el("span", { text: "cards in the deck" }))),
    seatPanel(t, order[1], names, perspective, roundOver),
  ];
  if (position.move === 0) {
    children.push(el("div", { class: "t21-last", text: `Dealt: ${names[t.starter]} starts.` }));
  } else if (lastLines.length) {
    children.push(el("div", { class: "t21-last", "data-last": "", text: lastLines.join(" · ") }));
  }
  if (ended) children.push(el("div", { class: "t21-result", "data-result": "", text: resultText(ended.public, names) }));
  if (t.over) {
    const winner = t.over.winner === null ? "a tied game" : `${names[t.over.winner]} wins the game`;
    children.push(el("div", { class: "t21-result t21-over", "data-over": "", text: `Game over after ${t.over.rounds} rounds: ${winner} (bets ${t.over.bets[0]} – ${t.over.bets[1]})` }));
  }
  if (t.log.length) {
    children.push(el("ol", { class: "t21-log" }, ...t.log.map((line) => el("li", { text: `${names[line.seat]} ${line.text}` }))));
  }
  element.append(el("div", { class: "t21", "data-game": "twenty_one" }, ...children));
}

/*
 * Tieng Len renderer: the table after any move, from any seat's view or the spectator's.
 *
 * It folds the replay's events (never the rules): the deal gives the hands (each seat sees
 * its own; the spectator all), `play` takes cards out of a hand and onto the pile, `pass`
 * marks a seat out of the trick, `lead` clears the pile, `out` and `game_end` give places.
 * Other seats' hands are drawn face down with their counts. Seats sit round the table with
 * the viewer (seat 0 for the spectator) at the bottom, play going left, top, right.
 *
 * Test hooks: every card has data-card (its code, or "back"); hands have data-seat and
 * data-hidden; the pile is .tl-pile with data-trick; seats carry data-passed, data-place,
 * data-turn.
 */
import { adoptStyle, eventsUpTo, seatNames, el } from "../../viewer/events.js";

const STYLE_ID = "tieng-len-style";
const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const RANK_TEXT = { T: "10" };
const PLACES = ["1st", "2nd", "3rd", "4th"];
const SPOTS = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };
const KIND_TEXT = {
  single: "single", pair: "pair", triple: "triple", four: "four of a kind",
  sequence: "sequence", double_sequence: "double sequence",
};

const CSS = `
.tl-table { display: grid; gap: .5rem; padding: .75rem; border-radius: 14px;
  background: radial-gradient(ellipse at center, var(--felt, #17613c) 0%, var(--felt-dark, #0f4a2d) 100%);
  color: #f4f7f2; grid-template-columns: minmax(0, 1fr) minmax(0, 1.6fr) minmax(0, 1fr);
  grid-template-areas: ". top ." "left centre right" ". bottom ."; font-size: .9rem; }
.tl-seat { background: rgba(0, 0, 0, .22); border-radius: 10px; padding: .4rem .5rem; min-width: 0; }
.tl-seat[data-spot="top"] { grid-area: top; } .tl-seat[data-spot="bottom"] { grid-area: bottom; }
.tl-seat[data-spot="left"] { grid-area: left; } .tl-seat[data-spot="right"] { grid-area: right; }
.tl-seat[data-turn="true"] { box-shadow: 0 0 0 3px #f0b429; }
.tl-seat[data-passed="true"] { opacity: .72; }
.tl-seat-head { display: flex; flex-wrap: wrap; gap: .3rem; align-items: baseline; margin-bottom: .3rem; }
.tl-name { font-weight: 600; overflow-wrap: anywhere; }
.tl-badge { font-size: .75rem; border-radius: 999px; padding: 0 .45rem; background: rgba(255, 255, 255, .18); }
.tl-badge.tl-turn { background: #f0b429; color: #1d2330; }
.tl-badge.tl-place { background: #fff; color: #17613c; font-weight: 700; }
.tl-badge.tl-fault { background: #b42318; }
.tl-hand { display: flex; flex-wrap: wrap; gap: 2px; min-height: 2.2rem; }
.tl-card { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  width: 1.9rem; height: 2.6rem; border-radius: 4px; background: #fff; color: #1d2330;
  border: 1px solid #c8ccd4; font-weight: 700; line-height: 1; font-size: .8rem; }
.tl-card .tl-suit { font-size: .9rem; }
.tl-card.tl-red { color: var(--red-card, #c0141e); }
.tl-card.tl-back { background: repeating-linear-gradient(45deg, #2b4c8c 0 4px, #3a63ad 4px 8px);
  border-color: #1c335f; }
.tl-count { font-size: .8rem; opacity: .85; }
.tl-centre { grid-area: centre; display: flex; flex-direction: column; gap: .4rem; align-items: center;
  justify-content: center; min-height: 8rem; background: rgba(0, 0, 0, .12); border-radius: 10px; padding: .5rem; }
.tl-pile { display: flex; flex-wrap: wrap; gap: .35rem; justify-content: center; }
.tl-move { display: flex; flex-direction: column; align-items: center; gap: 2px; opacity: .6; }
.tl-move.tl-latest { opacity: 1; }
.tl-move .tl-who { font-size: .7rem; }
.tl-move .tl-cards { display: flex; gap: 1px; }
.tl-pass { font-size: .75rem; font-style: italic; padding: .2rem .4rem; border: 1px dashed rgba(255, 255, 255, .5); border-radius: 6px; }
.tl-bomb { font-size: .7rem; color: #f0b429; font-weight: 700; }
.tl-note { font-size: .85rem; text-align: center; }
.tl-results { width: 100%; border-collapse: collapse; font-size: .85rem; background: rgba(0, 0, 0, .25);
  border-radius: 8px; color: #f4f7f2; }
.tl-results td { padding: .15rem .5rem; text-align: left; background: transparent; color: inherit;
  border-bottom: 1px solid rgba(255, 255, 255, .15); }
.tl-scores { margin-top: .5rem; font-size: .85rem; }
.tl-scores table { border-collapse: collapse; }
.tl-scores td, .tl-scores th { padding: .1rem .5rem; border-bottom: 1px solid var(--line, #d9dde4); text-align: left; }
@media (max-width: 540px) {
  .tl-table { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    grid-template-areas: "top top" "left right" "centre centre" "bottom bottom"; }
  .tl-card { width: 1.6rem; height: 2.3rem; font-size: .7rem; }
}
`;

function ensureStyle() {
  adoptStyle(STYLE_ID, CSS);
}

function cardNode(code) {
  if (!code) return el("span", { class: "tl-card tl-back", "data-card": "back", "aria-label": "hidden card" });
  const rank = RANK_TEXT[code[0]] || code[0];
  const suit = code[1];
  const red = suit === "D" || suit === "H";
  return el("span", { class: red ? "tl-card tl-red" : "tl-card", "data-card": code, title: code },
    el("span", { text: rank }), el("span", { class: "tl-suit", text: SUITS[suit] || suit }));
}

/* Everything a perspective knows of one game after `position.move` steps, from the events. */
function fold(replay, position, perspective) {
  const seats = replay.seats.length;
  const view = {
    hands: Array(seats).fill(null), counts: Array(seats).fill(13), pile: [], passed: new Set(),
    out: [], eliminated: new Set(), dealer: null, leader: null, trick: 1, mustInclude: null,
    firstGame: false, end: null, instant: null, last: null,
  };
  for (const ev of eventsUpTo(replay, position, perspective)) {
    const pub = ev.public;
    if (ev.type === "deal") {
      view.dealer = pub.dealer;
      view.leader = pub.leader;
      view.counts = pub.counts.slice();
      view.mustInclude = pub.must_include;
      view.firstGame = pub.first_game;
      const parts = ev.all || (ev.mine ? { [perspective]: ev.mine } : {});
      for (const [seat, part] of Object.entries(parts)) view.hands[Number(seat)] = part.hand.slice();
    } else if (ev.type === "play") {
      const hand = view.hands[pub.seat];
      if (hand) view.hands[pub.seat] = hand.filter((c) => !pub.cards.includes(c));
      view.counts[pub.seat] = pub.left;
      view.pile.push({ seat: pub.seat, cards: pub.cards, kind: pub.kind, bomb: Boolean(pub.bomb) });
      view.mustInclude = null;
      view.last = { seat: pub.seat, cards: pub.cards, kind: pub.kind, bomb: Boolean(pub.bomb) };
    } else if (ev.type === "pass") {
      view.passed.add(pub.seat);
      view.pile.push({ seat: pub.seat, pass: true });
      view.last = { seat: pub.seat, pass: true };
    } else if (ev.type === "lead") {
      view.pile = [];
      view.passed = new Set();
      view.leader = pub.seat;
      view.trick = pub.trick;
    } else if (ev.type === "out") {
      view.out.push(pub.seat);
    } else if (ev.type === "eliminated") {
      view.eliminated.add(pub.seat);
      view.counts[pub.seat] = 0;
      view.hands[pub.seat] = [];
    } else if (ev.type === "instant_win") {
      view.instant = pub.kinds;
      for (const [seat, hand] of Object.entries(pub.hands)) view.hands[Number(seat)] = hand.slice();
    } else if (ev.type === "game_end") {
      view.end = { placings: pub.placings, points: pub.points, last: pub.last };
    }
  }
  const game = replay.games[position.game];
  const steps = game.steps || [];
  view.toMove = position.move < steps.length ? steps[position.move].seat : null;
  if (!view.end && position.move >= steps.length && game.placings) {
    view.end = { placings: game.placings, points: game.scores, last: null };  // a game a fault ended
  }
  return view;
}

function seatPanel(seat, spot, names, view, replay, position) {
  const hand = view.hands[seat];
  const place = view.end ? view.end.placings[seat] : view.out.indexOf(seat);
  const badges = [];
  if (view.dealer === seat) badges.push(el("span", { class: "tl-badge", text: "dealer" }));
  if (view.toMove === seat) {
    badges.push(el("span", { class: "tl-badge tl-turn", text: view.pile.length ? "to play" : "to lead" }));
  }
  if (view.passed.has(seat)) badges.push(el("span", { class: "tl-badge", text: "passed" }));
  if (place !== -1 && place !== undefined) {
    badges.push(el("span", { class: "tl-badge tl-place", text: PLACES[place] || `${place + 1}th` }));
  }
  if (view.eliminated.has(seat)) badges.push(el("span", { class: "tl-badge tl-fault", text: "out: fault" }));
  if (view.instant && view.instant[String(seat)]) {
    badges.push(el("span", { class: "tl-badge", text: view.instant[String(seat)].replace("_", " ") }));
  }
  let cards;
  const known = hand !== null;  // the fold gives a seat only the hands it saw
  if (known) {
    cards = hand.map((code) => cardNode(code));
  } else {
    cards = Array.from({ length: view.counts[seat] }, () => cardNode(null));
  }
  const total = matchPoints(replay, position, seat, view);
  return el("section", {
    class: "tl-seat", "data-seat": seat, "data-spot": spot,
    "data-turn": view.toMove === seat ? "true" : "false",
    "data-passed": view.passed.has(seat) ? "true" : "false",
    "data-place": place === -1 || place === undefined ? "" : String(place),
    "aria-label": `seat ${seat + 1}`,
  },
    el("div", { class: "tl-seat-head" },
      el("span", { class: "tl-name", text: names[seat] }),
      el("span", { class: "tl-count", text: `seat ${seat + 1} · ${view.counts[seat]} cards · ${total} pts` }),
      ...badges),
    el("div", { class: "tl-hand", "data-seat": seat, "data-hidden": known ? "false" : "true" }, ...cards),
  );
}

/* Match points before this game, plus this game's once it is over (public results only). */
function matchPoints(replay, position, seat, view) {
  let total = 0;
  for (let g = 0; g < position.game; g += 1) total += (replay.games[g].awarded || [])[seat] || 0;
  if (view.end && view.end.points) total += view.end.points[seat] || 0;
  return total;
}

function describe(names, move) {
  if (!move) return "";
  if (move.pass) return `${names[move.seat]} passes`;
  const kind = KIND_TEXT[move.kind] || move.kind;
  return `${names[move.seat]} plays ${kind} ${move.cards.join(" ")}${move.bomb ? " — a bomb on the 2s!" : ""}`;
}

function centre(names, view, replay, position) {
  const parts = [];
  const game = replay.games[position.game];
  parts.push(el("div", { class: "tl-note", text: `Game ${game.number} of ${replay.games.length} · trick ${view.trick}` }));
  if (view.end) {
    const order = names.map((_, seat) => seat).sort((a, b) => view.end.placings[a] - view.end.placings[b]);
    parts.push(el("table", { class: "tl-results" },
      el("tbody", {}, ...order.map((seat) => el("tr", { "data-seat": seat },
        el("td", { text: PLACES[view.end.placings[seat]] || `${view.end.placings[seat] + 1}th` }),
        el("td", { text: names[seat] }),
        el("td", { text: `+${view.end.points ? view.end.points[seat] : 0}` }))))));
  }
  const pile = el("div", { class: "tl-pile", "data-trick": view.trick });
  view.pile.forEach((move, index) => {
    const latest = index === view.pile.length - 1;
    if (move.pass) {
      pile.append(el("div", { class: latest ? "tl-move tl-latest" : "tl-move" },
        el("span", { class: "tl-pass", text: "pass" }), el("span", { class: "tl-who", text: names[move.seat] })));
    } else {
      pile.append(el("div", { class: latest ? "tl-move tl-latest" : "tl-move", "data-seat": move.seat },
        el("span", { class: "tl-cards" }, ...move.cards.map((c) => cardNode(c))),
        move.bomb ? el("span", { class: "tl-bomb", text: "BOMB" }) : null,
        el("span", { class: "tl-who", text: names[move.seat] })));
    }
  });
  parts.push(pile);
  if (!view.pile.length && !view.end && view.leader !== null && view.leader !== undefined) {
    const must = view.mustInclude ? ` (the first lead must hold ${view.mustInclude})` : "";
    parts.push(el("div", { class: "tl-note", text: `${names[view.leader]} leads${must}` }));
  }
  if (view.last) parts.push(el("div", { class: "tl-note tl-last", text: describe(names, view.last) }));
  if (view.out.length) {
    parts.push(el("div", { class: "tl-note tl-order", text: `Out: ${view.out.map((s) => names[s]).join(", ")}` }));
  }
  return el("div", { class: "tl-centre" }, ...parts);
}

function scoreboard(names, replay, position) {
  const rows = [];
  for (let g = 0; g < position.game; g += 1) {
    const game = replay.games[g];
    rows.push(el("tr", {}, el("td", { text: `game ${game.number}` }),
      ...names.map((_, seat) => el("td", { text: String((game.awarded || [])[seat] || 0) }))));
  }
  if (!rows.length) return null;
  const totals = names.map((_, seat) => replay.games.slice(0, position.game)
    .reduce((sum, game) => sum + ((game.awarded || [])[seat] || 0), 0));
  rows.push(el("tr", { class: "tl-total" }, el("th", { text: "before this game" }),
    ...totals.map((total) => el("th", { text: String(total) }))));
  return el("div", { class: "tl-scores" },
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", { text: "points" }), ...names.map((name) => el("th", { text: name })))),
      el("tbody", {}, ...rows)));
}

export function render(element, replay, position, perspective) {
  ensureStyle();
  const names = seatNames(replay);
  const view = fold(replay, position, perspective);
  const spots = SPOTS[names.length] || SPOTS[4];
  const bottom = perspective === null || perspective === undefined ? 0 : perspective;
  const panels = names.map((_, offset) => {
    const seat = (bottom + offset) % names.length;
    return seatPanel(seat, spots[offset], names, view, replay, position);
  });
  const spectator = perspective === null || perspective === undefined;
  element.append(el("div", { class: "tl-table", "data-view": spectator ? "spectator" : String(perspective) },
    ...panels, centre(names, view, replay, position)));
  const scores = scoreboard(names, replay, position);
  if (scores) element.append(scores);
}

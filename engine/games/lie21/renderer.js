/*
 * Lie 21 renderer for the replay viewer (docs/web.md#the-replay-viewer).
 *
 * Draws one position of a Lie 21 game from the replay's events as one perspective saw
 * them (arena/static/arena/viewer/events.js): the deal (each seat's hand private, the
 * turned-up trump public), `lie` (The Liar's face-up card public; its three cards are in its
 * own action, which only it sees), `hand_end` (public, with all six cards and both sums when
 * the hand was challenged; the cards each drawer drew private to it; the deck count public)
 * and `game_end` (the scores and the won piles, public). It never replays the rules: sums,
 * winners and scores are read from the events, or, for the spectator only, from the game's
 * spectator record (the sums and running points of forfeited hands, which no player sees).
 *
 * A player's view shows only what that bot saw: its own hand (the opponent's as backs), the
 * trump card, The Liar's face-up card, its own face-down cards, all six cards of a challenged
 * hand, and every card of the game once the game ends (the won piles are turned up; each
 * pile holds the hands its owner won, in order, The Liar's three cards then The Judge's).
 * Cards a player saw face down, or only at the end, are drawn with a dashed edge.
 *
 * For tests the board exposes what it shows as data-* attributes (docs/web.md).
 */
import { adoptStyle, eventsUpTo, seatNames, el, faultAt, FAULT_WORDS } from "../../viewer/events.js";

const SUITS = "SHDC";
const RANKS = "A234567JQK";
const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME = { A: "ace", J: "jack", Q: "queen", K: "king" };
const RULES = {
  forfeit: "Forfeit: The Judge answered face down, so The Liar wins",
  bust: "Bust: over 21 loses",
  closer: "Closer to 21",
  more_trumps: "More trumps",
  higher_trump: "Higher trump",
  liar_wins_tie: "Tie without trumps: The Liar wins",
};
const GAME_RESULTS = {
  win: "win (61-89)",
  double: "double (90+)",
  sweep: "sweep (120)",
  tie: "tie (60-60)",
};
const HAND_SIZE = 3; // cards played by each side in a hand
const WON_PER_HAND = 2 * HAND_SIZE;

/* Display order of cards in a hand: by suit, then rank; jokers last. */
function cardOrder(card) {
  if (card[0] === "X") return 40 + (card === "XR" ? 0 : 1);
  return SUITS.indexOf(card[1]) * 10 + RANKS.indexOf(card[0]);
}

function sortCards(cards) {
  return cards.slice().sort((a, b) => cardOrder(a) - cardOrder(b));
}

function cardName(card) {
  if (card === "XR") return "red joker";
  if (card === "XB") return "black joker";
  return `${RANK_NAME[card[0]] || card[0]} of ${SUIT_NAME[card[1]]}`;
}

function removeCards(hand, cards) {
  const left = hand.slice();
  for (const card of cards) {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}

/* --- what the perspective knows at the position ------------------------------------- */

function fold(replay, position, perspective) {
  const game = replay.games[position.game];
  const spectator = perspective === null || perspective === undefined;
  const record = (spectator && game.record) || {};
  const steps = game.steps || [];
  const state = {
    number: game.number,
    dealer: null,
    trumpCard: null,
    trumpSuit: null,
    deck: 0,
    hands: [null, null], // the cards of a hand this perspective sees, else null
    counts: [0, 0],
    captured: [0, 0],
    drawn: [[], []], // cards the last step drew (to highlight them)
    played: [], // hands of this game so far, as seen
    current: null,
    phase: "deal",
    points: null, // running game points (spectator only, from the record)
    scores: null, // game points at game end (public)
    piles: null, // the won piles turned up at game end
  };
  let lastStep = -1;
  for (const ev of eventsUpTo(replay, position, perspective)) {
    if (ev.step !== lastStep) {
      state.drawn = [[], []];
      lastStep = ev.step;
    }
    if (ev.type === "deal") {
      const pub = ev.public;
      state.dealer = pub.dealer;
      state.trumpCard = pub.trump_card;
      state.trumpSuit = pub.trump_suit;
      state.deck = pub.deck_count;
      const parts = ev.all || (ev.mine ? { [perspective]: ev.mine } : {});
      const dealt = Object.values(parts).map((part) => part.hand.length);
      for (const seat of [0, 1]) {
        const part = parts[String(seat)];
        state.hands[seat] = part ? sortCards(part.hand) : null;
        state.counts[seat] = part ? part.hand.length : Math.max(0, ...dealt);
      }
    } else if (ev.type === "lie") {
      const pub = ev.public;
      const hand = {
        number: pub.hand,
        liar: pub.liar,
        judge: 1 - pub.liar,
        faceUp: pub.face_up,
        liarCards: ev.action ? ev.action.cards.slice() : null, // in the order played
        faceUpIndex: ev.action ? ev.action.face_up : null,
        judgeCards: null,
        challenge: null,
        answered: false,
      };
      state.played.push(hand);
      state.current = hand;
      state.phase = "lie";
      if (hand.liarCards && state.hands[hand.liar]) {
        state.hands[hand.liar] = removeCards(state.hands[hand.liar], hand.liarCards);
      }
      state.counts[hand.liar] -= HAND_SIZE;
    } else if (ev.type === "hand_end") {
      const pub = ev.public;
      const hand = state.current && state.current.number === pub.number ? state.current : null;
      if (!hand) continue;
      hand.answered = true;
      hand.challenge = pub.challenge;
      hand.winner = pub.winner;
      hand.rule = pub.rule;
      if (ev.action && ev.seat === hand.judge) {
        hand.judgeCards = ev.action.cards.slice();
        if (state.hands[hand.judge]) {
          state.hands[hand.judge] = removeCards(state.hands[hand.judge], hand.judgeCards);
        }
      }
      state.counts[hand.judge] -= HAND_SIZE;
      if (pub.challenge) {
        hand.liarCards = pub.liar_cards.slice();
        hand.judgeCards = pub.judge_cards.slice();
        hand.faceUpIndex = pub.liar_cards.indexOf(pub.face_up);
        hand.sums = [pub.liar_sum, pub.judge_sum];
      }
      const spectatorHand = (record.hands || [])[pub.number - 1];
      if (spectatorHand) {
        hand.sums = hand.sums || [spectatorHand.liar_sum, spectatorHand.judge_sum];
        state.points = spectatorHand.points.slice();
      }
      state.captured[pub.winner] += WON_PER_HAND;
      const drawnTotal = state.deck - pub.deck_count;
      state.deck = pub.deck_count;
      const parts = ev.all || (ev.mine ? { [perspective]: ev.mine } : {});
      let known = 0;
      for (const [seat, part] of Object.entries(parts)) {
        const s = Number(seat);
        if (state.hands[s]) state.hands[s] = sortCards(state.hands[s].concat(part.drew));
        state.counts[s] += part.drew.length;
        state.drawn[s] = part.drew.slice();
        known += part.drew.length;
      }
      if (!spectatorHandsKnown(state)) {
        // The other side's draw is seen only as the deck shrinking.
        for (const seat of [0, 1]) {
          if (!state.hands[seat]) state.counts[seat] += drawnTotal - known;
        }
      }
      state.phase = "hand_end";
    } else if (ev.type === "game_end") {
      state.scores = ev.public.scores.slice();
      state.piles = ev.public.captured.map((pile) => pile.slice());
      state.phase = "game_end";
      revealFromPiles(state);
    }
  }
  if (position.move >= steps.length && game.end === "fault") state.phase = "fault";
  return state;
}

function spectatorHandsKnown(state) {
  return state.hands[0] !== null && state.hands[1] !== null;
}

/* At game end the won piles are turned up: each holds the hands its owner won, in order,
 * The Liar's three cards then The Judge's, so every card of every hand is known. */
function revealFromPiles(state) {
  const next = [0, 0];
  for (const hand of state.played) {
    if (hand.winner === undefined) continue;
    const pile = state.piles[hand.winner] || [];
    const won = pile.slice(next[hand.winner], next[hand.winner] + WON_PER_HAND);
    next[hand.winner] += WON_PER_HAND;
    if (won.length !== WON_PER_HAND) continue;
    hand.revealedLiar = won.slice(0, HAND_SIZE);
    hand.revealedJudge = won.slice(HAND_SIZE);
  }
}

/* --- cards ---------------------------------------------------------------------------- */

/* state: "up" (face up), "down" (seen face down, or only at the end), "back" (unseen). */
function cardEl(card, state, extra) {
  if (state === "back" || !card) {
    return el("span", {
      class: `card back${extra ? ` ${extra}` : ""}`,
      "data-card": "back",
      role: "img",
      "aria-label": "face-down card",
    });
  }
  const joker = card[0] === "X";
  const suit = joker ? (card === "XR" ? "H" : "S") : card[1];
  const red = suit === "H" || suit === "D";
  const classes = ["card", red ? "red" : "black"];
  if (joker) classes.push("joker");
  if (state === "down") classes.push("down");
  if (extra) classes.push(extra);
  const label = cardName(card) + (state === "down" ? " (face down)" : "");
  return el("span", { class: classes.join(" "), "data-card": card, "data-state": state, role: "img",
    "aria-label": label, title: label },
  el("span", { class: "rank", text: joker ? "\u2605" : card[0] }),
  el("span", { class: "suit", text: joker ? "Joker" : SUIT_SYMBOL[suit] }));
}

function slotEl() {
  return el("span", { class: "card slot", "data-card": "", "aria-hidden": "true" });
}

/* The Liar's three cards as `view` sees them: its face-up card always; the rest when the
 * viewer is The Liar or the spectator, the hand was challenged, or the game is over. */
function liarCardEls(hand, view, over) {
  const shownAll = hand.challenge === true;
  if (hand.liarCards) {
    return hand.liarCards.map((card, i) => {
      const isFaceUp = i === hand.faceUpIndex;
      const state = isFaceUp || shownAll ? "up" : "down";
      return cardEl(card, state, isFaceUp ? "shown" : "");
    });
  }
  if (over && hand.revealedLiar) {
    return hand.revealedLiar.map((card) =>
      cardEl(card, card === hand.faceUp ? "up" : "down", card === hand.faceUp ? "shown" : ""));
  }
  // Another player's lie: the face-up card, and two cards it never saw.
  return [cardEl(hand.faceUp, "up", "shown"), cardEl(null, "back"), cardEl(null, "back")];
}

function judgeCardEls(hand, view, over) {
  if (!hand.answered) return [slotEl(), slotEl(), slotEl()];
  const cards = hand.judgeCards || (over ? hand.revealedJudge : null);
  if (!cards) return [cardEl(null, "back"), cardEl(null, "back"), cardEl(null, "back")];
  return cards.map((card) => cardEl(card, hand.challenge ? "up" : "down"));
}

/* --- drawing ---------------------------------------------------------------------------- */

export function render(element, replay, position, perspective) {
  ensureStyle();
  const view = perspective === null || perspective === undefined ? null : perspective;
  const names = seatNames(replay);
  const name = (seat) => names[seat] || `seat ${seat + 1}`;
  const game = replay.games[position.game];
  const state = fold(replay, position, view);
  const over = state.phase === "game_end";
  const hand = state.current;
  const matchPoints = [0, 0];
  replay.games.slice(0, position.game + (over ? 1 : 0)).forEach((g) => {
    (g.awarded || []).forEach((points, seat) => { matchPoints[seat] += points; });
  });

  const board = el("div", {
    class: "l21",
    id: "l21-board",
    "data-phase": state.phase,
    "data-game": game.number,
    "data-hand": hand ? hand.number : "",
    "data-view": view === null ? "spectator" : view,
  });
  const fault = state.phase === "fault" ? faultAt(replay, position) : null;
  board.append(el("p", { class: "l21-status", id: "l21-status", "data-hand": headingHand(hand, fault),
    text: describe(state, hand, name, fault) }));

  const felt = el("div", { class: "felt" + (view === 1 ? " view-1" : "") });
  const seatEl = (seat, where) => {
    const visible = view === null || view === seat;
    const cards = visible && state.hands[seat]
      ? state.hands[seat].map((card) => cardEl(card, "up", state.drawn[seat].includes(card) ? "new" : ""))
      : Array.from({ length: Math.max(0, state.counts[seat]) }, () => cardEl(null, "back"));
    let role = "";
    if (hand) role = seat === hand.liar ? "The Liar" : "The Judge";
    else if (state.phase === "deal" && seat === state.dealer) role = "Dealer (The Liar of hand 1)";
    const showPoints = view === null || over;
    const points = over ? state.scores[seat] : state.points ? state.points[seat] : 0;
    return el("div", { class: `seat seat-${where}`, id: `l21-seat-${seat}`, "data-seat": seat },
      el("div", { class: "seat-head" },
        el("span", { class: "seat-name", text: name(seat) }),
        el("span", { class: "role", text: role }),
        el("span", { class: "tally" },
          el("span", { id: `l21-won-${seat}`, text: `${state.captured[seat]} cards won` }), " · ",
          el("span", { id: `l21-points-${seat}`, "data-points": showPoints ? points : "",
            text: showPoints ? `${points} pts` : "? pts" }), " · ",
          el("span", { id: `l21-mp-${seat}`, "data-match-points": matchPoints[seat],
            text: `${matchPoints[seat]} MP` }))),
      el("div", { class: "cards hand", id: `l21-hand-${seat}`, "data-count": cards.length,
        "aria-label": `${name(seat)}'s hand` }, ...cards));
  };

  const deck = el("div", { class: "deck" + (state.deck === 0 ? " empty" : ""), id: "l21-deck", "data-count": state.deck },
    el("span", { class: "trump-under", id: "l21-trump", "data-card": state.deck > 0 ? state.trumpCard : "" },
      state.deck > 0 ? cardEl(state.trumpCard, "up", "trump") : null),
    el("span", { class: "card back pile", "aria-hidden": "true" }),
    el("span", { class: "deck-count", text: `${state.deck} in deck` }));
  const trumpText = state.trumpSuit
    ? `Trump: ${SUIT_SYMBOL[state.trumpSuit]} ${SUIT_NAME[state.trumpSuit]}`
    : "No trump (a Joker is turned up)";
  const middle = el("div", { class: "table-middle" },
    el("div", { class: "stock" }, deck, el("p", { class: "trump-suit", text: trumpText })),
    hand ? playArea(hand, view, over, name) : null);

  felt.append(seatEl(1, "top"), middle, seatEl(0, "bottom"));
  board.append(felt);

  if (over || state.phase === "fault") board.append(gameEnd(game, state, name, matchPoints));
  board.append(el("h3", { class: "history-heading", text: "Hands of this game" }),
    el("ol", { class: "hand-history", id: "l21-history" },
      ...state.played.filter((h) => h.answered).map((h) => historyItem(h, view, over, name, h === hand))));
  board.append(el("p", { class: "l21-legend muted", text:
    "A player's view shows only what that bot saw at the table: its own hand, the turned-up trump, " +
    "The Liar's face-up card, its own face-down cards, all six cards of a challenged hand, and every " +
    "card of a game once it ends. Cards seen face down (or only at the end) have a dashed edge; " +
    "new cards just drawn are outlined." }));
  element.append(board);
}

function playArea(hand, view, over, name) {
  const answered = hand.answered;
  const sumsShown = answered && hand.sums && (hand.challenge || view === null);
  const sum = (i, id) => {
    const value = sumsShown ? hand.sums[i] : "";
    const node = el("span", { class: "sum", id, "data-sum": value,
      text: sumsShown ? `sum ${value}` : answered ? "sum not shown" : "" });
    if (sumsShown && value > 21) node.classList.add("bust");
    if (sumsShown && !hand.challenge) {
      node.classList.add("private");
      node.title = "Not shown to the players: the hand was forfeited";
    }
    return node;
  };
  return el("div", { class: "play-area", id: "l21-play-area" },
    el("div", { class: "played liar" },
      el("span", { class: "played-name", text: `The Liar: ${name(hand.liar)}` }),
      el("div", { class: "cards", id: "l21-liar-cards" }, ...liarCardEls(hand, view, over)),
      sum(0, "l21-liar-sum")),
    el("div", { class: "played judge" },
      el("span", { class: "played-name", text: `The Judge: ${name(hand.judge)}` }), " ",
      el("span", { class: "answer", text: answered ? (hand.challenge ? "Challenge (face up)" : "Forfeit (face down)") : "" }),
      el("div", { class: "cards", id: "l21-judge-cards" }, ...judgeCardEls(hand, view, over)),
      sum(1, "l21-judge-sum")),
    el("p", { class: "outcome", id: "l21-outcome", "data-winner": answered ? hand.winner : "",
      "data-rule": answered ? hand.rule : "",
      text: answered ? `${name(hand.winner)} wins the hand \u2014 ${RULES[hand.rule] || hand.rule}` : "" }));
}

function historyItem(hand, view, over, name, current) {
  const sums = hand.sums && (hand.challenge || view === null)
    ? `${hand.sums[0]} v ${hand.sums[1]}${hand.challenge ? "" : " (not shown to players)"}`
    : "sums not shown";
  return el("li", { "data-hand": hand.number, class: current ? "current" : "" },
    el("span", { class: "hand-no", text: `Hand ${hand.number}` }),
    el("span", { class: "who", text: `${name(hand.liar)} (Liar)` }),
    el("span", { class: "cards mini" }, ...liarCardEls(hand, view, over)),
    el("span", { class: "who", text: `v ${name(hand.judge)} (Judge)` }),
    el("span", { class: "cards mini" }, ...judgeCardEls(hand, view, over)),
    el("span", { class: "hand-result", text: `${sums} \u2192 ${name(hand.winner)}, ${String(hand.rule).replace(/_/g, " ")}` }));
}

function gameEnd(game, state, name, matchPoints) {
  if (state.phase === "fault") {
    return el("p", { class: "game-end", id: "l21-game-end", "data-end": "fault",
      text: `Game ${game.number} stopped here: a bot's fault ended it (see the match result).` });
  }
  const placings = game.placings || [];
  const firsts = placings.map((p, seat) => (p === 0 ? seat : -1)).filter((seat) => seat >= 0);
  const winner = firsts.length === 1 ? `${name(firsts[0])} wins the game` : "Tied game";
  const awarded = (game.awarded || []).join("\u2013");
  return el("p", { class: "game-end", id: "l21-game-end", "data-end": "complete", text:
    `Game ${game.number}: ${name(0)} ${state.scores[0]} \u2013 ${state.scores[1]} ${name(1)}. ` +
    `${winner}, ${GAME_RESULTS[game.result] || game.result}. Match points awarded ${awarded}; ` +
    `match points now ${matchPoints[0]}\u2013${matchPoints[1]}.` });
}

/* The hand a heading names: where a fault stopped the game, the fault's own hand (the
 * table may still show the last hand played: a Liar that fails before its lie of hand 4
 * leaves hand 3 on the table, and the heading must say hand 4, as the fault box does). */
function headingHand(hand, fault) {
  if (fault && fault.where && Number.isInteger(fault.where.hand)) return fault.where.hand;
  return hand ? hand.number : "";
}

function describe(state, hand, name, fault) {
  const number = headingHand(hand, fault);
  const prefix = `Game ${state.number}` + (number ? `, hand ${number}` : "") + ": ";
  switch (state.phase) {
    case "deal":
      return `${prefix}${name(state.dealer)} deals; the turned-up card is ${cardName(state.trumpCard)}.`;
    case "lie":
      return `${prefix}${name(hand.liar)} (The Liar) plays three cards, one face up.`;
    case "hand_end": {
      const answer = hand.challenge ? "challenges: three cards face up" : "forfeits: three cards face down";
      return `${prefix}${name(hand.judge)} (The Judge) ${answer}; ${name(hand.winner)} wins the hand ` +
        `(${String(hand.rule).replace(/_/g, " ")}).`;
    }
    case "game_end":
      return `${prefix}the game is over: every card is revealed.`;
    case "fault": {
      if (!fault) return `${prefix}the game stopped on a bot's fault.`;
      const phase = fault.where && fault.where.phase;
      const role = phase === "lie" ? " (The Liar)" : phase === "answer" ? " (The Judge)" : "";
      return `${prefix}${name(fault.seat)}${role} ${FAULT_WORDS[fault.kind] || fault.kind}; ` +
        "the game stopped on its fault.";
    }
    default:
      return prefix;
  }
}

/* --- the look (this game's styles live with its renderer) --------------------------------- */

const STYLE_ID = "l21-style";

function ensureStyle() {
  adoptStyle(STYLE_ID, `
.l21 { --felt: #17613c; --felt-dark: #0f4a2d; --red-card: #c0141e; }
.l21-status { font-weight: 600; min-height: 3em; margin: .25rem 0; }
.l21 .felt { display: flex; flex-direction: column; gap: .75rem;
  background: radial-gradient(ellipse at center, var(--felt) 0%, var(--felt-dark) 100%);
  color: #f2f7f3; border-radius: 12px; padding: .75rem; }
.l21 .felt.view-1 .seat-top { order: 3; }
.l21 .felt.view-1 .table-middle { order: 2; }
.l21 .felt.view-1 .seat-bottom { order: 1; }
.l21 .seat-head { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: baseline; margin-bottom: .3rem; }
.l21 .seat-name { font-weight: 700; overflow-wrap: anywhere; }
.l21 .role { background: rgba(255,255,255,.15); border-radius: 999px; padding: 0 .5rem; font-size: .85rem; }
.l21 .role:empty { display: none; }
.l21 .tally { font-size: .85rem; opacity: .9; }
.l21 .table-middle { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.l21 .stock { min-width: 6.5rem; }
.l21 .deck { position: relative; width: 6rem; height: 5rem; }
.l21 .deck .pile { position: absolute; left: 0; top: 0; z-index: 2; box-shadow: 2px 2px 0 #0b3320, 4px 4px 0 #0b3320; }
.l21 .deck .trump-under { position: absolute; left: 2rem; top: .7rem; transform: rotate(90deg); z-index: 1; }
.l21 .deck.empty .pile { visibility: hidden; }
.l21 .deck-count { position: absolute; left: 0; top: 4.1rem; font-size: .8rem; white-space: nowrap; }
.l21 .trump-suit { font-size: .85rem; margin: .25rem 0 0; }
.l21 .play-area { flex: 1 1 16rem; display: grid; gap: .4rem; min-width: 0; }
.l21 .played { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .6rem; }
.l21 .played-name { font-size: .85rem; min-width: 9rem; overflow-wrap: anywhere; }
.l21 .answer { font-size: .8rem; opacity: .85; }
.l21 .sum { font-weight: 700; font-variant-numeric: tabular-nums; }
.l21 .sum.bust { color: #ffb4ab; }
.l21 .sum.private { opacity: .75; font-style: italic; }
.l21 .outcome { margin: .2rem 0 0; font-weight: 600; }
.l21 .cards { display: flex; flex-wrap: wrap; gap: .3rem; min-height: 3.9em; }
.l21 .card { display: inline-flex; flex-direction: column; justify-content: space-between;
  width: 2.6em; height: 3.7em; padding: .15em .25em; border-radius: .35em;
  background: #fffdf8; color: #111; border: 1px solid #9aa0a8; box-shadow: 0 1px 2px rgba(0,0,0,.35);
  font-weight: 700; line-height: 1; user-select: none; flex: none; }
.l21 .card .rank { font-size: 1.05em; }
.l21 .card .suit { font-size: 1.15em; align-self: flex-end; }
.l21 .card.red { color: var(--red-card); }
.l21 .card.joker .suit { font-size: .55em; }
.l21 .card.down { border: 2px dashed #f0b429; background: #fff6dd; }
.l21 .card.shown { outline: 2px solid #f0b429; outline-offset: 1px; }
.l21 .card.new { box-shadow: 0 0 0 3px #8fd3ff; }
.l21 .card.trump { background: #fff; }
.l21 .card.back { background: repeating-linear-gradient(45deg, #2b4c7e 0 4px, #3a619c 4px 8px); border: 2px solid #fff; }
.l21 .card.slot { background: transparent; border: 1px dashed rgba(255,255,255,.45); box-shadow: none; }
.l21 .cards.mini .card { font-size: .7rem; }
.l21 .game-end { background: #fff; border: 1px solid #d9dde4; border-left: 4px solid #1f5fbf; border-radius: 6px;
  padding: .5rem .75rem; font-weight: 600; margin: .75rem 0; }
.l21 .history-heading { font-size: 1rem; margin: 1rem 0 .4rem; }
.l21 .hand-history { padding: 0; list-style: none; display: grid; gap: .35rem; margin: 0; }
.l21 .hand-history li { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; background: #fff;
  border: 1px solid #d9dde4; border-radius: 6px; padding: .35rem .5rem; font-size: .85rem; }
.l21 .hand-history li.current { border-color: #1f5fbf; }
.l21 .hand-history .hand-no { font-weight: 700; }
.l21 .hand-history .cards { min-height: 0; }
.l21-legend { font-size: .85rem; }
@media (max-width: 30rem) {
  .l21 .card { width: 2.3em; height: 3.3em; }
  .l21 .played-name { min-width: 0; width: 100%; }
}
`);
}

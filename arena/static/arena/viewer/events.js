/*
 * What a renderer reads of a replay (docs/web.md#replay-viewer): the game-neutral helpers
 * every game's renderer module imports. A renderer never replays the rules: it folds the
 * events the engine logged, as one perspective saw them.
 *
 * A position is {game, move}: `game` indexes replay.games, `move` is how many of that
 * game's steps have been played (0 = just dealt, steps.length = the game is over).
 * A perspective is null (the spectator: sees everything) or a seat number.
 */

export const SPECTATOR = null;

/* The part of one event a perspective sees: {type, public, mine, all}.
 * `mine` is that seat's private part (undefined if none); `all` maps every seat to its
 * private part and is given to the spectator only. */
export function seen(event, perspective) {
  const privateParts = event.private || {};
  const view = { type: event.type, public: event.public || {}, mine: undefined, all: undefined };
  if (perspective === null || perspective === undefined) {
    view.all = privateParts;
  } else {
    view.mine = privateParts[String(perspective)];
  }
  return view;
}

/* A step's action as a perspective sees it: an action is private to the seat that took it. */
export function actionSeen(step, perspective) {
  if (perspective === null || perspective === undefined || perspective === step.seat) {
    return step.action;
  }
  return null;
}

/* Every event of a game up to a position, as a perspective saw them, in order. Each item:
 * {type, public, mine, all, step, seat, action} where step is the index of the step that
 * caused it (-1 for the deal), seat who moved and action what it did (null if not seen). */
export function eventsUpTo(replay, position, perspective) {
  const game = replay.games[position.game];
  const out = [];
  for (const event of game.start || []) {
    out.push({ ...seen(event, perspective), step: -1, seat: null, action: null });
  }
  const steps = game.steps || [];
  const upto = Math.min(position.move, steps.length);
  for (let index = 0; index < upto; index += 1) {
    const step = steps[index];
    for (const event of step.events || []) {
      out.push({ ...seen(event, perspective), step: index, seat: step.seat,
                 action: actionSeen(step, perspective) });
    }
  }
  return out;
}

/* The seat names of a replay, by seat. */
export function seatNames(replay) {
  return replay.seats.map((seat) => seat.name);
}

/* A small DOM helper: el("div", {class: "x"}, child, "text"). Text goes in as text only
 * (names and anything from bots never become markup); `style` is set through the CSSOM. */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    // Through the CSSOM: the site's policy refuses style="" attributes (see adoptStyle).
    else if (key === "style") node.style.cssText = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/* --- faults: where each one happened, in the words every page uses --------------------- */

/* How a fault kind reads in a sentence ("alice crashed"); the site's arena/web/seats.py
 * FAULT_WORDS says the same. */
export const FAULT_WORDS = {
  timeout: "timed out",
  crash: "crashed",
  memory: "ran out of memory",
  illegal_move: "played an illegal move",
  bad_output: "sent bad output",
  forbidden: "tried a forbidden operation",
  protocol: "broke the bot protocol",
};

/* A game's own location ({hand: 4, phase: "lie"}) as "hand 4, lie" (engine/steplogs.py's
 * where_words: the match page and the local replay say the same). */
export function whereWords(where) {
  return Object.entries(where || {})
    .map(([key, value]) => (key === "phase" ? String(value) : `${key.replace(/_/g, " ")} ${value}`))
    .join(", ");
}

/* Every fault of the replay with the position the viewer shows it at: {fault, gameIndex,
 * move, where} (gameIndex -1 for a fault before the first game). A fault at step s stopped
 * its game with s steps played, so it shows at move s (engine/steplogs.py fault_moments). */
export function faultMoments(replay) {
  return (replay.faults || []).map((fault) => {
    const number = fault.game;
    if (!number || number > replay.games.length) return { fault, gameIndex: -1, move: 0, where: "before the first game" };
    const steps = (replay.games[number - 1].steps || []).length;
    const move = Number.isInteger(fault.step) ? Math.min(fault.step, steps) : steps;
    const moment = move ? `after step ${move}` : "at the deal";
    const words = whereWords(fault.where);
    return { fault, gameIndex: number - 1, move, where: `game ${number}, ${moment}${words ? `: ${words}` : ""}` };
  });
}

/* The fault of the game at `position` once the game has stopped on it, or null: what a
 * renderer names in its heading at that moment (its hand, round or trick). */
export function faultAt(replay, position) {
  for (const moment of faultMoments(replay)) {
    if (moment.gameIndex === position.game && moment.move === position.move) return moment.fault;
  }
  return null;
}

/* A renderer's styles, added to the page once: a constructed style sheet the document adopts.
 * The site's Content-Security-Policy refuses <style> elements a script adds (only the
 * response's own, with its nonce, apply); style sheets built through the CSSOM are the
 * page's own code styling itself, and apply. `key` names the sheet so it is added once. */
const adopted = new Set();
export function adoptStyle(key, css) {
  if (adopted.has(key)) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  adopted.add(key);
}

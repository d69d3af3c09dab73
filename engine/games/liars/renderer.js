/* Liars renderer: the table of seats with their lives, the mat and the cup with the dice as
 * one perspective saw them (the spectator sees every die), the round's chain of
 * announcements, and the last reveal. It folds the engine's events only (engine/games/liars/rules.md,
 * "The replay"): it never decides a rule itself. */
import { adoptStyle, eventsUpTo, seatNames, el } from "../../viewer/events.js";

const FACES = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
const CATEGORY = {
  nothing: "nothing", pair: "pair", two_pairs: "two pairs", three: "three of a kind",
  small_straight: "small straight", large_straight: "large straight", full: "full house",
  four: "four of a kind", five: "five of a kind",
};
const REASON = {
  refused_true: "the dice held",
  refused_false: "the dice fell short",
  contest_won: "five 6s made: no life lost",
  contest_lost: "five 6s missed",
  lie: "a lie in the first round",
  void: "a forfeit: the round is void",
};

const STYLE = `
.liars { font-family: system-ui, sans-serif; color: #1d2b1f; }
.liars-head { display: flex; gap: 1rem; flex-wrap: wrap; align-items: baseline; margin: 0 0 .5rem; }
.liars-head .view { margin-left: auto; font-size: .85rem; opacity: .75; }
.liars-table { position: relative; height: 420px; border-radius: 48% / 40%;
  background: radial-gradient(ellipse at center, #2f7d4a 0%, #1f5a34 70%, #173f26 100%);
  box-shadow: inset 0 0 0 10px #6b4423, inset 0 0 0 14px #4a2e17; margin: 1rem 0; }
.liars-seat { position: absolute; transform: translate(-50%, -50%); min-width: 7.5rem;
  background: #fdfaf2; border-radius: .6rem; padding: .35rem .6rem; text-align: center;
  box-shadow: 0 2px 6px rgba(0,0,0,.35); font-size: .85rem; }
.liars-seat[data-to-act="true"] { outline: 3px solid #f2c14e; }
.liars-seat[data-out="true"] { opacity: .45; text-decoration: line-through; }
.liars-seat .name { font-weight: 600; display: block; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; max-width: 9rem; }
.liars-seat .lives { color: #c0392b; letter-spacing: .1rem; }
.liars-seat .said { display: block; font-size: .75rem; color: #555; }
.liars-seat .place { display: block; font-weight: 700; color: #1f5a34; }
.liars-center { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%);
  display: flex; gap: 1rem; align-items: center; }
.liars-mat, .liars-cup { display: flex; gap: .3rem; padding: .4rem .6rem; border-radius: .6rem;
  min-height: 3.2rem; align-items: center; }
.liars-mat { background: rgba(255,255,255,.12); }
.liars-cup { background: #5b3a1e; border: 2px solid #3b2410; position: relative; }
.liars-cup::before { content: "cup"; position: absolute; top: -1.1rem; left: .3rem;
  font-size: .7rem; color: #f3e9d2; }
.liars-die { font-size: 2.6rem; line-height: 1; color: #fff; width: 2.6rem; text-align: center;
  position: relative; }
.liars-die[data-known="false"] { font-size: 1.3rem; background: #2b1a0b; color: #d8c7a6;
  border-radius: .35rem; height: 2.4rem; line-height: 2.4rem; }
.liars-die[data-fresh="true"] { color: #f2c14e; }
.liars-die[data-unthrown="true"] { opacity: .3; }
.liars-die sub { position: absolute; bottom: -.9rem; left: 0; right: 0; font-size: .6rem;
  color: #e8f3ea; }
.liars-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
  gap: .75rem; }
.liars-panel { background: #f6f3ea; border-radius: .5rem; padding: .5rem .75rem; }
.liars-panel h4 { margin: 0 0 .3rem; font-size: .9rem; }
.liars-panel ol { margin: 0; padding-left: 1.2rem; font-size: .85rem; }
.liars-last { font-weight: 600; }
.liars-reveal .liars-die { color: #1d2b1f; font-size: 2rem; width: 2rem; }
`;

function ensureStyle() {
  adoptStyle("liars-renderer-style", STYLE);
}

function handText(hand, category, throws) {
  const name = CATEGORY[category] || category || "";
  const extra = throws ? ` in ${throws}` : "";
  return `${name}${extra} (${hand.join(" ")})`;
}

/* The private part of an event for the thrower/looker, as this perspective sees it. */
function privateOf(ev, seat) {
  if (ev.all) return ev.all[String(seat)];
  return ev.mine;
}

function fold(replay, position, perspective) {
  const names = seatNames(replay);
  const t = {
    n: names.length, names, lives: names.map(() => 3), out: names.map(() => false),
    round: 0, starter: 0, direction: 1, dice: [], chain: [], said: names.map(() => ""),
    last: "The game begins.", reveal: null, ended: null, placings: null, rounds: [],
  };
  const fresh = () => [0, 1, 2, 3, 4].map(() => ({ value: null, hidden: false, unthrown: true, fresh: false }));
  t.dice = fresh();
  for (const ev of eventsUpTo(replay, position, perspective)) {
    const p = ev.public;
    t.dice.forEach((d) => { if (ev.type === "throw" || ev.type === "round_start") d.fresh = false; });
    if (ev.type === "start") {
      t.lives = p.lives.slice();
      p.out.forEach((s) => { t.out[s] = true; });
    } else if (ev.type === "round_start") {
      t.round = p.round; t.starter = p.starter; t.direction = p.direction;
      t.lives = p.lives.slice(); t.dice = fresh(); t.chain = []; t.said = names.map(() => "");
      t.last = `Round ${p.round}: ${names[p.starter]} starts.`;
    } else if (ev.type === "throw") {
      (p.cover || []).forEach((i) => { t.dice[i].hidden = true; });
      const mine = privateOf(ev, p.seat);
      p.dice.forEach((i, k) => {
        const die = t.dice[i];
        die.unthrown = false; die.fresh = true;
        die.hidden = p.hide.includes(i);
        if (p.up[k] !== null) die.value = p.up[k];
        else die.value = mine ? mine.values[k] : null;
      });
      const hid = p.hide.length ? `, ${p.hide.length} under the cup` : "";
      const contest = p.contest ? ` (contest throw ${p.contest})` : "";
      t.last = `${names[p.seat]} throws ${p.dice.length} ${p.dice.length === 1 ? "die" : "dice"}${hid}${contest}.`;
    } else if (ev.type === "look") {
      const mine = privateOf(ev, p.seat);
      if (mine) mine.values.forEach(([i, v]) => { t.dice[i].value = v; });
      t.last = `${names[p.seat]} looks under the cup.`;
    } else if (ev.type === "announce") {
      t.direction = p.direction;
      t.chain.push({ seat: p.seat, text: handText(p.hand, p.category, p.throws), better: p.better });
      t.said[p.seat] = handText(p.hand, p.category, p.throws);
      t.last = `${names[p.seat]} announces ${handText(p.hand, p.category, p.throws)}${p.better ? " (\u201cbetter\u201d)" : ""} to ${names[p.to]}.`;
    } else if (ev.type === "refuse") {
      t.reveal = { dice: p.dice, hidden: p.hidden, text: `${names[p.seat]} calls ${names[p.bettor]} a liar.` };
      p.dice.forEach((v, i) => { t.dice[i].value = v; });
      t.last = `${names[p.seat]} refuses: "liar!"`;
    } else if (ev.type === "lie") {
      t.reveal = { dice: p.dice, hidden: [], text: `${names[p.seat]} lied in the first round.` };
      p.dice.forEach((v, i) => { t.dice[i].value = v; });
    } else if (ev.type === "round_end") {
      t.lives = p.lives.slice();
      if (p.out !== null) t.out[p.out] = true;
      if (p.forfeit !== null) t.out[p.forfeit] = true;
      const who = p.loser !== null ? ` ${names[p.loser]} loses a life.` : "";
      const gone = p.out !== null ? ` ${names[p.out]} is out.` : "";
      t.ended = { round: p.round, reason: REASON[p.reason] || p.reason, who, gone,
        dice: p.dice, reveal: t.reveal };
      t.rounds.push({ round: p.round, text: `${REASON[p.reason] || p.reason}.${who}${gone}` });
      t.reveal = null;
    } else if (ev.type === "game_end") {
      t.placings = p.placings;
      t.lives = p.lives.slice();
    }
  }
  const game = replay.games[position.game];
  if (!t.placings && position.move >= (game.steps || []).length && game.placings) {
    t.placings = game.placings;
  }
  const steps = game.steps || [];
  t.toAct = position.move < steps.length ? steps[position.move].seat : null;
  return t;
}

function die(d, index) {
  const known = d.value !== null;
  return el("span", {
    class: "liars-die", "data-die": index, "data-value": known ? d.value : "?",
    "data-known": known ? "true" : "false", "data-covered": d.hidden ? "true" : "false",
    "data-unthrown": d.unthrown ? "true" : "false", "data-fresh": d.fresh ? "true" : "false",
    title: d.unthrown ? "not thrown yet" : `die ${index}${d.hidden ? " (under the cup)" : ""}`,
    text: d.unthrown ? FACES[6] : known ? FACES[d.value] : "?",
  }, el("sub", { text: String(index) }));
}

function seatBox(t, seat) {
  const angle = Math.PI / 2 + (2 * Math.PI * seat) / t.n;
  const left = 50 + 41 * Math.cos(angle);
  const top = 50 + 40 * Math.sin(angle);
  const place = t.placings ? t.placings[seat] : null;
  return el("div", {
    class: "liars-seat", "data-seat": seat, "data-lives": t.lives[seat],
    "data-out": t.out[seat] ? "true" : "false", "data-to-act": t.toAct === seat ? "true" : "false",
    style: `left:${left}%;top:${top}%`,
  },
  el("span", { class: "name", text: t.names[seat] }),
  el("span", { class: "lives", text: "\u2665".repeat(t.lives[seat]) + "\u2661".repeat(Math.max(0, 3 - t.lives[seat])) }),
  t.starter === seat && !t.placings ? el("span", { class: "said", text: "starter" }) : null,
  t.said[seat] ? el("span", { class: "said", text: t.said[seat] }) : null,
  place !== null ? el("span", { class: "place", "data-place": place, text: `place ${place + 1}` }) : null);
}

export function render(element, replay, position, perspective) {
  ensureStyle();
  const t = fold(replay, position, perspective);
  const view = perspective === null || perspective === undefined
    ? "spectator: every die" : `seen by ${t.names[perspective]}`;
  const mat = [];
  const cup = [];
  t.dice.forEach((d, i) => (d.hidden ? cup : mat).push(die(d, i)));
  const arrow = t.direction === 1 ? "\u21bb" : "\u21ba";
  const chain = t.chain.length
    ? el("ol", { class: "liars-chain" }, ...t.chain.map((c) => el("li", { "data-seat": c.seat, text: `${t.names[c.seat]}: ${c.text}` })))
    : el("p", { text: "No announcement yet." });
  let ended = null;
  if (t.ended) {
    const shown = t.ended.dice
      ? el("div", { class: "liars-reveal" }, ...t.ended.dice.map((v, i) => el("span", {
        class: "liars-die", "data-reveal": i, "data-value": v, text: FACES[v] })))
      : null;
    ended = el("div", { class: "liars-panel liars-ended", "data-round": t.ended.round },
      el("h4", { text: `Round ${t.ended.round} ended` }),
      t.ended.reveal ? el("p", { text: t.ended.reveal.text }) : null,
      shown,
      el("p", { text: `${t.ended.reason}.${t.ended.who}${t.ended.gone}` }));
  }
  const result = t.placings
    ? el("div", { class: "liars-panel liars-result" }, el("h4", { text: "Final placings" }),
      el("ol", {}, ...t.placings.map((rank, seat) => ({ rank, seat }))
        .sort((a, b) => a.rank - b.rank)
        .map(({ rank, seat }) => el("li", { "data-seat": seat, text: `${t.names[seat]} (place ${rank + 1})` }))))
    : null;
  element.append(el("div", { class: "liars", "data-round": t.round },
    el("div", { class: "liars-head" },
      el("strong", { text: `Round ${t.round}` }),
      el("span", { text: `${arrow} play goes to seat ${t.direction === 1 ? "+1" : "-1"}` }),
      el("span", { class: "view", "data-view": perspective ?? "spectator", text: view })),
    el("p", { class: "liars-last", text: t.last }),
    el("div", { class: "liars-table" },
      ...t.names.map((_, seat) => seatBox(t, seat)),
      el("div", { class: "liars-center" },
        el("div", { class: "liars-mat", title: "uncovered dice" }, ...mat),
        el("div", { class: "liars-cup", title: "under the cup" }, ...cup))),
    el("div", { class: "liars-panels" },
      el("div", { class: "liars-panel" }, el("h4", { text: "Announcements this round" }), chain),
      ended,
      result,
      t.rounds.length
        ? el("div", { class: "liars-panel" }, el("h4", { text: "Rounds" }),
          el("ol", {}, ...t.rounds.map((r) => el("li", { text: `Round ${r.round}: ${r.text}` }))))
        : null)));
}

/*
 * The replay viewer shell (docs/web.md#the-replay-viewer): game-neutral.
 *
 * It reads the replay document embedded in the match page, loads the game's renderer
 * module (the game folder's renderer.js, served as static/arena/games/<game>/renderer.js,
 * which exports render(element, replay, position, perspective)) and gives it a position and a
 * perspective; everything else is here: the timeline over every game and step, the step
 * controls, play / pause and speed, jumps (game, fault), the perspective switch for the
 * spectator and every seat, keyboard navigation, links to a step (#game=G&step=S), and the
 * owner's log lines beside the step they belong to. The shell never replays any rules.
 *
 * A position is {game, move}: `game` indexes replay.games, `move` is how many of that
 * game's steps have been played (0 = just dealt). In links and logs, games count from 1
 * (the replay's `number`) and `step` is that same move count: #game=3&step=41 is game 3
 * after its 41st step, #game=3&step=0 its deal.
 *
 * Names and anything from bots reach the page through textContent only.
 */

import { el, faultMoments, FAULT_WORDS } from "./events.js";

const SPEEDS = [0.5, 1, 2, 4, 8];
const BASE_DELAY_MS = 1200;

const root = document.getElementById("replay-viewer");
const source = document.getElementById("replay-data");

function $(id) {
  return document.getElementById(id);
}

function readJson(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

/* Every position of the match, game by game: the deal, then one per step played. */
function buildTimeline(replay) {
  const timeline = [];
  replay.games.forEach((game, index) => {
    const steps = (game.steps || []).length;
    for (let move = 0; move <= steps; move += 1) timeline.push({ game: index, move });
  });
  return timeline;
}

function ordinal(n) {
  const tens = n % 100;
  if (tens >= 10 && tens <= 20) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

const FAULTS = FAULT_WORDS;

class Viewer {
  constructor(replay, logs) {
    this.replay = replay;
    this.timeline = buildTimeline(replay);
    this.names = replay.seats.map((seat) => seat.name || `seat ${seat.seat + 1}`);
    this.logs = logs || [];
    this.index = 0;
    this.perspective = null;
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.renderer = null;
    this.board = $("rv-board");
    this.logLines = this.indexLogs();
  }

  /* --- positions -------------------------------------------------------------------- */

  get position() {
    return this.timeline[this.index] || null;
  }

  indexOf(gameIndex, move) {
    let found = -1;
    this.timeline.forEach((pos, i) => {
      if (pos.game === gameIndex && pos.move <= move) found = i;
    });
    return found;
  }

  /* --- the owner's logs, filed by position ------------------------------------------ */

  indexLogs() {
    const byIndex = new Map();
    for (const log of this.logs) {
      for (const entry of log.entries || []) {
        let at = 0; // before the first game: shown at the start
        if (entry.game >= 1 && Number.isInteger(entry.step)) {
          at = Math.max(0, this.indexOf(entry.game - 1, entry.step));
        }
        if (!byIndex.has(at)) byIndex.set(at, []);
        byIndex.get(at).push({ seat: log.seat, name: log.name, label: entry.label, text: entry.text });
      }
    }
    return byIndex;
  }

  /* --- drawing ---------------------------------------------------------------------- */

  render() {
    const pos = this.position;
    root.dataset.view = this.perspective === null ? "spectator" : String(this.perspective);
    root.dataset.index = String(this.index);
    this.board.replaceChildren();
    delete root.dataset.renderError;
    if (pos && this.renderer) {
      try {
        this.renderer.render(this.board, this.replay, { game: pos.game, move: pos.move }, this.perspective);
        this.hideMessage("render");
      } catch (error) {
        root.dataset.renderError = String(error && error.message ? error.message : error);
        this.showMessage(`This step could not be drawn: ${root.dataset.renderError}`, "render");
      }
    }
    this.renderPosition(pos);
    this.renderFault(pos);
    this.renderLog();
    this.renderMatchEnd();
    this.syncControls();
  }

  renderPosition(pos) {
    const where = $("rv-position");
    if (!pos) {
      where.textContent = "No game was played.";
      where.dataset.game = where.dataset.step = "";
      return;
    }
    const game = this.replay.games[pos.game];
    const steps = (game.steps || []).length;
    const mover = pos.move < steps ? game.steps[pos.move].seat : null;
    const toMove = mover === null ? "" : ` · ${this.names[mover]} to move`;
    where.textContent =
      `Game ${game.number} of ${this.replay.games.length} · ` +
      (pos.move === 0 ? "the deal" : `step ${pos.move} of ${steps}`) +
      (pos.move === steps ? (game.end === "fault" ? " · stopped by a fault" : " · game over") : toMove);
    where.dataset.game = String(game.number);
    where.dataset.step = String(pos.move);
    where.dataset.index = String(this.index);
    const link = `#game=${game.number}&step=${pos.move}` +
      (this.perspective === null ? "" : `&view=${this.perspective + 1}`);
    $("rv-link").setAttribute("href", link);
    if (window.location.hash !== link && this.followHash) {
      window.history.replaceState(null, "", link);
    }
  }

  /* At the moment a fault stopped a game: who failed, how and where, in the words of the
   * match page's fault box and the renderer's heading (both from the replay's fault). */
  renderFault(pos) {
    const box = $("rv-fault");
    if (!box) return;
    const here = pos ? faultMoments(this.replay).filter((m) => m.gameIndex === pos.game && m.move === pos.move) : [];
    box.hidden = here.length === 0;
    box.replaceChildren(...here.map((moment) => el("p", { "data-seat": moment.fault.seat, "data-kind": moment.fault.kind },
      el("strong", { text: `${this.names[moment.fault.seat]} ${FAULTS[moment.fault.kind] || moment.fault.kind}` }),
      ` here (${moment.where}) and is out: ${moment.fault.detail}`)));
    box.dataset.count = String(here.length);
  }

  renderLog() {
    const panel = $("rv-log");
    if (!this.logs.length) return;
    panel.hidden = false;
    const lines = this.logLines.get(this.index) || [];
    const box = $("rv-log-lines");
    if (!lines.length) {
      box.replaceChildren(el("p", { class: "muted", text: "Nothing printed at this step." }));
    } else {
      box.replaceChildren(...lines.map((line) => el("div", { class: "log-line", "data-seat": line.seat },
        el("p", { class: "log-marker", text: `${line.name} · ${line.label}` }),
        el("pre", { class: "log", text: line.text }))));
    }
    box.dataset.count = String(lines.length);
    const indices = [...this.logLines.keys()];
    $("rv-log-prev").disabled = !indices.some((i) => i < this.index);
    $("rv-log-next").disabled = !indices.some((i) => i > this.index);
  }

  renderMatchEnd() {
    const box = $("rv-match-end");
    const atEnd = this.index >= this.timeline.length - 1;
    if (!atEnd) {
      box.hidden = true;
      box.textContent = "";
      return;
    }
    const replay = this.replay;
    const order = replay.seats.map((_, seat) => seat)
      .sort((a, b) => replay.placings[a] - replay.placings[b] || a - b);
    const places = order.map((seat) => {
      const shared = replay.placings.filter((p) => p === replay.placings[seat]).length > 1;
      return `${shared ? "=" : ""}${ordinal(replay.placings[seat] + 1)} ${this.names[seat]} (${replay.scores[seat]})`;
    });
    let text = `Match over after ${replay.games_played} complete game${replay.games_played === 1 ? "" : "s"} ` +
      `(${String(replay.reason).replace(/_/g, " ")}): ${places.join(", ")}.`;
    for (const fault of replay.faults || []) {
      const moment = Number.isInteger(fault.step) ? (fault.step ? `, after step ${fault.step}` : ", at the deal") : "";
      const where = fault.game ? ` in game ${fault.game}${moment}` : " before the first game";
      text += ` ${this.names[fault.seat]} lost by a fault (${FAULTS[fault.kind] || fault.kind})${where}: ${fault.detail}.`;
    }
    box.textContent = text;
    box.hidden = false;
  }

  showMessage(text, kind) {
    const box = $("rv-message");
    box.textContent = text;
    box.dataset.kind = kind;
    box.hidden = false;
  }

  hideMessage(kind) {
    const box = $("rv-message");
    if (box.dataset.kind === kind) {
      box.hidden = true;
      box.textContent = "";
    }
  }

  /* --- controls --------------------------------------------------------------------- */

  buildControls() {
    const fieldset = $("rv-perspective");
    const views = [{ value: "spectator", label: "Spectator", note: "(everything)", key: "0" }]
      .concat(this.names.map((name, seat) => ({
        value: String(seat), label: name, note: `(seat ${seat + 1})`, key: seat < 9 ? String(seat + 1) : "",
      })));
    for (const view of views) {
      const radio = el("input", { type: "radio", name: "rv-view", id: `rv-view-${view.value}`, value: view.value });
      radio.addEventListener("change", () => this.setPerspective(view.value === "spectator" ? null : Number(view.value)));
      fieldset.append(el("label", { for: `rv-view-${view.value}` }, radio, ` ${view.label} `,
        el("span", { class: "muted", text: view.note }), view.key ? " " : null, view.key ? el("kbd", { text: view.key }) : null));
    }
    const games = $("rv-jump-game");
    this.replay.games.forEach((game, index) => {
      const label = `Game ${game.number}` + (game.end === "fault" ? " (fault)" : game.result ? ` (${game.result})` : "");
      games.append(el("option", { value: String(index), text: label }));
    });
    games.disabled = this.replay.games.length === 0;
    games.addEventListener("change", () => this.go(this.indexOf(Number(games.value), 0), true));

    const slider = $("rv-slider");
    slider.max = String(Math.max(0, this.timeline.length - 1));
    slider.disabled = this.timeline.length === 0;
    slider.addEventListener("input", () => this.go(Number(slider.value), true));

    $("rv-first").addEventListener("click", () => this.go(0, true));
    $("rv-prev").addEventListener("click", () => this.go(this.index - 1, true));
    $("rv-next").addEventListener("click", () => this.go(this.index + 1, true));
    $("rv-last").addEventListener("click", () => this.go(this.timeline.length - 1, true));
    $("rv-play").addEventListener("click", () => this.toggle());
    $("rv-speed").addEventListener("change", (event) => this.setSpeed(Number(event.target.value)));
    const fault = this.firstFault();
    const jump = $("rv-jump-fault");
    jump.hidden = fault < 0;
    jump.addEventListener("click", () => this.go(fault, true));
    $("rv-log-prev").addEventListener("click", () => this.stepLog(-1));
    $("rv-log-next").addEventListener("click", () => this.stepLog(1));
    document.addEventListener("keydown", (event) => this.onKey(event));
    window.addEventListener("hashchange", () => this.fromHash(true));
  }

  firstFault() {
    for (const moment of faultMoments(this.replay)) {
      if (moment.gameIndex >= 0) return this.indexOf(moment.gameIndex, moment.move);
    }
    return -1;
  }

  stepLog(direction) {
    const indices = [...this.logLines.keys()].sort((a, b) => a - b);
    const target = direction > 0 ? indices.find((i) => i > this.index)
      : indices.reverse().find((i) => i < this.index);
    if (target !== undefined) this.go(target, true);
  }

  syncControls() {
    const last = this.timeline.length - 1;
    $("rv-slider").value = String(this.index);
    $("rv-first").disabled = $("rv-prev").disabled = this.index <= 0;
    $("rv-next").disabled = $("rv-last").disabled = this.index >= last;
    const play = $("rv-play");
    play.disabled = last <= 0;
    play.setAttribute("aria-pressed", this.playing ? "true" : "false");
    play.classList.toggle("playing", this.playing);
    play.setAttribute("aria-label", this.playing ? "Pause (space)" : "Play (space)");
    const pos = this.position;
    if (pos) $("rv-jump-game").value = String(pos.game);
    const current = this.perspective === null ? "spectator" : String(this.perspective);
    for (const radio of document.querySelectorAll("input[name=rv-view]")) {
      radio.checked = radio.value === current;
    }
  }

  go(index, byHand) {
    if (byHand) this.stop();
    const last = Math.max(0, this.timeline.length - 1);
    this.index = Math.max(0, Math.min(last, Number.isFinite(index) ? index : 0));
    if (this.index >= last) this.stop();
    this.render();
  }

  setPerspective(perspective) {
    const seats = this.names.length;
    this.perspective = perspective === null || (perspective >= 0 && perspective < seats) ? perspective : null;
    this.render();
  }

  setSpeed(speed) {
    this.speed = SPEEDS.includes(speed) ? speed : 1;
    $("rv-speed").value = String(this.speed);
    if (this.playing) this.schedule();
  }

  schedule() {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.tick(), BASE_DELAY_MS / this.speed);
  }

  tick() {
    if (!this.playing) return;
    this.go(this.index + 1, false);
    if (this.playing) this.schedule();
  }

  play() {
    if (this.timeline.length <= 1) return;
    if (this.index >= this.timeline.length - 1) this.index = 0;
    this.playing = true;
    this.schedule();
    this.render();
  }

  stop() {
    this.playing = false;
    window.clearTimeout(this.timer);
    this.timer = null;
  }

  toggle() {
    if (this.playing) {
      this.stop();
      this.render();
    } else {
      this.play();
    }
  }

  stepGame(direction) {
    const pos = this.position;
    if (!pos) return;
    const start = this.indexOf(pos.game, 0);
    if (direction < 0) {
      const target = this.index > start ? start : this.indexOf(pos.game - 1, 0);
      this.go(target < 0 ? 0 : target, true);
    } else if (pos.game + 1 < this.replay.games.length) {
      this.go(this.indexOf(pos.game + 1, 0), true);
    } else {
      this.go(this.timeline.length - 1, true);
    }
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const target = event.target;
    const tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "select" || tag === "textarea" || (target && target.isContentEditable)) {
      return; // the control's own keys win (typing, arrows on the slider or a radio)
    }
    if ((tag === "button" || tag === "a" || tag === "summary") && (event.key === " " || event.key === "Enter")) {
      return; // activating a focused control is that control's job
    }
    let handled = true;
    switch (event.key) {
      case " ":
      case "k":
        this.toggle();
        break;
      case "ArrowRight":
        this.go(this.index + 1, true);
        break;
      case "ArrowLeft":
        this.go(this.index - 1, true);
        break;
      case "Home":
        this.go(0, true);
        break;
      case "End":
        this.go(this.timeline.length - 1, true);
        break;
      case "PageDown":
      case "]":
        this.stepGame(1);
        break;
      case "PageUp":
      case "[":
        this.stepGame(-1);
        break;
      case "f":
      case "F": {
        const at = this.firstFault();
        if (at >= 0) this.go(at, true);
        else handled = false;
        break;
      }
      case "+":
      case "=":
        this.setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, SPEEDS.indexOf(this.speed) + 1)]);
        break;
      case "-":
        this.setSpeed(SPEEDS[Math.max(0, SPEEDS.indexOf(this.speed) - 1)]);
        break;
      default:
        if (/^[0-9]$/.test(event.key) && Number(event.key) <= this.names.length) {
          this.setPerspective(event.key === "0" ? null : Number(event.key) - 1);
        } else {
          handled = false;
        }
    }
    if (handled) event.preventDefault();
  }

  /* #game=G&step=S[&view=V]: G counts games from 1, S is the steps played (0 = the deal),
   * V a seat counted from 1 (0 or absent: the spectator). */
  fromHash(scroll) {
    const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    if (!params.has("game")) return false;
    const number = Number(params.get("game"));
    const step = Number(params.get("step") || 0);
    if (!Number.isInteger(number) || number < 1 || number > this.replay.games.length) return false;
    const index = this.indexOf(number - 1, Number.isFinite(step) && step >= 0 ? step : 0);
    if (params.has("view")) {
      const view = Number(params.get("view"));
      this.perspective = Number.isInteger(view) && view >= 1 && view <= this.names.length ? view - 1 : null;
    }
    this.go(index, true);
    if (scroll) root.scrollIntoView({ block: "start" });
    return true;
  }

  async start() {
    this.buildControls();
    root.hidden = false;
    const url = root.dataset.renderer;
    const title = root.dataset.gameTitle || this.replay.game;
    if (this.timeline.length === 0) {
      this.showMessage("No game was played: the match ended before its first deal.", "empty");
    } else {
      try {
        this.renderer = await import(url);
        if (typeof this.renderer.render !== "function") throw new Error("it exports no render()");
      } catch (error) {
        this.renderer = null;
        root.dataset.rendererError = "true";
        this.showMessage(
          `The ${title} replay cannot be drawn here: its renderer did not load (${error.message || error}). ` +
          "The controls, the result and the replay JSON still work.", "load");
      }
    }
    this.fromHash(false);
    this.followHash = true;
    this.render();
    root.dataset.ready = "true";
  }
}

if (root && source) {
  const replay = JSON.parse(source.textContent);
  const viewer = new Viewer(replay, readJson("viewer-logs"));
  window.arenaViewer = viewer; // for tests and the curious: the state, never needed by the page
  viewer.start();
}

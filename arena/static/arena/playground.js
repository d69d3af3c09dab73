/*
 * The playground page (/games/<game>/play/, docs/web.md#the-playground).
 *
 * The editor (CodeMirror, bundled in ./editor/) holds the draft; it is saved as you type
 * (POST /api/playground/drafts/). Run posts the source to /api/playground/runs/, where it is
 * checked as an upload is: a refusal is shown with its line marked in the editor. A run is
 * polled until done; each match opens inline in the site's own viewer (the match's page,
 * framed: the viewer is not copied here), at the draft's fault when it had one.
 * Upload as new version is a plain form: the server takes the source through the normal
 * upload and shows the version's page, validating.
 *
 * Anything from a bot or another user reaches the page through textContent only.
 */

import { createEditor } from "./editor/editor.bundle.js";

const config = JSON.parse(document.getElementById("playground-config").textContent);
const starter = JSON.parse(document.getElementById("playground-starter").textContent);
const csrf = document.querySelector("#upload-form input[name=csrfmiddlewaretoken]").value;
const POLL_MS = 1000;
const SAVE_DELAY_MS = 1200;

function $(id) {
  return document.getElementById(id);
}

/* A moment as every page of the site writes it (arena_tags.WHEN_FORMAT, "D j M Y, H:i T"):
 * "Tue 1 Dec 2026, 14:30 UTC", in the server's time zone, whatever the browser's. */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function when(moment) {
  const parts = {};
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone: config.timeZone || "UTC",
    weekday: "short",
    day: "numeric",
    month: "numeric",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  });
  for (const { type, value } of format.formatToParts(moment)) parts[type] = value;
  const month = MONTHS[Number(parts.month) - 1];
  return `${parts.weekday} ${Number(parts.day)} ${month} ${parts.year}, ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

async function api(method, url, body) {
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = { detail: `the server answered ${response.status} ${response.statusText}` };
  }
  return { ok: response.ok, status: response.status, data, retryAfter: response.headers.get("Retry-After") };
}

const bytes = (text) => new Blob([text]).size;

/* --- the draft ------------------------------------------------------------------------ */

const status = $("draft-status");
let saveTimer = null;
let saving = Promise.resolve();
let savedSource = JSON.parse(document.getElementById("playground-source").textContent);

const editor = createEditor($("editor"), {
  doc: savedSource,
  label: `${config.title} bot source (bot.py)`,
  onChange: () => {
    status.textContent = "Unsaved changes…";
    status.dataset.state = "dirty";
    window.clearTimeout(saveTimer);
    saveTimer = window.setTimeout(() => save(), SAVE_DELAY_MS);
    hideRefusal();
  },
});
window.arenaPlayground = { editor }; // for tests and the curious

function save() {
  window.clearTimeout(saveTimer);
  const source = editor.getSource();
  if (source === savedSource) return saving;
  if (bytes(source) > config.uploadMax) {
    status.textContent = `Not saved: ${bytes(source).toLocaleString()} bytes is over the ${config.uploadMax.toLocaleString()}-byte limit of a bot.`;
    status.dataset.state = "error";
    return saving;
  }
  status.textContent = "Saving…";
  saving = api("POST", config.urls.drafts, { game: config.game, source }).then(({ ok, data }) => {
    if (ok) {
      savedSource = source;
      config.draftId = data.id;
      if (editor.getSource() === source) {
        status.textContent = `Draft saved at ${when(data.updated ? new Date(data.updated) : new Date())}.`;
        status.dataset.state = "saved";
      }
    } else {
      status.textContent = `Not saved: ${data.detail}`;
      status.dataset.state = "error";
    }
  }).catch(() => {
    status.textContent = "Not saved: the arena cannot be reached. Your text stays here.";
    status.dataset.state = "error";
  });
  return saving;
}

window.addEventListener("beforeunload", (event) => {
  if (editor.getSource() !== savedSource) {
    save();
    event.preventDefault();
  }
});

$("reset-starter").addEventListener("click", () => {
  if (editor.getSource() !== starter && !window.confirm("Replace your draft with the starter bot? (Undo brings it back.)")) return;
  editor.setSource(starter);
  editor.view.focus();
});

$("download-draft").addEventListener("click", (event) => {
  const link = event.currentTarget;
  link.href = URL.createObjectURL(new Blob([editor.getSource()], { type: "text/x-python" }));
  window.setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
});

/* --- refusals: the upload check's verdict, with its line ------------------------------- */

const refusal = $("check-error");
let refusalLine = null;

function showRefusal(text, line) {
  $("check-error-text").textContent = text;
  refusalLine = Number.isInteger(line) ? line : null;
  $("check-error-line").hidden = refusalLine === null;
  if (refusalLine !== null) {
    $("check-error-line").textContent = `Show line ${refusalLine}`;
    editor.showError(refusalLine, text);
  }
  refusal.hidden = false;
}

function hideRefusal() {
  if (refusal.hidden) return;
  refusal.hidden = true;
  editor.clearError();
}

$("check-error-line").addEventListener("click", () => {
  if (refusalLine !== null) editor.focusLine(refusalLine);
});

/* --- the run form ------------------------------------------------------------------------ */

const seatsBox = $("run-seats");
const playersSelect = $("run-players");

/* Opponents found by the search (any ladder bot, however long the ladder): offered in every
 * seat's list from then on, under "Found". */
const found = new Map();

function opponentSelect(index, value) {
  const select = el("select", { id: `run-opponent-${index}`, class: "pg-opponent", "aria-label": `Opponent ${index + 1}` });
  const offered = new Set();
  for (const group of config.opponents) {
    const optgroup = el("optgroup", { label: group.group });
    for (const choice of group.choices) {
      optgroup.append(el("option", { value: choice.ref, text: choice.label }));
      offered.add(choice.ref);
    }
    select.append(optgroup);
  }
  const extra = [...found.values()].filter((choice) => !offered.has(choice.ref));
  if (extra.length) {
    const optgroup = el("optgroup", { label: "Found", "data-found": "true" });
    for (const choice of extra) optgroup.append(el("option", { value: choice.ref, text: choice.label }));
    select.append(optgroup);
  }
  select.value = value || "random";
  if (!select.value) select.selectedIndex = 0;
  return select;
}

function seatSelects() {
  return [...seatsBox.querySelectorAll("select")];
}

function buildSeats() {
  const players = playersSelect ? Number(playersSelect.value) : config.minPlayers;
  const kept = seatSelects().map((select) => select.value);
  seatSelects().forEach((select) => select.remove());
  for (let index = 0; index < players - 1; index += 1) seatsBox.append(opponentSelect(index, kept[index]));
  showFound();
}

/* --- finding an opponent: GET /api/playground/opponents/?game=&search=&page= ------------- */

const finder = { input: $("opponent-search"), list: $("opponent-results"), more: $("opponent-more"), status: $("opponent-search-status") };
let findTimer = null;
let findSeq = 0;
let findNext = null;
let results = [];

function seatIt(index, choice) {
  found.set(choice.ref, choice);
  const select = $(`run-opponent-${index}`);
  if (![...select.options].some((option) => option.value === choice.ref)) {
    let group = select.querySelector("optgroup[data-found]");
    if (!group) {
      group = el("optgroup", { label: "Found", "data-found": "true" });
      select.append(group);
    }
    group.append(el("option", { value: choice.ref, text: choice.label }));
  }
  select.value = choice.ref;
  finder.status.textContent = `${choice.label} sits in seat ${index + 2} (opponent ${index + 1}).`;
}

function showFound() {
  if (!finder.list) return;
  const seats = seatSelects().length;
  finder.list.replaceChildren(...results.map((choice) => {
    const buttons = Array.from({ length: seats }, (_, index) => {
      const button = el("button", {
        type: "button",
        class: "secondary small",
        "data-ref": choice.ref,
        "data-seat": String(index),
        text: seats === 1 ? "Choose" : `Opponent ${index + 1}`,
      });
      button.addEventListener("click", () => seatIt(index, choice));
      return button;
    });
    return el("li", { "data-ref": choice.ref },
      el("span", { class: "pg-found-label", text: choice.label }),
      el("span", { class: "muted", text: choice.group }), ...buttons);
  }));
}

async function findOpponents(more) {
  const words = finder.input.value.trim();
  const seq = ++findSeq;
  if (!words && !more) {
    results = [];
    findNext = null;
    finder.more.hidden = true;
    finder.status.textContent = "";
    showFound();
    return;
  }
  const url = more && findNext ? findNext
    : `${config.urls.opponents}?${new URLSearchParams({ game: config.game, search: words })}`;
  finder.status.textContent = "Searching…";
  try {
    const { ok, data } = await api("GET", url);
    if (seq !== findSeq) return; // a newer search is under way
    if (!ok) {
      finder.status.textContent = `Not found: ${data.detail}`;
      return;
    }
    results = more ? [...results, ...data.results] : data.results;
    findNext = data.next;
    finder.more.hidden = !data.next;
    finder.status.textContent = data.count
      ? `${data.count} bot${data.count === 1 ? "" : "s"} match${data.count === 1 ? "es" : ""}; ${results.length} shown.`
      : "No bot of yours or on the ladder matches.";
    showFound();
  } catch (error) {
    if (seq === findSeq) finder.status.textContent = "The arena cannot be reached: try again.";
  }
}

if (finder.input) {
  finder.input.addEventListener("input", () => {
    window.clearTimeout(findTimer);
    findTimer = window.setTimeout(() => findOpponents(false), 250);
  });
  finder.input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      window.clearTimeout(findTimer);
      findOpponents(false);
    }
  });
  finder.more.addEventListener("click", () => findOpponents(true));
}

if (playersSelect) {
  playersSelect.replaceChildren(...Array.from(
    { length: config.maxPlayers - config.minPlayers + 1 },
    (_, i) => el("option", { value: String(config.minPlayers + i), text: String(config.minPlayers + i) }),
  ));
  playersSelect.addEventListener("change", buildSeats);
}
buildSeats();

/* --- runs: start, poll, show ------------------------------------------------------------- */

let pollTimer = null;
let shownRun = null;
let chosenMatch = null;

async function startRun(event) {
  if (event) event.preventDefault();
  const button = $("run-button");
  if (button.disabled) return;
  hideRefusal();
  const source = editor.getSource();
  const matches = Number($("run-matches").value);
  if (!Number.isInteger(matches) || matches < 1 || matches > config.maxMatches) {
    showRefusal(`ask for 1 to ${config.maxMatches} matches.`, null);
    return;
  }
  if (bytes(source) > config.uploadMax) {
    showRefusal(`bot.py: ${bytes(source).toLocaleString()} bytes is over the ${config.uploadMax.toLocaleString()}-byte limit.`, null);
    return;
  }
  button.disabled = true;
  button.dataset.busy = "true";
  try {
    save();
    const opponents = [...seatsBox.querySelectorAll("select")].map((select) => select.value);
    const { ok, status: code, data, retryAfter } = await api("POST", config.urls.runs, {
      game: config.game, source, opponents, matches,
    });
    if (!ok) {
      const wait = code === 429 && retryAfter ? ` Try again in ${Math.ceil(Number(retryAfter) / 60)} min.` : "";
      showRefusal(`${data.detail}${wait}`, data.line);
      return;
    }
    chosenMatch = null;
    showRun(data);
    poll(data.id);
  } catch (error) {
    showRefusal(`the arena cannot be reached (${error.message || error}).`, null);
  } finally {
    button.disabled = false;
    delete button.dataset.busy;
  }
}

$("run-form").addEventListener("submit", startRun);
/* Ctrl+Enter runs from the editor and the run section only: not from the upload form (its
 * name field), where Enter means that form. */
function runKey(event) {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) startRun(event);
}
$("editor").addEventListener("keydown", runKey);
document.querySelector(".pg-run-section").addEventListener("keydown", runKey);

function poll(id) {
  window.clearTimeout(pollTimer);
  pollTimer = window.setTimeout(async () => {
    try {
      const { ok, data } = await api("GET", `${config.urls.runs}${id}/`);
      if (ok && shownRun && shownRun.id === id) {
        showRun(data);
        if (data.status === "done") return;
      }
    } catch (error) {
      /* the network blinked: try again */
    }
    poll(id);
  }, POLL_MS);
}

function tracebackLine(text) {
  const found = [...(text || "").matchAll(/File "\/bot\/bot\.py", line (\d+)/g)];
  return found.length ? Number(found[found.length - 1][1]) : null;
}

function resultCell(match) {
  if (match.status === "failed") return el("span", { class: "badge", text: "not played (platform)" });
  if (match.status !== "done") {
    let text = match.status === "running" ? "playing…" : "queued";
    if (match.waiting_for_worker) {
      const wait = Math.floor(match.waiting_s);
      text = `queued: waiting ${Math.floor(wait / 60)} min ${wait % 60} s for a worker`;
    }
    return el("span", { class: `status-${match.status}`, "data-waiting": match.waiting_for_worker ? "true" : null, text });
  }
  const words = { win: "won", draw: "drew", loss: "lost" };
  return el("span", {},
    el("span", { class: `place${match.place.endsWith("1st") ? " first" : ""}`, text: match.place }), " ",
    el("span", { class: `result ${match.result}`, text: words[match.result] || "" }));
}

function faultCell(match) {
  if (!match.fault) return el("span", { class: "muted", text: "—" });
  const cell = el("span", {}, el("span", { class: "badge error", text: match.fault.replace(/_/g, " ") }), " ",
    el("span", { class: "pg-fault-detail", text: match.fault_detail }));
  const line = tracebackLine(match.traceback);
  if (line !== null) {
    const button = el("button", { type: "button", class: "link-button pg-goto-line", text: `line ${line}` });
    button.addEventListener("click", () => editor.focusLine(line));
    cell.append(" ", button);
  }
  return cell;
}

/* "4–1": the draft's match points first, then the others' in seat order. */
function scoreText(match) {
  if (!match.scores.length) return "";
  const others = match.scores.filter((_, seat) => seat !== match.draft_seat);
  return [match.scores[match.draft_seat], ...others].join("–");
}

function showRun(run) {
  shownRun = run;
  $("run-results").hidden = false;
  const box = $("run-status");
  box.dataset.run = String(run.id);
  box.dataset.status = run.status;
  box.dataset.waiting = run.waiting_for_worker ? "true" : "false";
  $("run-status-text").textContent = run.message;
  const opponents = run.opponents.map((opponent) => opponent.label).join(", ");
  const parts = [`Run ${run.id}: your draft against ${opponents}`];
  if (run.played) {
    parts.push(`${run.wins} won, ${run.draws} drawn, ${run.losses} lost of ${run.played} played`);
  }
  if (run.faults) parts.push(`${run.faults} lost by your draft's fault`);
  if (run.failed) parts.push(`${run.failed} not played (the platform failed)`);
  $("run-summary").textContent = `${parts.join(" · ")}.`;

  const rows = run.matches.map((match) => {
    const table = match.seats.map((name, seat) => (seat === match.draft_seat ? `${name} (seat ${seat + 1})` : name)).join(" vs ");
    const watch = el("button", {
      type: "button",
      class: "secondary small",
      text: match.fault ? "Watch the fault" : "Watch",
      disabled: match.status !== "done",
      "data-watch": String(match.number),
    });
    watch.addEventListener("click", () => openMatch(run, match, true));
    return el("tr", {
      "data-match": String(match.number),
      "data-status": match.status,
      "data-result": match.result,
      class: [match.fault ? "faulted" : "", chosenMatch === match.number ? "chosen" : ""].join(" ").trim(),
    },
    el("td", { class: "num", text: String(match.number) }),
    el("td", { text: table }),
    el("td", {}, resultCell(match)),
    el("td", { class: "num", text: scoreText(match) }),
    el("td", { class: "num", text: match.status === "done" ? String(match.games_played) : "" }),
    el("td", {}, faultCell(match)),
    el("td", {}, watch));
  });
  $("run-matches-table").tBodies[0].replaceChildren(...rows);

  if (run.status === "done" && chosenMatch === null) {
    const first = run.matches.find((match) => match.fault) || run.matches.find((match) => match.status === "done");
    if (first) openMatch(run, first, false);
  }
}

function matchUrl(run, match) {
  return config.urls.match.replace(/\/runs\/0\/matches\/0\/$/, `/runs/${run.id}/matches/${match.number}/`);
}

function openMatch(run, match, byHand) {
  chosenMatch = match.number;
  for (const row of $("run-matches-table").tBodies[0].rows) {
    row.classList.toggle("chosen", row.dataset.match === String(match.number));
  }
  const url = matchUrl(run, match);
  const hash = match.fault_link ? `#${match.fault_link}` : "";
  const frame = $("run-viewer");
  frame.src = `${url}?embed=1${hash}`;
  $("run-viewer-open").href = url + hash;
  $("run-viewer-heading").textContent =
    `Match ${match.number}: ${match.seats.join(" vs ")}` + (match.fault ? " — at your draft's fault" : "");
  $("run-viewer-wrap").hidden = false;
  if (byHand) $("run-viewer-wrap").scrollIntoView({ behavior: "smooth", block: "start" });
}

/* The framed viewer is as tall as its page, so the page scrolls, not the frame. */
const frame = $("run-viewer");
frame.addEventListener("load", () => {
  const inner = frame.contentWindow;
  const doc = frame.contentDocument;
  if (!inner || !doc || !doc.body) return;
  const fit = () => {
    frame.style.height = `${doc.documentElement.scrollHeight}px`;
  };
  fit();
  new inner.ResizeObserver(fit).observe(doc.body);
  frame.dataset.loaded = frame.src;
});

/* --- upload as a new version --------------------------------------------------------------- */

const uploadBot = $("upload-bot");
function nameField() {
  const isNew = uploadBot.value === "new";
  $("upload-name-field").hidden = !isNew;
  $("upload-name").required = isNew;
}
uploadBot.addEventListener("change", nameField);
nameField();

$("upload-form").addEventListener("submit", (event) => {
  const source = editor.getSource();
  if (bytes(source) > config.uploadMax) { // the server would refuse the whole request unread
    event.preventDefault();
    $("upload-error").textContent = `Not uploaded: bot.py is ${bytes(source).toLocaleString()} bytes, over the ${config.uploadMax.toLocaleString()}-byte limit.`;
    $("upload-error").hidden = false;
    return;
  }
  $("upload-source").value = source;
  savedSource = source; // the server saves it as the draft too
});

/* --- the latest run of this game, as the page was left ------------------------------------- */

if (config.latestRun) {
  api("GET", `${config.urls.runs}${config.latestRun}/`).then(({ ok, data }) => {
    if (!ok || shownRun) return;
    showRun(data);
    if (data.status !== "done") poll(data.id);
  });
}
document.getElementById("playground").dataset.ready = "true";

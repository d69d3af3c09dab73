/*
 * /replay/: open a replay file from the reader's disk in the site's viewer (docs/web.md).
 *
 * The file is read here (gzip through DecompressionStream), checked to be a replay of a
 * hosted game, put into the page as the `replay-data` the shell reads on a match page, and
 * then the very same shell module is imported. A module runs once per page, so a second
 * file is kept in sessionStorage over a reload and opened from there.
 */

const PENDING = "arena-replay-pending";
const zone = document.getElementById("replay-drop");
const input = document.getElementById("replay-file");
const nameLine = document.getElementById("replay-file-name");
const errorLine = document.getElementById("replay-error");
const root = document.getElementById("replay-viewer");
const renderers = JSON.parse(document.getElementById("viewer-renderers").textContent);
let opened = false;

function fail(message) {
  errorLine.textContent = message;
  errorLine.hidden = false;
}

async function readReplay(file) {
  let bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  return JSON.parse(new TextDecoder().decode(bytes));
}

/* Why `replay` cannot be shown here, or "" when it can. */
function problem(replay) {
  if (!replay || typeof replay !== "object" || !("format" in replay)) return "it is not an arena replay (no format field)";
  if (replay.format !== 2) return `its format is ${replay.format}; this viewer reads format 2 (python -m engine replay FILE --html converts older ones)`;
  if (!Array.isArray(replay.games) || !Array.isArray(replay.seats)) return "it is not a complete replay (no games or seats)";
  if (!renderers[replay.game]) return `its game "${replay.game}" is not hosted here`;
  return "";
}

async function show(replay, name) {
  const reason = problem(replay);
  if (reason) {
    fail(`${name} cannot be opened: ${reason}.`);
    return;
  }
  if (opened) { // the shell already runs for another replay: start afresh
    sessionStorage.setItem(PENDING, JSON.stringify({ name, replay }));
    window.location.hash = "";
    window.location.reload();
    return;
  }
  opened = true;
  errorLine.hidden = true;
  nameLine.textContent = `Showing ${name}. Drop another file to replace it.`;
  const data = document.createElement("script");
  data.type = "application/json";
  data.id = "replay-data";
  data.textContent = JSON.stringify(replay);
  document.body.append(data);
  const game = renderers[replay.game];
  root.dataset.game = replay.game;
  root.dataset.gameTitle = game.title;
  root.dataset.renderer = game.url;
  await import(zone.dataset.shell);
}

async function openFile(file) {
  if (!file) return;
  let replay;
  try {
    replay = await readReplay(file);
  } catch (error) {
    fail(`${file.name} cannot be opened: it is not gzip or JSON (${error.message || error}).`);
    return;
  }
  await show(replay, file.name);
}

input.addEventListener("change", () => openFile(input.files[0]));
zone.addEventListener("dragover", (event) => {
  event.preventDefault();
  zone.classList.add("dragging");
});
zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
zone.addEventListener("drop", (event) => {
  event.preventDefault();
  zone.classList.remove("dragging");
  openFile(event.dataTransfer.files[0]);
});

const pending = sessionStorage.getItem(PENDING);
if (pending) {
  sessionStorage.removeItem(PENDING);
  const { name, replay } = JSON.parse(pending);
  show(replay, name);
}

/*
 * The challenge form (arena/templates/arena/challenges/new.html): the rivals of the form's
 * game are checkboxes; this filters them by the search box (bot or owner name) and never
 * offers the chosen version against itself. The page works without it: the server renders
 * the box of the version chosen at first disabled and hidden (arena/web/forms.py), and this
 * moves that along when another version is chosen.
 */

const form = document.getElementById("challenge-form");
const version = document.getElementById("id_version");
const search = document.getElementById("rival-search");
const none = document.getElementById("rival-none");

function update() {
  const words = (search.value || "").trim().toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const box of form.querySelectorAll("input[name=rivals]")) {
    const label = box.closest("label");
    const itself = box.value === version.value;
    if (itself) box.checked = false;
    box.disabled = itself;
    const text = box.dataset.label || label.textContent.toLowerCase();
    const found = words.every((word) => text.includes(word));
    label.hidden = itself || !found;
    if (!label.hidden) shown += 1;
  }
  none.hidden = shown > 0 || !words.length;
}

if (form && version && search) {
  version.addEventListener("change", update);
  search.addEventListener("input", update);
  search.addEventListener("keydown", (event) => {
    if (event.key === "Enter") event.preventDefault(); // searching never submits the form
  });
  update();
}

/*
 * The organisers' forms (a tournament, a schedule): show only the options the chosen format
 * and entry use, and once "what it will play" is shown, say so when the form changes after
 * it (creating then would not be what was reviewed). Without it the page works: every field
 * shows, and the server refuses what does not fit, beside the field.
 */

const form = document.getElementById("tournament-form") || document.getElementById("schedule-form");

function wrapper(name) {
  return form.querySelector(`[data-option="${name}"]`);
}

function value(name) {
  const field = form.elements.namedItem(name);
  return field ? field.value : "";
}

function show(name, visible) {
  const box = wrapper(name);
  if (!box) return;
  box.hidden = !visible;
  // A hidden option is not sent: what the organiser cannot see cannot be refused.
  for (const control of box.querySelectorAll("input, select, textarea")) control.disabled = !visible;
}

function update() {
  const format = value("format");
  const entry = value("entry");
  show("rounds", format === "swiss");
  show("table_size", format !== "double_elimination");
  show("entry_limit", entry === "top");
  show("signup_deadline", entry === "signup");
}

if (form) {
  form.addEventListener("change", update);
  update();
  const stale = document.getElementById("plan-stale");
  if (stale) {
    const confirmButtons = form.querySelectorAll("button[name=confirm], button[name=start]");
    const changed = () => {
      stale.hidden = false;
      for (const button of confirmButtons) button.disabled = true;
    };
    form.addEventListener("input", changed);
    form.addEventListener("change", (event) => {
      if (event.target.name !== undefined) changed();
    });
  }
}

/*
 * The organisers' forms (a tournament, a schedule): show only the options the chosen format
 * and entry use, warn as soon as a Swiss would seat every bot at one table (its rounds would
 * be identical; the plan says so too, from the server), and once "what it will play" is
 * shown, say so when the form changes after it (creating then would not be what was
 * reviewed). Without it the page works: every field shows, the server refuses what does not
 * fit, beside the field, and its plan warns.
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

/* The bots that would sit down now: every eligible one, at most the top N; a sign-up
 * tournament's are not known (the plan warns when even all of them fit one table). */
function entrants() {
  const eligible = Number(form.dataset.entrants);
  const entry = value("entry");
  if (entry === "signup") return null;
  const limit = Number(value("entry_limit"));
  return entry === "top" && limit > 0 ? Math.min(eligible, limit) : eligible;
}

function oneTableWarning() {
  const warning = document.getElementById("one-table-warning");
  if (!warning || form.dataset.entrants === undefined) return;
  const count = entrants();
  const smallest = Number(form.dataset.smallest);
  const size = Number(value("table_size")) || smallest;
  const one = value("format") === "swiss" && count !== null && count >= smallest && size >= count;
  warning.hidden = !one;
  if (one) {
    warning.textContent = count <= smallest
      ? `The ${count} bots would meet at the one table there is every round: every round of this Swiss would be the same.`
      : `All ${count} bots would sit at one table of ${count} every round, so every round of this Swiss would be the same table. Choose tables of fewer than ${count} seats for rounds that differ.`;
  }
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
  form.addEventListener("change", oneTableWarning);
  form.addEventListener("input", oneTableWarning);
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

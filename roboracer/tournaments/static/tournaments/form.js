// The tournament create form shows only the fields that apply (organisers' issue item 8): RAMbots has no course
// pool, lives or modules; heats' "top k" and seeding and the league's rounds and points appear for their own
// format; the minutes appear for "My own" timers. Without this script every field shows, as before.
const form = document.getElementById("tournament-form");
if (form) {
  // A field's row: the form's child that holds it (as_div: one <div> per field, its label, widget and help).
  const row = (name) => {
    let el = form.querySelector(`#id_${name}`);
    while (el && el.parentElement !== form) el = el.parentElement;
    return el;
  };
  const value = (name) => {
    const field = form.querySelector(`[name="${name}"]`);
    return field ? field.value : "";
  };
  const show = (names, on) => {
    for (const name of names) {
      const p = row(name);
      if (p) p.hidden = !on;
    }
  };
  const update = () => {
    const courses = value("kind") !== "rambots";
    show(["courses", "lives", "modules"], courses);
    const league = value("format") === "league";
    show(["advance"], !league);
    show(["league_rounds", "points"], league);
    show(["move_minutes", "game_minutes"], value("timers") === "custom");
    form.dataset.shown = [courses ? "courses" : "no-courses", league ? "league" : "heats", value("timers")].join(" ");
  };
  form.addEventListener("change", update);
  update();
}

// The setup page: the options of each game come from its options dataclass (/api/games).
"use strict";

let games = [];

function optionField(o) {
  const id = `opt-${o.name}`;
  let input;
  if (o.kind === "choice") {
    input = Kiosk.el("select", { id, name: o.name });
    if (o.optional) input.append(Kiosk.el("option", { value: "", text: "—" }));
    o.choices.forEach((c, i) => input.append(Kiosk.el("option", { value: String(i), text: String(c) })));
    if (o.default != null) input.value = String(o.choices.indexOf(o.default));
    input.dataset.choices = JSON.stringify(o.choices);
  } else if (o.kind === "bool") {
    input = Kiosk.el("input", { id, name: o.name, type: "checkbox" });
    input.checked = Boolean(o.default);
  } else {
    const number = o.kind === "int" || o.kind === "float";
    input = Kiosk.el("input", { id, name: o.name, type: number ? "number" : "text" });
    if (o.kind === "float") input.step = "any";
    if (o.default != null) input.value = Array.isArray(o.default) ? o.default.join(", ") : String(o.default);
    if (o.optional) input.placeholder = "—";
    if (o.kind === "list") input.placeholder = "a, b, c";
  }
  input.dataset.kind = o.kind;
  return [Kiosk.el("label", { for: id, text: o.name }), input];
}

function showOptions() {
  const game = games.find((g) => g.name === document.getElementById("game").value);
  if (!game) return;
  const players = document.getElementById("players");
  players.min = game.min_players;
  players.max = game.max_players;
  document.getElementById("options").replaceChildren(...game.options.flatMap(optionField));
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    const kind = input.dataset.kind;
    if (kind === "bool") options[input.name] = input.checked;
    else if (input.value === "") options[input.name] = null;
    else if (kind === "choice") options[input.name] = JSON.parse(input.dataset.choices)[Number(input.value)];
    else if (kind === "list") options[input.name] = input.value.split(/[,\s]+/).filter(Boolean);
    else if (kind === "int") options[input.name] = parseInt(input.value, 10);
    else if (kind === "float") options[input.name] = parseFloat(input.value);
    else options[input.name] = input.value;
  }
  return options;
}

document.addEventListener("DOMContentLoaded", async () => {
  Kiosk.lang = Kiosk.lang || "en";
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); load(); });
  const select = document.getElementById("game");
  async function load() {
    games = await (await fetch(`/api/games?lang=${Kiosk.lang}`)).json();
    const chosen = select.value;
    select.replaceChildren(...games.map((g) => Kiosk.el("option", { value: g.name, text: g.title })));
    if (chosen) select.value = chosen;
    showOptions();
  }
  select.addEventListener("change", showOptions);
  await load();
  document.getElementById("setup").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = document.getElementById("name").value.trim();
    const body = {
      game: select.value,
      players: parseInt(document.getElementById("players").value, 10),
      options: readOptions(),
    };
    if (name) body.name = name;
    const answer = await Kiosk.post("/api/new-game", body);
    const message = document.getElementById("message");
    message.dataset.ok = String(answer.ok);
    if (answer.ok) location.href = "/";
    else message.textContent = Kiosk.describe(answer.detail);
  });
});

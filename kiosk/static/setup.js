// The setup page: a guided flow, by touch — game → (campaign) → players → options → the table
// check → Start. A game with campaigns (Stonesaga) asks whether this is a new campaign or the next
// session of one that ended (/api/campaigns); the next session takes its Log and its players.
// Every label comes from the server in the screen's language (/api/games, /api/colours); the
// page keeps only what the players are choosing right now, and each panel is drawn from it.
"use strict";

const ALL_STEPS = ["game", "campaign", "players", "options", "check"];
const STEP_WORD = { game: "stepGame", campaign: "stepCampaign", players: "stepPlayers", options: "stepOptions", check: "stepCheck" };
const POLL_MS = 1000;
const WIDE_LETTERS = 400; // an option whose choices' labels hold more letters spans the columns

const setup = {
  games: [], colours: [], maxName: 16,
  game: null, players: 2, seats: [], options: {},
  step: "game", reached: 0, camera: null, poll: null,
  campaigns: { games: [], continuations: [] }, campaign: null,
  timer: { mode: "off", seconds: 60, phase_seconds: 0 }, // POST /api/timer/choice after the start
};

const $ = (id) => document.getElementById(id);
const currentGame = () => setup.games.find((g) => g.name === setup.game) || null;
const hasCampaign = () => setup.campaigns.games.includes(setup.game);
const STEPS_NOW = () => ALL_STEPS.filter((s) => s !== "campaign" || hasCampaign());
const sessions = () => setup.campaigns.continuations.filter((c) => c.game === setup.game);
const continuing = () => sessions().find((c) => c.save === setup.campaign) || null;
// The options asked now: the next session of a campaign asks only what its Log leaves open.
// A new campaign asks the options of its first session (/api/campaigns "new": in Stonesaga
// only the campaign-start card, chosen, §开局设置.5).
const freshFields = () => (hasCampaign() && setup.campaigns.new && setup.campaigns.new[setup.game]) || null;
const optionFields = () => (continuing() ? continuing().options : (freshFields() || (currentGame() ? currentGame().options : [])));
const seatName = (i) => (setup.seats[i].name.trim() || Kiosk.t("seatN", { n: i + 1 }));

function pressable(text, pressed, onTap, attrs = {}) {
  const b = Kiosk.el("button", { type: "button", "aria-pressed": String(Boolean(pressed)), ...attrs, text });
  b.addEventListener("click", onTap);
  return b;
}

// --- state changes -----------------------------------------------------------------------------

function defaults(fields) {
  const options = {};
  for (const o of fields) options[o.name] = o.kind === "list" ? [...(o.default || [])] : o.default;
  return options;
}

function chooseGame(name) {
  if (setup.game !== name) {
    setup.game = name;
    setup.campaign = null;
    const game = currentGame();
    setup.options = defaults(optionFields());
    setPlayers(Math.min(Math.max(setup.players, game.min_players), game.max_players));
    // A campaign that ended a session is most likely what the group is here for: go on with
    // the latest by default (one tap on "A new campaign" starts afresh).
    if (sessions().length) { chooseCampaign(sessions()[0].save); return; }
  }
  render();
}

function chooseCampaign(save) {
  setup.campaign = save;
  const next = continuing();
  if (next) {
    setup.seats = next.seats.map((s) => ({ name: s.name || "", colour: s.colour }));
    setPlayers(next.players);
    setup.options = defaults(next.options);
  } else {
    setup.options = defaults(optionFields());
  }
  render();
}

function setPlayers(n) {
  setup.players = n;
  const free = () => setup.colours.map((c) => c.key).find((k) => !setup.seats.some((s) => s.colour === k));
  setup.seats = setup.seats.slice(0, n);
  while (setup.seats.length < n) setup.seats.push({ name: "", colour: free() });
  const game = currentGame();
  for (const o of optionFields()) {
    if (o.seat && setup.options[o.name] != null && setup.options[o.name] >= n) setup.options[o.name] = o.default;
  }
}

function nameProblem() {
  const i = setup.seats.findIndex((s) => [...s.name.trim()].length > setup.maxName);
  if (i < 0) return null;
  return Kiosk.t("nameTooLong", { who: Kiosk.t("seatN", { n: i + 1 }), max: setup.maxName, len: [...setup.seats[i].name.trim()].length });
}

function problemAt(step) {
  if (step === "game" && !currentGame()) return Kiosk.t("chooseGame");
  if (step === "campaign" && continuing() && continuing().options.some((o) => o.choices && o.choices.length === 0)) {
    return Kiosk.t("noNextChallenge");
  }
  if (step === "players") return nameProblem();
  return null;
}

function go(step) {
  const STEPS = STEPS_NOW();
  const to = STEPS.indexOf(step);
  for (const s of STEPS.slice(0, to)) {
    const problem = problemAt(s);
    if (problem) { say(problem, false); setup.step = s; render(); return; }
  }
  say("");
  // The keys type into a field of the step left: they close with it.
  if (typeof Keyboard !== "undefined") Keyboard.close();
  setup.step = step;
  setup.reached = Math.max(setup.reached, to);
  render();
  window.scrollTo(0, 0);
}

function say(text, ok) {
  const message = $("message");
  message.textContent = text;
  if (ok === undefined) delete message.dataset.ok;
  else message.dataset.ok = String(ok);
}

// --- panels ------------------------------------------------------------------------------------

function renderSteps() {
  const STEPS = STEPS_NOW();
  const at = STEPS.indexOf(setup.step);
  for (const b of document.querySelectorAll("[data-go]")) {
    const i = STEPS.indexOf(b.dataset.go);
    b.closest("li").hidden = i < 0;
    b.querySelector(".num").textContent = String(i + 1);
    b.disabled = i < 0 || i > setup.reached;
    b.classList.toggle("done", i < at);
    if (i === at) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
  }
  for (const section of document.querySelectorAll(".pane")) section.hidden = section.dataset.step !== setup.step;
  $("wizard").dataset.step = setup.step;
}

function renderGames() {
  $("games").replaceChildren(...setup.games.map((g) => {
    const card = pressable("", g.name === setup.game, () => chooseGame(g.name), { class: "card", "data-game": g.name });
    card.append(
      Kiosk.el("span", { class: "card-title", text: g.title }),
      Kiosk.el("span", { class: "card-sub", text: Kiosk.t("playersRange", { min: g.min_players, max: g.max_players }) }),
      Kiosk.el("span", { class: "card-sub card-box", "data-box": g.box.mine ? "owner" : "demo", text: g.box.line }),
    );
    return card;
  }));
}

function renderCampaign() {
  if (!hasCampaign()) return;
  const fresh = pressable("", setup.campaign === null, () => chooseCampaign(null), { class: "card", "data-campaign": "" });
  fresh.append(
    Kiosk.el("span", { class: "card-title", text: Kiosk.t("newCampaign") }),
    Kiosk.el("span", { class: "card-sub", text: Kiosk.t("newCampaignSub") }),
  );
  const next = sessions().map((c) => {
    const card = pressable("", setup.campaign === c.save, () => chooseCampaign(c.save), { class: "card", "data-campaign": c.save });
    card.append(
      Kiosk.el("span", { class: "card-title", text: Kiosk.t("nextSession") }),
      ...c.lines.map((line) => Kiosk.el("span", { class: "card-sub", text: line })),
    );
    return card;
  });
  $("campaigns").replaceChildren(...next, fresh);
}

function renderPlayers() {
  const game = currentGame();
  if (!game) return;
  $("players-label").textContent = game.players_label;
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) {
    counts.push(pressable(String(n), n === setup.players, () => { setPlayers(n); render(); }, { class: "count", "data-players": String(n) }));
  }
  $("counts").replaceChildren(...counts);
  $("seats").replaceChildren(...setup.seats.map((seat, i) => seatRow(seat, i)));
  showNameProblem();
}

function seatRow(seat, i) {
  const id = `seat-name-${i}`;
  const swatch = Kiosk.el("span", { class: "seat-swatch", "aria-hidden": "true" });
  const colour = setup.colours.find((c) => c.key === seat.colour);
  if (colour) swatch.style.setProperty("--swatch", colour.hex);
  const label = Kiosk.el("label", { for: id, class: "seat-label" }, swatch, Kiosk.t("seatN", { n: i + 1 }));
  const input = Kiosk.el("input", {
    id, class: "seat-name", "data-seat": String(i), autocomplete: "off", enterkeyhint: "done", "data-keyboard": "name",
    placeholder: Kiosk.t("namePlaceholder", { n: i + 1 }),
  });
  input.value = seat.name;
  input.addEventListener("input", () => { seat.name = input.value; showNameProblem(); });
  const colours = Kiosk.el("div", { class: "colours", role: "group", "aria-label": Kiosk.t("seatN", { n: i + 1 }) });
  // A taken colour stays touchable: a touch says whose it is, under the row (a touch screen
  // never shows a tooltip).
  const why = Kiosk.el("p", { class: "why seat-why", role: "status", "data-seat": String(i) });
  for (const c of setup.colours) {
    const owner = setup.seats.findIndex((s, j) => j !== i && s.colour === c.key);
    const taken = () => { why.textContent = Kiosk.t("colourTakenWhy", { colour: c.name, who: seatName(owner) }); };
    const b = pressable(c.name, seat.colour === c.key, () => (owner >= 0 ? taken() : takeColour(i, c.key)), {
      class: "colour", "data-colour": c.key,
    });
    b.style.setProperty("--swatch", c.hex);
    if (owner >= 0) {
      b.setAttribute("aria-disabled", "true");
      b.title = Kiosk.t("colourTakenBy", { who: seatName(owner) });
      b.setAttribute("aria-label", `${c.name}, ${b.title}`);
    }
    colours.append(b);
  }
  return Kiosk.el("li", { class: "seat", "data-seat": String(i) }, label, input, colours, why);
}

function takeColour(i, key) {
  if (setup.seats.some((s, j) => j !== i && s.colour === key)) return;  // one colour, one player
  setup.seats[i].colour = key;
  render();
}

function showNameProblem() {
  const problem = nameProblem();
  for (const input of document.querySelectorAll(".seat-name")) {
    const long = [...input.value.trim()].length > setup.maxName;
    input.setAttribute("aria-invalid", String(long));
  }
  if (problem) say(problem, false);
  else if ($("message").dataset.ok === "false") say("");
  $("next").disabled = setup.step === "players" && Boolean(problem);
}

function renderOptions() {
  const game = currentGame();
  if (!game) return;
  $("options").replaceChildren(...optionFields().map(optionPanel), ...timerPanels());
}

function optionPanel(o) {
  const labelId = `opt-label-${o.name}`;
  const value = setup.options[o.name];
  const set = (v) => { setup.options[o.name] = v; render(); };
  let control;
  if (o.kind === "choice" || o.seat) {
    const choices = o.seat
      ? setup.seats.map((_, i) => ({ value: i, label: seatName(i) }))
      : o.choices;
    const buttons = choices.map((c) => pressable(c.label, value === c.value, () => set(c.value), { "data-value": JSON.stringify(c.value) }));
    if (o.optional) buttons.unshift(pressable(Kiosk.t("notSet"), value == null, () => set(null), { "data-value": "null" }));
    control = Kiosk.el("div", { class: "choices" }, ...buttons);
  } else if (o.kind === "list" && o.choices) {
    const picked = value || [];
    control = Kiosk.el("div", { class: "choices chips" }, ...o.choices.map((c) => {
      const at = picked.indexOf(c.value);
      const chip = pressable(c.label, at >= 0, () => {
        set(at >= 0 ? picked.filter((v) => v !== c.value) : [...picked, c.value]);
      }, { class: "chip", "data-value": JSON.stringify(c.value) });
      if (at >= 0) chip.append(Kiosk.el("span", { class: "order", text: Kiosk.t("pickedNth", { n: at + 1 }) }));
      return chip;
    }));
  } else if (o.kind === "bool") {
    control = Kiosk.el("div", { class: "choices" },
      pressable(Kiosk.t("yes"), value === true, () => set(true), { "data-value": "true" }),
      pressable(Kiosk.t("no"), value !== true, () => set(false), { "data-value": "false" }));
  } else if (o.kind === "int" || o.kind === "float") {
    const shown = value == null ? Kiosk.t("notSet") : String(value);
    const step = (d) => set(value == null ? 0 : Math.max(0, value + d));
    const parts = [
      pressable("−", false, () => step(-1), { class: "step-btn", "data-step": "-1", "aria-label": `${o.label} −1` }),
      Kiosk.el("output", { class: "count-value", text: shown }),
      pressable("+", false, () => step(1), { class: "step-btn", "data-step": "1", "aria-label": `${o.label} +1` }),
    ];
    // "Not set" is said once: by the number while it is not set, by a button that clears it once set.
    if (o.optional && value != null) parts.push(pressable(Kiosk.t("notSet"), false, () => set(null), { "data-value": "null" }));
    control = Kiosk.el("div", { class: "choices stepper" }, ...parts);
  } else {
    // No list of values is known for this field (the game names none): typed, comma-separated.
    const input = Kiosk.el("input", { class: "free-text", "aria-labelledby": labelId, autocomplete: "off" });
    input.value = Array.isArray(value) ? value.join(", ") : (value ?? "");
    input.addEventListener("change", () => {
      const text = input.value.trim();
      setup.options[o.name] = o.kind === "list" ? text.split(/\s*,\s*/).filter(Boolean) : (text || (o.optional ? null : o.default));
    });
    control = input;
  }
  control.setAttribute("aria-labelledby", labelId);
  // Many long choices (a session's crisis cards, issue 38) take both columns of the step.
  const letters = (o.choices || []).reduce((n, c) => n + String(c.label).length, 0);
  return Kiosk.el("fieldset", { class: "option", name: o.name, "data-option": o.name, "data-wide": String(letters > WIDE_LETTERS) },
    Kiosk.el("h3", { id: labelId, class: "option-label", text: o.label }), control);
}

// --- the table check ---------------------------------------------------------------------------

function checkLines() {
  const game = currentGame();
  const cam = setup.camera;
  // Only what a working camera read just now counts: never the synthetic table, never a frame
  // kept from before (kiosk/routers/camera.py, seen_now); a tag counts when the frames of the
  // last seconds read it twice (held), so a small sticker some frames miss is still seen.
  const live = Boolean(cam && cam.seen_now);
  const seen = new Set(live ? (cam.held || []).map(String) : []);
  return game.checklist.map((item) => {
    const need = item.per_player ? setup.players * item.need : item.need;
    if (!item.camera) return { item, state: "eye", text: Kiosk.t("byEye") };
    if (!live) return { item, state: "eye", text: Kiosk.t("byEye") };
    const pieces = new Set(Object.entries(item.tags).filter(([id]) => seen.has(id)).map(([, piece]) => piece));
    if (need == null) return { item, state: "eye", text: Kiosk.t("camCount", { seen: pieces.size }) };
    if (pieces.size >= need) return { item, state: "ok", text: Kiosk.t("camOk") };
    return { item, state: "missing", text: Kiosk.t("camMissing", { seen: pieces.size, need }) };
  });
}

const MARK = { ok: "✔", missing: "✖", eye: "◎" };

function renderCheck() {
  const game = currentGame();
  if (!game) return;
  const cam = setup.camera;
  let line = Kiosk.t("camWaiting");
  if (cam && cam.link && (cam.link.state === "lost" || cam.link.state === "not_connected")) {
    line = Kiosk.t("camOff", { state: Kiosk.t(cam.link.state) });
  } else if (cam && cam.link && cam.link.state === "simulated") line = Kiosk.t("camSimulated");
  else if (cam && cam.seen_now) line = Kiosk.t("camLive");
  $("camera-line").textContent = line;
  const lines = checkLines();
  $("checklist").replaceChildren(...lines.map(({ item, state, text }) => Kiosk.el("li",
    { class: "check", "data-check": item.key, "data-state": state },
    Kiosk.el("span", { class: "mark", "aria-hidden": "true", text: MARK[state] }),
    Kiosk.el("span", { class: "check-what", text: item.label }),
    Kiosk.el("span", { class: "check-how", text }))));
  const missing = lines.filter((l) => l.state === "missing").map((l) => l.item.label);
  const sum = $("check-sum");
  sum.dataset.state = missing.length ? "missing" : "ok";
  sum.textContent = missing.length ? Kiosk.t("stillMissing", { list: missing.join(Kiosk.lang === "zh" ? "、" : "; ") })
    : (cam && cam.seen_now ? Kiosk.t("allSeen") : "");
  renderSummary(game);
}

function renderSummary(game) {
  const seats = Kiosk.el("ul", { class: "sum-seats" }, ...setup.seats.map((s, i) => {
    const colour = setup.colours.find((c) => c.key === s.colour);
    const swatch = Kiosk.el("span", { class: "seat-swatch", "aria-hidden": "true" });
    if (colour) swatch.style.setProperty("--swatch", colour.hex);
    return Kiosk.el("li", {}, swatch, `${seatName(i)} · ${colour ? colour.name : ""}`);
  }));
  const chosen = Kiosk.el("dl", { class: "sum-options" });
  if (hasCampaign()) {
    const c = continuing();
    chosen.append(Kiosk.el("dt", { text: Kiosk.t("stepCampaign") }),
      Kiosk.el("dd", { text: c ? `${Kiosk.t("nextSession")} · ${c.lines[0]}` : Kiosk.t("newCampaign") }));
  }
  for (const o of optionFields()) {
    // The option's name without its explanation in brackets (the options step shows it).
    const name = o.label.replace(/\s*[(（].*$/, "") || o.label;
    chosen.append(Kiosk.el("dt", { text: name }), Kiosk.el("dd", { text: shownValue(o) }));
  }
  chosen.append(Kiosk.el("dt", { text: Kiosk.t("timer") }), Kiosk.el("dd", { text: timerSummary() }));
  const copy = Kiosk.el("a", { class: "box-link", href: `/box?game=${encodeURIComponent(game.name)}&lang=${Kiosk.lang}`, text: Kiosk.t("boxCopyLink") });
  // The box's line kept whole, the link beside it or under it (never a character of it).
  const boxLine = Kiosk.el("span", { class: "box-line", text: game.box.line });
  chosen.append(Kiosk.el("dt", { text: Kiosk.t("box") }), Kiosk.el("dd", { class: "sum-box" }, boxLine, copy));
  $("summary").replaceChildren(
    Kiosk.el("h3", { class: "sum-title", text: game.title }),
    Kiosk.el("p", { class: "muted", text: Kiosk.t("sumPlayers", { n: setup.players }) }),
    seats, chosen);
}

function shownValue(o) {
  const v = setup.options[o.name];
  if (v == null || (Array.isArray(v) && v.length === 0)) return Kiosk.t("notSet");
  if (o.seat) return seatName(v);
  if (o.kind === "bool") return Kiosk.t(v ? "yes" : "no");
  const label = (x) => ((o.choices || []).find((c) => c.value === x) || { label: String(x) }).label;
  return Array.isArray(v) ? v.map(label).join(Kiosk.lang === "zh" ? "、" : ", ") : label(v);
}

async function pollCamera() {
  try {
    setup.camera = await (await fetch("/api/camera")).json();
  } catch {
    setup.camera = null;
  }
  if (setup.step === "check") renderCheck();
}

// --- the whole page ----------------------------------------------------------------------------

function renderNav() {
  const STEPS = STEPS_NOW();
  const at = STEPS.indexOf(setup.step);
  const prev = $("prev");
  prev.hidden = at === 0;
  prev.textContent = `‹ ${Kiosk.t("prev")}`;
  const last = at === STEPS.length - 1;
  $("next").hidden = last;
  $("start").hidden = !last;
  if (!last) $("next").textContent = `${Kiosk.t("nextTo", { step: Kiosk.t(STEP_WORD[STEPS[at + 1]]) })} ›`;
  $("next").disabled = (setup.step === "game" && !currentGame()) || (setup.step === "players" && Boolean(nameProblem()));
}

function render() {
  renderSteps();
  renderGames();
  renderCampaign();
  renderPlayers();
  renderOptions();
  if (setup.step === "check") renderCheck();
  renderNav();
  if (setup.step === "check" && setup.poll === null) {
    pollCamera();
    setup.poll = setInterval(pollCamera, POLL_MS);
  } else if (setup.step !== "check" && setup.poll !== null) {
    clearInterval(setup.poll);
    setup.poll = null;
  }
}

async function load() {
  const lang = encodeURIComponent(Kiosk.lang);
  const [games, colours, campaigns] = await Promise.all([
    fetch(`/api/games?lang=${lang}`).then((r) => r.json()),
    fetch(`/api/colours?lang=${lang}`).then((r) => r.json()),
    fetch(`/api/campaigns?lang=${lang}`).then((r) => (r.ok ? r.json() : { games: [], continuations: [] })),
  ]);
  setup.games = games;
  setup.campaigns = campaigns;
  setup.colours = colours.colours;
  setup.maxName = colours.max_name;
  if (setup.seats.length === 0) setPlayers(setup.players);
  render();
}

// The table page in this page's language: named in its address when the kiosk's own differs
// (else the table page follows the kiosk, as every page does).
async function tablePage() {
  const kiosk = await fetch("/api/status").then((r) => r.json()).then((s) => s.settings.lang).catch(() => null);
  return kiosk === Kiosk.lang ? "/" : `/?lang=${encodeURIComponent(Kiosk.lang)}`;
}

async function start() {
  const problem = STEPS_NOW().map(problemAt).find(Boolean);
  if (problem) { say(problem, false); return; }
  const button = $("start");
  button.disabled = true;
  say(Kiosk.t("starting"));
  const body = {
    game: setup.game,
    players: setup.players,
    options: setup.options,
    seats: setup.seats.map((s) => ({ name: s.name.trim() || null, colour: s.colour })),
  };
  const name = $("name").value.trim();
  if (name) body.name = name;
  const next = continuing();
  if (next) { body.save = next.save; delete body.game; }
  const path = next ? "/api/campaigns/continue" : "/api/new-game";
  const answer = await Kiosk.post(`${path}?lang=${encodeURIComponent(Kiosk.lang)}`, body);
  const timed = answer.ok && (setup.timer.mode !== "off" || setup.timer.phase_seconds > 0);
  const timer = timed ? await Kiosk.post("/api/timer/choice", setup.timer) : { ok: true };
  button.disabled = false;
  if (answer.ok && timer.ok) { location.href = await tablePage(); return; }
  if (answer.ok) { say(Kiosk.t("startFailed", { why: Kiosk.describe(timer.detail) }), false); return; }
  say(Kiosk.t("startFailed", { why: Kiosk.describe(answer.detail) }), false);
}

document.addEventListener("DOMContentLoaded", async () => {
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); say(""); load(); });
  }
  for (const b of document.querySelectorAll("[data-go]")) b.addEventListener("click", () => go(b.dataset.go));
  const step = (d) => {
    const STEPS = STEPS_NOW();
    go(STEPS[Math.min(STEPS.length - 1, Math.max(0, STEPS.indexOf(setup.step) + d))]);
  };
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("start").addEventListener("click", start);
  $("pack-check").addEventListener("click", checkBox);
  await load();
});

// The pack-away check of the chosen game's box, run here (kiosk/routers/packaway.py): every
// component laid out under the camera; what is missing is named, and the café is told.
async function checkBox() {
  const line = $("pack-line");
  const say = (text) => text[Kiosk.lang] ?? text.en;
  line.textContent = Kiosk.t("packChecking");
  const a = await Kiosk.post("/api/packaway", { game: setup.game });
  if (!a.ok) line.textContent = a.detail === "no_frame" ? Kiosk.t("packNoFrame") : Kiosk.describe(a.detail);
  else if (a.empty) line.textContent = Kiosk.t("packNothing", { title: say(a.title) });
  else if (a.complete) line.textContent = Kiosk.t("packAllHere", { of: a.of });
  else line.textContent = `${Kiosk.t("packSomeMissing", { seen: a.seen, of: a.of, n: a.of - a.seen })} ${a.missing.map((m) => say(m.name)).join(Kiosk.lang === "zh" ? "、" : ", ")}`;
  // Below the checklist on a small screen: brought up, clear of the bar of buttons at the bottom.
  line.closest(".pack-box").scrollIntoView({ block: "nearest" });
}

// --- the timers (issue 28, kiosk/timers.py) ------------------------------------------------------
// Off by default: per turn (seconds a turn) or a chess clock (each player's time for the game),
// and a limit for the phases everyone plays at once; sent after the game has started.
const TURN_STEP = 15;
const BUDGET_STEP = 60;
const PHASE_CHOICES = [0, 60, 90, 120, 180];

function clockText(seconds) {
  const m = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${m}:${String(rest).padStart(2, "0")}`;
}

function timerSummary() {
  const tm = setup.timer;
  const parts = [];
  if (tm.mode === "turn") parts.push(Kiosk.t("timerTurnTime", { t: clockText(tm.seconds) }));
  if (tm.mode === "budget") parts.push(Kiosk.t("timerBudgetTime", { t: clockText(tm.seconds) }));
  if (tm.phase_seconds > 0) parts.push(Kiosk.t("phaseTimerTime", { t: clockText(tm.phase_seconds) }));
  return parts.length ? parts.join(Kiosk.lang === "zh" ? ";" : "; ") : Kiosk.t("timerOff");
}

function timerPanels() {
  const tm = setup.timer;
  const set = (change) => { Object.assign(setup.timer, change); render(); };
  const mode = (value, label, seconds) => pressable(label, tm.mode === value, () => set({ mode: value, seconds }), { "data-value": value });
  const modes = Kiosk.el("div", { class: "choices" },
    mode("off", Kiosk.t("timerOff"), tm.seconds), mode("turn", Kiosk.t("timerTurn"), 60),
    mode("budget", Kiosk.t("timerBudget"), 1800));
  const stepBy = tm.mode === "budget" ? BUDGET_STEP : TURN_STEP;
  const seconds = (d) => set({ seconds: Math.min(4 * 3600, Math.max(stepBy, tm.seconds + d * stepBy)) });
  const stepper = Kiosk.el("div", { class: "choices stepper" },
    pressable("−", false, () => seconds(-1), { class: "step-btn", "aria-label": `${Kiosk.t("timer")} −` }),
    Kiosk.el("output", { class: "count-value", text: clockText(tm.seconds) }),
    pressable("+", false, () => seconds(1), { class: "step-btn", "aria-label": `${Kiosk.t("timer")} +` }));
  const phases = Kiosk.el("div", { class: "choices" }, ...PHASE_CHOICES.map((p) => pressable(
    p ? clockText(p) : Kiosk.t("timerOff"), tm.phase_seconds === p, () => set({ phase_seconds: p }), { "data-value": String(p) })));
  const panel = (name, label, ...controls) => Kiosk.el("fieldset", { class: "option", "data-option": name },
    Kiosk.el("h3", { id: `opt-label-${name}`, class: "option-label", text: label }), ...controls);
  return [panel("timer", Kiosk.t("timer"), modes, tm.mode === "off" ? null : stepper), panel("phase_timer", Kiosk.t("phaseTimer"), phases)];
}

// The table page: one screen (no scrolling at 1920×1080, 1280×720 or 1024×600) drawn from the
// live status: where the game is and what to do now, a refused move as a banner, the board,
// the players, the console, the dice and the log; at the end, the winners and the scores.
"use strict";

const $ = (id) => document.getElementById(id);
const LINK_ICONS = { ok: "●", simulated: "◐", lost: "✖", not_connected: "○" };
let menuOpen = false; // this screen's own menu (another screen's menu never covers this one)

function render(s) {
  const t = Kiosk.t;
  Kiosk.translateStatic();
  document.title = `${s.title} — tablesight`;
  $("title").textContent = s.title;
  $("round").textContent = s.game === null ? "" : s.rounds ? t("roundOf", { n: s.round, of: s.rounds }) : t("round", { n: s.round });
  $("phase").textContent = s.phase.title;
  // The phase's guide (beside the console) says what to do in it: gone once the game is over.
  $("guide").textContent = s.phase.guide || "";
  $("guide").hidden = !s.phase.guide || !!s.end;
  $("step").textContent = s.step && s.step.of > 1 ? `· ${s.step.title}` : ""; // its number: the strip
  $("next").textContent = s.next || "";
  $("no-game").hidden = s.game !== null; // a kiosk started with no game: the way to set one up
  fitPhaseTitle();
  renderTrack(s);
  renderPrompts(s.prompts || []);
  renderRefusal(s.refusal);
  renderEnd(s);
  renderTimer(s);
  // The board at every moment, the end included (the end box above it stays smaller).
  // A figure's disc is named on its player's strip, not again in the board's legend.
  const stripped = new Set((s.seats || []).map((seat) => seat.seat));
  const legend = (s.picture?.legend || []).filter((l) => !(l.kind === "token" && stripped.has(l.seat)));
  Board.render(s.picture && { ...s.picture, legend }, s.seats, $("board"));
  renderPlayers(s);
  renderDice(s);
  Console.render(s);
  $("console-undo").disabled = !s.can_undo;
  renderButtons(s);
  $("log").replaceChildren(...s.recent.slice(0, 8).map((e) => Kiosk.el("li", { "data-type": e.type, text: e.text })));
  for (const name of ["camera", "controller"]) {
    const link = s.links[name] || { state: "not_connected", detail: "" };
    const node = $(`link-${name}`);
    node.dataset.state = link.state;
    node.textContent = `${LINK_ICONS[link.state] || "?"} ${t(name)}`;
    node.title = `${t(name)}: ${t(link.state)}`;
    node.setAttribute("aria-label", node.title);
  }
  $("moves").textContent = t("moves", { n: s.moves });
  $("undo").disabled = !s.can_undo;
  $("pairing").hidden = !(s.control.lan && s.control.code);
  $("pairing").textContent = s.control.code ? `${t("pairing")} ${s.control.code} · ${t("pairQr")}` : "";
  $("pairing").title = t("pairHint");
  $("pair-code").textContent = s.control.code ? t("pairOrCode", { code: s.control.code }) : "";
  // The menu the table's own button opens shows on the table's own screen only.
  $("menu").hidden = !(menuOpen || (s.menu && s.control.local));
  $("save").textContent = `${t("saveName")}: ${s.save}`;
  $("notices").replaceChildren(...s.notices.map((n) => Kiosk.el("li", { text: n })));
  // the console's buttons placed once the side column is drawn, in its whole room (fitConsole
  // holds it again below where the board needs the room, and the buttons are placed again)
  document.querySelector(".console-box").style.maxHeight = "";
  Console.layout();
  placePrompts(); // once the console and the log are drawn: the side column's room is known
  fitConsole(); // once the log under it is drawn: the column's room is known
  if (document.querySelector(".console-box").style.maxHeight) Console.layout(); // held: less room
  Board.fit($("board")); // the board's drawing sized once every panel around it is drawn
  // For anything that watches the screen (a browser extension, the layout tests): drawn.
  document.dispatchEvent(new CustomEvent("tablesight:rendered", { detail: { seq: s.seq } }));
}

function renderTrack(s) {
  const rounds = s.rounds || Math.max(s.round, 1);
  const cells = [];
  for (let n = 1; n <= rounds; n++) {
    const state = n < s.round ? "done" : n === s.round ? "now" : "later";
    cells.push(Kiosk.el("li", { class: `cell ${state}`, "data-round": n, "aria-current": String(state === "now") }, String(n)));
  }
  $("track").replaceChildren(...cells);
  renderPhases(s);
}

// The phase strip: every phase by its title when they fit in one row; else what is next, in
// words: how many phases are done, the current one with its step, then as many of the next
// phases by their titles as fit in one row (at least the next one, wrapping when even that is
// too long), and how many more follow. Never bare numbers, never cut.
function renderPhases(s) {
  const strip = $("phases");
  const at = s.phases.findIndex((p) => p.name === s.phase.name);
  const item = (p, i) => {
    const now = i === at;
    const state = now ? "now" : at >= 0 && i < at ? "done" : "later";
    const li = Kiosk.el("li", { class: state, "data-phase": p.name, "aria-current": String(now) });
    li.append(Kiosk.el("span", { class: "phase-title", text: p.title }));
    if (now && s.step && s.step.of > 1) {
      li.append(" ", Kiosk.el("span", { class: "phase-step", text: Kiosk.t("stepOf", { i: s.step.index, of: s.step.of, t: s.step.title }) }));
    }
    return li;
  };
  const fits = () => strip.scrollWidth <= strip.clientWidth + 1;
  strip.style.flexWrap = "nowrap"; // measured in one row, each title on one line
  strip.dataset.measuring = "true";
  strip.dataset.compact = "false";
  strip.replaceChildren(...s.phases.map(item));
  if (fits() || at < 0) { strip.style.flexWrap = ""; delete strip.dataset.measuring; return; }
  strip.dataset.compact = "true";
  const later = s.phases.slice(at + 1);
  const done = at > 0 ? [Kiosk.el("li", { class: "done phases-done", text: Kiosk.t("phasesDone", { n: at }) })] : [];
  const more = (rest) => (rest ? [Kiosk.el("li", { class: "later phases-more", text: Kiosk.t("phasesMore", { n: rest }) })] : []);
  const next = (n) => later.slice(0, n).map((p, j) => item(p, at + 1 + j));
  // The fullest strip that fits in one row: fewer next phases first, then without the count
  // of those done, then without the count of those after; else the current and the next one,
  // wrapping.
  const tries = [];
  for (let shown = later.length; shown >= Math.min(1, later.length); shown -= 1) {
    tries.push([...done, item(s.phases[at], at), ...next(shown), ...more(later.length - shown)]);
  }
  tries.push([item(s.phases[at], at), ...next(1), ...more(later.length - 1)]);
  tries.push([item(s.phases[at], at), ...next(1)]);
  for (const children of tries) {
    strip.replaceChildren(...children);
    if (fits()) break;
  }
  strip.style.flexWrap = "";
  delete strip.dataset.measuring;
}

// The current phase's title on one line where a smaller size allows (a night step's long
// title, "Night 2/9: Recover: rest, food, water, comfort", would take two lines of the
// board's height); never under 1.3rem, and the strip above spells it out in full too.
function fitPhaseTitle() {
  const phase = $("phase");
  for (const size of [2.2, 1.9, 1.6, 1.3]) {
    phase.style.fontSize = `${size}rem`;
    if (phase.getClientRects().length === 1) return;
  }
}

// The board stays the largest panel: the console's box (as tall as what it offers) is held to
// the board's area when a banner leaves the board less room; it scrolls then.
function fitConsole() {
  const box = document.querySelector(".console-box");
  box.style.maxHeight = "";
  const board = $("board");
  const phone = matchMedia("(max-aspect-ratio: 4/3)").matches;
  if (phone || board.hidden || !board.getClientRects().length) return;
  const b = board.getBoundingClientRect();
  const c = box.getBoundingClientRect();
  const inner = $("console"); // as tall as what it offers, were the column not to shrink it
  const wants = c.height - inner.clientHeight + inner.scrollHeight;
  const most = (b.width * b.height * 0.97) / c.width;
  if (wants > most) box.style.maxHeight = `${Math.max(Math.floor(most), 200)}px`;
}

// The camera's prompts (what it needs from the players) beside the console when the side
// column has the room for them, so that the board keeps its height (its notes and legend
// whole, its cells read from the chairs: issue 24); else over the board, as before. Never
// where they would push the console's offers out of its view.
function placePrompts() {
  const box = $("prompt-box");
  const side = document.querySelector(".side");
  const consoleBox = side.querySelector(".console-box");
  $("refusal").before(box);
  if (box.hidden || matchMedia("(max-aspect-ratio: 4/3)").matches) return;
  consoleBox.style.maxHeight = "";
  const hidden = () => [side, $("console"), $("log")]
    .reduce((sum, el) => sum + Math.max(0, el.scrollHeight - el.clientHeight), 0);
  const before = hidden();
  consoleBox.before(box);
  if (hidden() > before + 1) $("refusal").before(box);
}

// Confirm is open exactly when the snapshot says so (the table's advance offered open); when
// not, it stays touchable and greyed: a touch asks the table, which says why (the hint).
function renderButtons(s) {
  const confirm = s.confirm || { open: false, why: null };
  const advance = $("advance");
  advance.setAttribute("aria-disabled", String(!confirm.open));
  advance.title = confirm.open ? "" : (confirm.why || "");
  const hint = s.hint;
  $("hint").hidden = !hint;
  $("hint").dataset.kind = hint ? hint.kind : "";
  $("hint").textContent = hint ? hint.text : "";
  for (const id of ["undo", "console-undo"]) $(id).dataset.asking = String(["undo_again", "undo_end"].includes(hint?.kind));
  // What an undo took back replaces the console's last "accepted" line.
  if (hint?.kind === "undone") Console.say(true, "");
}

function renderRefusal(r) {
  $("refusal").hidden = !r;
  if (!r) return;
  $("refusal-who").textContent = `${r.who}: `;
  $("refusal-what").textContent = r.what;
  $("refusal-why").textContent = r.why + (r.rule ? ` (${r.rule})` : "");
  $("refusal-todo").textContent = r.todo;
}

function renderEnd(s) {
  const end = s.end;
  $("end").hidden = !end;
  document.body.dataset.over = String(!!end);
  if (!end) return;
  $("end").dataset.scores = String(!!end.scores);
  $("end-title").textContent = end.title;
  $("end-why").textContent = end.why;
  $("end-scores").replaceChildren(...(end.scores || []).map((r) => {
    const li = Kiosk.el("li", { class: r.winner ? "winner" : "", "data-seat": r.seat },
      Kiosk.el("span", { class: "score-name", text: (r.winner ? "★ " : "") + r.name }),
      Kiosk.el("span", { class: "score-points", text: Kiosk.t("points", { n: r.score }) }));
    li.style.setProperty("--seat", r.hex);
    return li;
  }));
  Board.chart(end.chart, $("end-chart"));
}

function renderPlayers(s) {
  const view = s.view || {};
  const fields = new Map((view.players || []).map((p) => [p.seat, p.fields || []]));
  $("players").replaceChildren(...(s.seats || []).map((seat) => {
    const acting = s.current_player === seat.seat + 1;
    // The player's figures as the board draws them (their discs), before the name.
    const discs = (s.picture?.legend || []).filter((l) => l.kind === "token" && l.seat === seat.seat)
      .map((l) => Object.assign(Kiosk.el("span", { class: "swatch disc", "aria-hidden": "true", text: l.token }), { style: `background: ${seat.hex}` }));
    const card = Kiosk.el("div", { class: "player", "data-seat": seat.seat, "data-acting": String(acting) },
      ...discs, Kiosk.el("h3", { text: seat.name }),
      Kiosk.el("p", { class: "stats" }, ...(fields.get(seat.seat) || []).slice(0, 6).map(([k, v]) => Kiosk.el(
        "span", { class: "stat" }, Kiosk.el("span", { class: "stat-label", text: k }), " ",
        Kiosk.el("b", { text: String(v).replace(/ (?=[\d×+])/g, "\u00a0") }))))); // "perception 3" kept together
    card.style.setProperty("--seat", seat.hex);
    return card;
  }));
  fitPlayers();
}

// The players' strips as short as their fields allow, each field whole (never cut): side by
// side, or one row a player with the name in the row, whichever is shorter, so that the board
// above them keeps the height.
function fitPlayers() {
  const players = $("players");
  if (!players.childElementCount) return;
  const heights = {};
  for (const flow of ["cards", "rows"]) {
    players.dataset.flow = flow;
    heights[flow] = players.offsetHeight;
  }
  players.dataset.flow = heights.rows < heights.cards ? "rows" : "cards";
}

// The dice pool to roll, under the name and colour of whose it is. Once the roll is entered
// (the console asked what these dice showed and asks no more) the box is gone; a pool the
// console never asks about (a card reads the roll) stays for the phase.
const dicePools = { key: null, asked: false };
function renderDice(s) {
  const d = s.dice;
  const key = d ? JSON.stringify([d.seat, d.dice, d.text]) : null;
  if (key !== dicePools.key) Object.assign(dicePools, { key, asked: false });
  const asking = Boolean(d) && (s.console?.groups || []).some((g) => (d.seat == null || g.seat === d.seat)
    && g.offers.some((o) => o.ok && (o.kind === "dice" || o.fields.some((f) => f.kind === "dice"))));
  if (asking) dicePools.asked = true;
  const entered = dicePools.asked && !asking;
  $("dice-box").hidden = !(d && d.dice.length) || !!s.end || entered;
  $("dice-box").dataset.entered = String(entered);
  if ($("dice-box").hidden) return;
  const seat = d.seat == null ? null : (s.seats || []).find((x) => x.seat === d.seat);
  $("dice-who").textContent = seat ? ` · ${seat.name}` : ` · ${Kiosk.t("table")}`;
  $("dice-box").style.setProperty("--seat", seat ? seat.hex : "var(--line)");
  $("dice-text").textContent = d.text;
  $("dice").replaceChildren(...d.dice.map((name, i) => Kiosk.el("span", { class: "die", "data-die": name, text: String(i + 1) })));
}

// What the camera asks of the players, in both languages (the kiosk's own first).
function renderPrompts(prompts) {
  $("prompt-box").hidden = !prompts.length;
  $("prompts").replaceChildren(...prompts.map((p) => Kiosk.el("li", { "data-code": p.code }, Kiosk.el("strong", { text: p.message }))));
}

async function act(path, body) {
  const answer = await Kiosk.post(path, body);
  // Confirm not open, undo asking, an undo made: the snapshot's hint says it on every screen.
  const hinted = answer.ok && (answer.open === false || "undone" in answer);
  $("message").textContent = hinted ? "" : answer.ok ? (answer.message || "") : Kiosk.describe(answer.detail ?? answer.message);
  $("message").dataset.ok = hinted ? "" : String(answer.ok && answer.accepted !== false);
}

function showMenu(open) {
  menuOpen = open;
  if (!open && Kiosk.status?.menu && Kiosk.status.control.local) act("/api/menu", { open: false });
  if (Kiosk.status) render(Kiosk.status);
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.translateStatic();
  const live = Kiosk.connect(render, (up) => {
    $("connection").dataset.state = up ? "ok" : "lost";
    $("connection").textContent = up ? `● ${Kiosk.t("live")}` : `✖ ${Kiosk.t("linkLost")}`;
  });
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => Kiosk.setLang(b.dataset.lang, live));
  $("advance").addEventListener("click", () => act(`/api/advance?lang=${encodeURIComponent(Kiosk.lang)}`));
  $("undo").addEventListener("click", () => act("/api/undo"));
  $("console-undo").addEventListener("click", () => act("/api/undo"));
  Console.init();
  // a font that arrives late changes how many lines a button's words take
  document.fonts.addEventListener("loadingdone", () => { Console.layout(); placePrompts(); fitConsole(); });
  window.addEventListener("resize", () => { if (Kiosk.status) renderPhases(Kiosk.status); fitPhaseTitle(); fitPlayers(); Console.layout(); placePrompts(); fitConsole(); Board.fit($("board")); });
  $("log-toggle").addEventListener("click", () => {
    const open = $("log-box").dataset.open !== "true";
    $("log-box").dataset.open = String(open);
    $("log-toggle").setAttribute("aria-expanded", String(open));
    placePrompts(); // the open log takes the side column's room: the prompts may go back
    fitConsole();
    Board.fit($("board"));
  });
  $("menu-button").addEventListener("click", () => showMenu(true));
  $("menu-close").addEventListener("click", () => showMenu(false));
  $("pairing").addEventListener("click", () => showPairing(true));
  $("pair-close").addEventListener("click", () => showPairing(false));
});

// The pairing QR code (kiosk/pairing.py): drawn by the server for this run, shown on a touch.
function showPairing(open) {
  if (open) {
    $("pair-qr").alt = Kiosk.t("pairQrAlt");
    $("pair-qr").src = "/api/pairing.svg";
  }
  $("pair-box").hidden = !open;
}

// --- the timers (issue 28, kiosk/timers.py) ------------------------------------------------------
// The time left for whoever acts, large and in their colour, at the head of where the game is;
// the menu's pause button (and how the buttons pause); each player's time in the end box. The
// nodes are made once, here, so the page's frame stays as it is for games without a timer.
function timerNodes() {
  if (!$("timer")) {
    $("end").querySelector(".end-body").after(Kiosk.el("p", { id: "end-times", class: "end-times", hidden: "" }));
    document.querySelector(".where").prepend(Kiosk.el("div", { id: "timer", class: "timer", role: "timer", hidden: "" },
      Kiosk.el("span", { id: "timer-left", class: "timer-left" }),
      Kiosk.el("span", { id: "timer-text", class: "timer-text" })));
    const pause = Kiosk.el("button", { type: "button", id: "menu-timer", hidden: "" });
    pause.addEventListener("click", () => act("/api/timer", {}));
    $("menu-close").before(pause); // an entry of the menu's; its hint under them all
    $("menu").append(Kiosk.el("p", { id: "menu-timer-hint", class: "save", hidden: "" }));
  }
}

function renderTimer(s) {
  timerNodes();
  const timer = s.timer;
  const running = Boolean(timer && timer.kind) && !s.end;
  $("timer").hidden = !running;
  $("menu-timer").hidden = $("menu-timer-hint").hidden = !timer || Boolean(s.end);
  $("end-times").hidden = !(timer && s.end);
  if (!timer) return;
  $("menu-timer").textContent = Kiosk.t(timer.paused ? "timerResume" : "timerPause");
  $("menu-timer").setAttribute("aria-pressed", String(timer.paused));
  $("menu-timer-hint").textContent = Kiosk.t("timerButtons");
  $("end-times").textContent = `${Kiosk.t("timeTotals")}: ${timer.totals.map((r) => `${r.name}\u00a0${r.text}`).join(" · ")}`;
  const box = $("timer");
  box.dataset.paused = String(timer.paused);
  box.dataset.last = String(timer.last);
  box.dataset.over = String(timer.over);
  box.style.setProperty("--seat", timer.hex || "var(--text)");
  $("timer-left").textContent = timer.left;
  $("timer-text").textContent = timer.text;
  box.setAttribute("aria-label", `${timer.text} ${timer.left}`);
}

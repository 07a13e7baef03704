// The tray page: the LEDs the controller is kept showing, each one labelled from the table's
// status (/api/tray: whose dice are on which tray and what for, what each track LED stands for).
"use strict";

const t = (key, params) => Kiosk.t(key, params);
const known = (key) => key in (WORDS[Kiosk.lang] || WORDS.en);

// WCAG relative luminance of "#rrggbb": dark text on a light LED, light text on a dark one.
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function led(state, number) {
  const lit = Boolean(state) && state.effect !== "off";
  const node = Kiosk.el("span", { class: "led", "data-effect": lit ? state.effect : "off", text: String(number) });
  if (lit) {
    node.style.setProperty("--led", state.colour);
    node.classList.add(luminance(state.colour) > 0.179 ? "on-light" : "on-dark");
  }
  return node;
}

function swatch(hex) {
  const node = Kiosk.el("span", { class: "swatch", "aria-hidden": "true" });
  if (hex) node.style.setProperty("--swatch", hex);
  return node;
}

function seatName(tray, seat) {
  if (seat == null) return t("table");
  const entry = (tray.seats || [])[seat];
  return entry ? entry.name : t("traySeat", { n: seat + 1 });
}

function dieName(die, i) {
  if (die.label) return die.label;
  return known(`die_${die.name}`) ? t(`die_${die.name}`) : t("die", { n: i + 1 });
}

function drawTrays(tray) {
  const slots = tray.trays.length ? tray.trays[0].length : 0;
  const dice = tray.dice;
  return tray.trays.map((leds, n) => {
    const mine = dice ? dice.dice.slice(n * slots, (n + 1) * slots) : [];
    const seat = dice && mine.length ? (tray.seats || [])[dice.seat] : null;
    const label = Kiosk.el("h3", { class: "tray-label" }, Kiosk.el("span", { class: "tray-n", text: t("trayN", { n: n + 1 }) }));
    if (mine.length) label.append(swatch(seat && seat.hex), Kiosk.el("span", { text: t("trayWhose", { who: seatName(tray, dice.seat), n: mine.length }) }));
    else label.append(Kiosk.el("span", { class: "quiet", text: dice ? t("trayEmpty") : t("noDice") }));
    const why = mine.length ? Kiosk.el("p", { class: "tray-why", text: dice.text }) : null;
    const row = Kiosk.el("div", { class: "slots" }, ...leds.map((state, i) => {
      const die = mine[i];
      return Kiosk.el("div", { class: "slot", "data-die": die ? die.name : "" },
        led(state, i + 1),
        Kiosk.el("span", { class: "die-name", text: die ? dieName(die, n * slots + i) : "" }));
    }));
    return Kiosk.el("div", { class: "tray", "data-tray": n, "data-used": String(mine.length > 0) }, label, why, row);
  });
}

// Consecutive LEDs of the same kind, for the captions under the strip and the legend.
function runs(legend) {
  const out = [];
  legend.forEach((role, i) => {
    const last = out[out.length - 1];
    if (last && last.kind === role.kind) last.end = i;
    else out.push({ kind: role.kind, start: i, end: i });
  });
  return out;
}

function ledRange(a, b) {
  return a === b ? t("ledN", { n: a + 1 }) : t("ledRange", { a: a + 1, b: b + 1 });
}

function phaseTitle(tray, name) {
  const phase = (tray.phases || []).find((p) => p.name === name);
  return phase ? phase.title : name;
}

function legendItem(tray, indices, text, current) {
  const item = Kiosk.el("li", { class: "legend-item" },
    Kiosk.el("span", { class: "legend-leds" }, ...indices.map((i) => led(tray.track[i], i + 1))),
    Kiosk.el("span", { class: "legend-text", text }));
  if (current) item.classList.add("now");
  return item;
}

function drawLegend(tray) {
  const legend = tray.legend || [];
  if (legend.some((r) => r.kind === "timer")) return [timerLegend(tray, legend)];
  const ofState = (kind, state) => legend.map((r, i) => [r, i]).filter(([r]) => r.kind === kind && r.state === state);
  const rounds = [];
  for (const [r, i] of ofState("round", "current")) {
    rounds.push(legendItem(tray, [i], tray.rounds ? t("roundNowOf", { n: r.round, of: tray.rounds }) : t("roundNow", { n: r.round }), true));
  }
  const past = ofState("round", "past").map(([, i]) => i);
  if (past.length) rounds.push(legendItem(tray, [past[0]], `${ledRange(past[0], past[past.length - 1])}: ${t("roundsPast")}`));
  for (const [r, i] of ofState("round", "mark")) rounds.push(legendItem(tray, [i], `${ledRange(i, i)}: ${t("roundMark", { n: r.round })}`));
  const coming = ofState("round", "coming").map(([, i]) => i);
  if (coming.length) rounds.push(legendItem(tray, [coming[0]], `${ledRange(coming[0], coming[coming.length - 1])}: ${t("roundsComing")}`));

  const other = [];
  legend.forEach((r, i) => {
    if (r.kind !== "accent") return;
    const text = r.accent ? t("accentNow", { name: t(`accent_${r.accent}`) }) : t("accentNone");
    other.push(legendItem(tray, [i], `${ledRange(i, i)}: ${text}`));
  });
  for (const run of runs(legend).filter((x) => x.kind === "unused")) {
    other.push(legendItem(tray, [run.start], `${ledRange(run.start, run.end)}: ${t("ledsUnused")}`));
  }

  const phases = [];
  legend.forEach((r, i) => {
    if (r.kind !== "phase") return;
    const name = phaseTitle(tray, r.phase);
    let text = `${ledRange(i, i)}: ${name}`;
    if (r.state === "past") text += ` — ${t("phasePast")}`;
    if (r.state === "current") {
      const seat = r.seat == null ? null : (tray.seats || [])[r.seat];
      text += ` — ${seat ? t("phaseNowSeat", { who: seatName(tray, r.seat), colour: seat.colour_name }) : t("phaseNowAll")}`;
    }
    phases.push(legendItem(tray, [i], text, r.state === "current"));
  });
  if (!legend.some((r) => r.kind === "phase") && (tray.phases || []).length) {
    phases.push(Kiosk.el("li", { class: "legend-item quiet", text: t("phasesNoRoom") }));
  }

  const column = (key, items) => (items.length
    ? Kiosk.el("section", { class: "legend-group", "data-group": key },
      Kiosk.el("h3", { text: t(`group_${key}`) }), Kiosk.el("ul", {}, ...items))
    : null);
  return [column("round", rounds), column("phase", phases), column("other", other)].filter(Boolean);
}

// While a timer runs the whole strip is its bar (kiosk/leds.py, kiosk/timers.py).
function timerLegend(tray, legend) {
  const who = seatName(tray, legend[0].seat);
  const items = runs(legend.map((r) => ({ kind: r.state }))).map((run) => {
    const text = run.kind === "left" ? t("timerLedsLeft", { who })
      : run.kind === "over" ? t("timerLedsOver", { who }) : t("timerLedsGone");
    return legendItem(tray, [run.start], `${ledRange(run.start, run.end)}: ${text}`, run.kind !== "gone");
  });
  return Kiosk.el("section", { class: "legend-group", "data-group": "timer" },
    Kiosk.el("h3", { text: t("group_timer") }), Kiosk.el("ul", {}, ...items));
}

function drawTrack(tray) {
  const legend = tray.legend || [];
  const cells = tray.track.map((state, i) => {
    const role = legend[i] || { kind: "unused" };
    const cell = Kiosk.el("div", { class: "slot", "data-kind": role.kind, "data-state": role.state || "" }, led(state, i + 1));
    cell.style.setProperty("grid-column", String(i + 1));
    return cell;
  });
  const captions = runs(legend).map((run) => {
    const caption = Kiosk.el("span", { class: "track-caption", "data-kind": run.kind, text: t(`group_${run.kind}`) });
    caption.style.setProperty("grid-column", `${run.start + 1} / ${run.end + 2}`);
    return caption;
  });
  return [...cells, ...captions];
}

async function draw() {
  const lang = Kiosk.lang ? `?lang=${encodeURIComponent(Kiosk.lang)}` : "";
  const tray = await (await fetch(`/api/tray${lang}`)).json();
  const link = document.getElementById("link");
  link.dataset.state = tray.link.state;
  link.title = tray.link.detail || "";
  document.getElementById("message").textContent = tray.next || ""; // no game yet: where to set one up
  if (!tray.connected) {
    link.textContent = `○ ${t("notConnected")}`;
    for (const id of ["trays", "track", "legend"]) document.getElementById(id).replaceChildren();
    return;
  }
  link.textContent = `${t("controller")}: ${t(tray.link.state)}`;
  document.getElementById("trays").replaceChildren(...drawTrays(tray));
  const track = document.getElementById("track");
  track.style.setProperty("--leds", String(tray.track.length));
  track.replaceChildren(...drawTrack(tray));
  document.getElementById("legend").replaceChildren(...drawLegend(tray));
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); draw(); });
  Kiosk.connect(() => draw(), () => {});
});

// The camera page: the live view (motion JPEG, detections drawn by the server), the tags, and
// how well each sticker reads (the weak ones first, with what to do).
"use strict";

let sheetNames = {}; // each sticker sheet's name in the screen's language

// A sticker's verdict, by the state the page's style sheet shows it in (data-state).
const VERDICT = { weak: "healthWeak", good: "healthGood", watching: "healthWatching" };

function showHealth(stickers) {
  const weak = stickers.filter((s) => s.weak);
  const summary = document.getElementById("health-summary");
  if (!stickers.length) summary.textContent = Kiosk.t("healthNone");
  else if (weak.length) summary.textContent = Kiosk.t("healthSomeWeak", { weak: weak.length, n: stickers.length });
  else summary.textContent = Kiosk.t("healthAllGood", { n: stickers.length });
  document.getElementById("health-weak").replaceChildren(...weak.map((s) =>
    Kiosk.el("li", { "data-id": String(s.id) }, Kiosk.el("strong", { text: s.line }), Kiosk.el("span", { text: s.why.join(" · ") }))));
  document.getElementById("health-all").replaceChildren(...stickers.map((s) => {
    const state = s.weak ? "weak" : s.judged ? "good" : "watching";
    const figures = [
      Kiosk.t("healthShare", { share: `${Math.round(s.share * 100)}%` }),
      Kiosk.t("healthMargin", { margin: s.margin === null ? "—" : Math.round(s.margin) }),
      Kiosk.t("healthBits", { bits: s.corrected_bits === null ? "—" : Number(s.corrected_bits.toFixed(1)) }),
    ].flatMap((text, i) => [i ? " · " : "", Kiosk.el("span", { class: "figure", text })]);
    return Kiosk.el("div", { class: "sticker", "data-state": state, "data-id": String(s.id) },
      Kiosk.el("b", { text: s.label }), Kiosk.el("small", {}, ...figures), Kiosk.el("small", { class: "verdict", text: Kiosk.t(VERDICT[state]) }));
  }));
}

async function poll() {
  try {
    const cam = await (await fetch(`/api/camera?lang=${Kiosk.lang}`)).json();
    const link = document.getElementById("link");
    link.dataset.state = cam.link.state;
    link.textContent = `${Kiosk.t("camera")}: ${Kiosk.t(cam.link.state)}`;
    link.title = cam.link.detail || ""; // the technical detail (a device path) on hover only
    document.getElementById("tags").textContent = cam.detections.map((d) => d.id).sort((a, b) => a - b).join(" ") || "—";
    showHealth(cam.stickers || []);
  } catch (e) { /* the next poll tries again */ }
}

async function read() {
  const answer = await fetch(`/api/camera/reading?lang=${Kiosk.lang}`);
  const reading = document.getElementById("reading");
  if (answer.ok) {
    reading.textContent = (await answer.json()).text;
  } else if (answer.status === 409) {
    // no game yet: why nothing is read, in the page's language (it stayed empty); no frame
    // yet: nothing, the camera's line above says so; busy (503): the last reading stays
    const why = await answer.json().catch(() => ({}));
    reading.textContent = why.code === "kiosk.no_game" ? why.detail : "";
  }
}

async function sheets() {
  const games = await (await fetch(`/api/games?lang=${Kiosk.lang}`)).json();
  sheetNames = Object.fromEntries(games.map((g) => [g.name, g.title]));
  sheetNames.anchors = Kiosk.t("anchors");
  // each game's two downloads, a dash between games (none after the last)
  document.getElementById("sheets").replaceChildren(...Object.entries(sheetNames).flatMap(([g, title], i) => [
    ...(i ? [" — "] : []),
    Kiosk.el("a", { href: `/api/sheets/${g}.pdf`, text: `${title} · ${Kiosk.t("printPdf")}` }), " ",
    Kiosk.el("a", { href: `/api/sheets/${g}.svg`, text: Kiosk.t("printSvg") }),
  ]));
}

function translateHealth() {
  document.getElementById("health-heading").textContent = Kiosk.t("healthHeading");
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.translateStatic();
  translateHealth();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); translateHealth(); poll(); sheets(); read(); });
  sheets();
  poll();
  setInterval(poll, 1000);
  setTimeout(read, 500);
  setInterval(read, 3000);
});

// The camera page: the live view (motion JPEG, detections drawn by the server), the tags, and
// how well each sticker reads (the weak ones first, with what to do).
"use strict";

let sheetNames = {}; // each sticker sheet's name in the screen's language

// The sticker-health words of this page, in both languages (common.js holds the shared ones).
const HEALTH = {
  zh: {
    heading: "贴纸状态", none: "画面中还没有贴纸", watching: "观察中…", good: "读得清楚", weak: "读得不稳",
    allGood: "画面中的 {n} 张贴纸都读得清楚", someWeak: "{weak} / {n} 张贴纸读得不稳",
    share: "认出 {share}", margin: "余量 {margin}", bits: "纠正 {bits} 位",
  },
  en: {
    heading: "Sticker health", none: "No sticker in view yet", watching: "watching…", good: "reads well", weak: "reads poorly",
    allGood: "All {n} stickers in view read well", someWeak: "{weak} of {n} stickers read poorly",
    share: "found {share}", margin: "margin {margin}", bits: "{bits} bits corrected",
  },
};

function hw(key, params = {}) {
  const words = HEALTH[Kiosk.lang] || HEALTH.en;
  return words[key].replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

function showHealth(stickers) {
  const weak = stickers.filter((s) => s.weak);
  const summary = document.getElementById("health-summary");
  if (!stickers.length) summary.textContent = hw("none");
  else summary.textContent = weak.length ? hw("someWeak", { weak: weak.length, n: stickers.length }) : hw("allGood", { n: stickers.length });
  document.getElementById("health-weak").replaceChildren(...weak.map((s) =>
    Kiosk.el("li", { "data-id": String(s.id) }, Kiosk.el("strong", { text: s.line }), Kiosk.el("span", { text: s.why.join(" · ") }))));
  document.getElementById("health-all").replaceChildren(...stickers.map((s) => {
    const state = s.weak ? "weak" : s.judged ? "good" : "watching";
    const figures = [
      hw("share", { share: `${Math.round(s.share * 100)}%` }),
      hw("margin", { margin: s.margin === null ? "—" : Math.round(s.margin) }),
      hw("bits", { bits: s.corrected_bits === null ? "—" : Number(s.corrected_bits.toFixed(1)) }),
    ].flatMap((text, i) => [i ? " · " : "", Kiosk.el("span", { class: "figure", text })]);
    return Kiosk.el("div", { class: "sticker", "data-state": state, "data-id": String(s.id) },
      Kiosk.el("b", { text: s.label }), Kiosk.el("small", {}, ...figures), Kiosk.el("small", { class: "verdict", text: hw(state) }));
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
  if (answer.ok) document.getElementById("reading").textContent = (await answer.json()).text;
}

async function sheets() {
  const games = await (await fetch(`/api/games?lang=${Kiosk.lang}`)).json();
  sheetNames = Object.fromEntries(games.map((g) => [g.name, g.title]));
  sheetNames.anchors = Kiosk.t("anchors");
  document.getElementById("sheets").replaceChildren(...Object.entries(sheetNames).flatMap(([g, title]) => [
    Kiosk.el("a", { href: `/api/sheets/${g}.pdf`, text: `${title} · ${Kiosk.t("printPdf")}` }), " ",
    Kiosk.el("a", { href: `/api/sheets/${g}.svg`, text: Kiosk.t("printSvg") }), " — ",
  ]));
}

function translateHealth() {
  for (const node of document.querySelectorAll("[data-health]")) node.textContent = hw(node.dataset.health);
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.lang = Kiosk.lang || "en";
  Kiosk.translateStatic();
  translateHealth();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); translateHealth(); poll(); sheets(); read(); });
  sheets();
  poll();
  setInterval(poll, 1000);
  setTimeout(read, 500);
  setInterval(read, 3000);
});

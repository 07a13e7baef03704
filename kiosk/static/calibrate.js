// The calibration page: the saved calibration as it opens (when, and its lens); calibrate from
// the camera's last frame, show anchors and the error.
// Every line is in the page's language: the report and the picture's caption come from the
// server in it (the picture itself carries no words); the lens lines are worded here, from the
// catalogue, around the numbers the server gives (GET /api/calibration's and POST
// /api/calibrate's `lens`).
"use strict";

const lang = () => `lang=${encodeURIComponent(Kiosk.lang)}`;
const POLL_MS = 2000;  // how often the stickers in view are counted while the page is open
let lastSeen = null;   // the last `lens` count shown, so the picture is redrawn when it changes

async function refreshPicture() {
  const img = document.getElementById("picture");
  img.alt = Kiosk.t("calibrate");
  const response = await fetch("/api/calibration.png");
  if (response.ok) img.src = URL.createObjectURL(await response.blob());
}

function showCaption(lines) {
  document.getElementById("caption").textContent = (lines || []).join(" · ");
}

// Before calibrating: lay stickers besides the anchors, and how many the camera sees now.
function showSeen(lens) {
  const ask = document.getElementById("lens-ask");
  const seen = document.getElementById("lens-seen");
  if (!lens) {
    seen.textContent = Kiosk.t("calLensNoPicture");
    seen.dataset.enough = "false";
    return;
  }
  ask.textContent = Kiosk.t("calLensAsk", { need: lens.needed });
  const enough = lens.seen >= lens.needed;
  seen.dataset.enough = String(enough);
  seen.dataset.seen = String(lens.seen);
  if (enough) seen.textContent = Kiosk.t("calLensSeenEnough", { n: lens.seen });
  else if (lens.seen === 1) seen.textContent = Kiosk.t("calLensSeenOne", { need: lens.needed });
  else seen.textContent = Kiosk.t("calLensSeen", { n: lens.seen, need: lens.needed });
}

let framed = false;  // whether the camera has given a frame (asked of /api/camera until then)

async function refreshStatus() {
  if (!framed) {  // no frame yet: /api/calibration would answer 404 (and wakes the camera too)
    const camera = await fetch("/api/camera").then((r) => (r.ok ? r.json() : null)).catch(() => null);
    framed = Boolean(camera && camera.size && camera.size[0] > 0);
    if (!framed) { showSeen(null); return; }
  }
  const answer = await fetch(`/api/calibration?${lang()}`)
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  showCaption(answer ? answer.caption : []);
  showSeen(answer ? answer.lens : null);
  const seen = answer && answer.lens ? answer.lens.seen : null;
  if (seen !== lastSeen) {
    lastSeen = seen;
    refreshPicture();
  }
}

// A calibration's lens in one line: corrected (and how far a flat table would be off), or not
// and why (`why`: after calibrating now; a saved calibration keeps no why: read flat).
function lensLine(lens) {
  if (lens.measured) {
    return lens.shift_mm < 1
      ? Kiosk.t("calLensCorrectedSmall")
      : Kiosk.t("calLensCorrected", { mm: Math.round(lens.shift_mm) });
  }
  if (lens.why === "few") return Kiosk.t("calLensFew");
  if (lens.why === "straight") return Kiosk.t("calLensStraight");
  return Kiosk.t("calLensFlat");
}

// After calibrating: the lens in players' words, its numbers in a small line.
function showLens(lens) {
  const box = document.getElementById("lens");
  const why = document.getElementById("lens-why");
  const detail = document.getElementById("lens-detail");
  box.hidden = !lens;
  showSaved();
  if (!lens) return;
  box.dataset.measured = String(lens.measured);
  document.getElementById("lens-line").textContent = lensLine(lens);
  why.textContent = "";
  detail.textContent = "";
  if (lens.measured) {
    const figure = (k) => (Math.abs(k) < 0.0005 ? 0 : k).toFixed(3);  // never "-0.000"
    detail.textContent = Kiosk.t("calLensDetail", { k1: figure(lens.k1), k2: figure(lens.k2), n: lens.stickers });
  } else if (lens.why === "few") {
    why.textContent = Kiosk.t("calLensFewWhy", { n: lens.seen, need: lens.needed });
  } else {
    why.textContent = Kiosk.t("calLensStraightWhy", { n: lens.seen });
  }
}

// On opening: the saved calibration (GET /api/calibration/saved), when it was made and its
// lens, worded here in the page's language; hidden while the answer of calibrating now says it.
let saved = null;

async function loadSaved() {
  saved = await fetch("/api/calibration/saved").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  showSaved();
}

function showSaved() {
  const box = document.getElementById("saved");
  box.hidden = !saved || !document.getElementById("lens").hidden;
  if (!saved) return;
  const when = document.getElementById("saved-when");
  const lens = document.getElementById("saved-lens");
  box.dataset.measured = String(Boolean(saved.saved && saved.lens.measured));
  if (!saved.saved) {
    when.textContent = Kiosk.t(saved.damaged ? "calSavedDamaged" : "calSavedNone");
    lens.textContent = "";
    return;
  }
  const locale = Kiosk.lang === "zh" ? "zh-CN" : "en-GB";
  const made = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  when.textContent = Kiosk.t("calSaved", { when: made.format(new Date(saved.made * 1000)) });
  lens.textContent = lensLine(saved.lens);
}

async function calibrate() {
  const answer = await Kiosk.post(`/api/calibrate?${lang()}`);
  const result = document.getElementById("result");
  result.dataset.ok = String(Boolean(answer.calibrated));
  if (!answer.ok) { result.textContent = `✖ ${Kiosk.describe(answer.detail)}`; showLens(null); return; }
  result.textContent = answer.calibrated ? `✔ ${answer.caption[0]}` : `✖ ${answer.problem}`;
  if (answer.calibrated) await loadSaved();  // the one just made, shown again after a language change
  showLens(answer.calibrated ? answer.lens : null);
  if (answer.lens) showSeen(answer.lens);
  document.getElementById("report").replaceChildren(...answer.report.map((line) => Kiosk.el("li", { text: line })));
  showCaption(answer.caption);
  refreshPicture();
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => {
      Kiosk.setLang(b.dataset.lang);
      // The last answer was in the other language: gone, not mixed (calibrate again to see it).
      document.getElementById("result").textContent = "";
      document.getElementById("report").replaceChildren();
      showLens(null);
      refreshStatus();
    });
  }
  loadSaved();
  refreshStatus();  // wakes the camera, so that a frame is ready
  setInterval(() => { if (!document.hidden) refreshStatus(); }, POLL_MS);
  document.getElementById("run").addEventListener("click", calibrate);
});

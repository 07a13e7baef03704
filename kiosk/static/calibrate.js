// The calibration page: calibrate from the camera's last frame, show anchors and the error.
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

// After calibrating: the lens in players' words, its numbers in a small line.
function showLens(lens) {
  const box = document.getElementById("lens");
  const line = document.getElementById("lens-line");
  const why = document.getElementById("lens-why");
  const detail = document.getElementById("lens-detail");
  box.hidden = !lens;
  if (!lens) return;
  box.dataset.measured = String(lens.measured);
  why.textContent = "";
  detail.textContent = "";
  if (lens.measured) {
    const mm = Math.round(lens.shift_mm);
    line.textContent = lens.shift_mm < 1
      ? Kiosk.t("calLensCorrectedSmall")
      : Kiosk.t("calLensCorrected", { mm });
    const figure = (k) => (Math.abs(k) < 0.0005 ? 0 : k).toFixed(3);  // never "-0.000"
    detail.textContent = Kiosk.t("calLensDetail", { k1: figure(lens.k1), k2: figure(lens.k2), n: lens.stickers });
  } else if (lens.why === "few") {
    line.textContent = Kiosk.t("calLensFew");
    why.textContent = Kiosk.t("calLensFewWhy", { n: lens.seen, need: lens.needed });
  } else {
    line.textContent = Kiosk.t("calLensStraight");
    why.textContent = Kiosk.t("calLensStraightWhy", { n: lens.seen });
  }
}

async function calibrate() {
  const answer = await Kiosk.post(`/api/calibrate?${lang()}`);
  const result = document.getElementById("result");
  result.dataset.ok = String(Boolean(answer.calibrated));
  if (!answer.ok) { result.textContent = `✖ ${Kiosk.describe(answer.detail)}`; showLens(null); return; }
  result.textContent = answer.calibrated ? `✔ ${answer.caption[0]}` : `✖ ${answer.problem}`;
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
  refreshStatus();  // wakes the camera, so that a frame is ready
  setInterval(() => { if (!document.hidden) refreshStatus(); }, POLL_MS);
  document.getElementById("run").addEventListener("click", calibrate);
});

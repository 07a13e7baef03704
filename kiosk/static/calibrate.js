// The calibration page: calibrate from the camera's last frame, show anchors and the error.
// Every line is in the page's language: the report and the picture's caption come from the
// server in it (the picture itself carries no words).
"use strict";

const lang = () => `lang=${encodeURIComponent(Kiosk.lang)}`;

async function refreshPicture() {
  const img = document.getElementById("picture");
  img.alt = Kiosk.t("calibrate");
  const [response, caption] = await Promise.all([
    fetch("/api/calibration.png"),
    fetch(`/api/calibration?${lang()}`).then((r) => (r.ok ? r.json() : { caption: [] })),
  ]);
  if (response.ok) img.src = URL.createObjectURL(await response.blob());
  showCaption(caption.caption);
}

function showCaption(lines) {
  document.getElementById("caption").textContent = (lines || []).join(" · ");
}

async function calibrate() {
  const answer = await Kiosk.post(`/api/calibrate?${lang()}`);
  const result = document.getElementById("result");
  result.dataset.ok = String(Boolean(answer.calibrated));
  if (!answer.ok) { result.textContent = `✖ ${Kiosk.describe(answer.detail)}`; return; }
  result.textContent = answer.calibrated ? `✔ ${answer.caption[0]}` : `✖ ${answer.problem}`;
  document.getElementById("report").replaceChildren(...answer.report.map((line) => Kiosk.el("li", { text: line })));
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
      refreshPicture();
    });
  }
  fetch("/api/camera");  // wake the camera so that a frame is ready
  setTimeout(refreshPicture, 1500);
  document.getElementById("run").addEventListener("click", calibrate);
});

// The calibration page: calibrate from the camera's last frame, show anchors and the error.
"use strict";

async function refreshPicture() {
  const img = document.getElementById("picture");
  const response = await fetch("/api/calibration.png");
  if (response.ok) img.src = URL.createObjectURL(await response.blob());
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => Kiosk.setLang(b.dataset.lang));
  fetch("/api/camera");  // wake the camera so that a frame is ready
  setTimeout(refreshPicture, 1500);
  document.getElementById("run").addEventListener("click", async () => {
    const answer = await Kiosk.post("/api/calibrate");
    const result = document.getElementById("result");
    result.dataset.ok = String(Boolean(answer.calibrated));
    if (!answer.ok) { result.textContent = `✖ ${Kiosk.describe(answer.detail)}`; return; }
    result.textContent = answer.calibrated
      ? `✔ ${Kiosk.t("reprojection")}: ${answer.error_px} px`
      : `✖ ${answer.problem}`;
    document.getElementById("report").replaceChildren(...answer.report.map((line) => Kiosk.el("li", { text: line })));
    refreshPicture();
  });
});

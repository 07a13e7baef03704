// The camera page: the live view (motion JPEG, detections drawn by the server) and the tags.
"use strict";

const GAMES = ["greenwood", "dont_starve", "stonesaga", "anchors"];

async function poll() {
  try {
    const cam = await (await fetch("/api/camera")).json();
    const link = document.getElementById("link");
    link.dataset.state = cam.link.state;
    link.textContent = `${Kiosk.t("camera")}: ${Kiosk.t(cam.link.state)} ${cam.link.detail ? "— " + cam.link.detail : ""}`;
    document.getElementById("tags").textContent = cam.detections.map((d) => d.id).sort((a, b) => a - b).join(" ") || "—";
  } catch (e) { /* the next poll tries again */ }
}

async function read() {
  const answer = await fetch(`/api/camera/reading?lang=${Kiosk.lang}`);
  if (answer.ok) document.getElementById("reading").textContent = (await answer.json()).text;
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.lang = Kiosk.lang || "en";
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); poll(); });
  document.getElementById("sheets").replaceChildren(...GAMES.flatMap((g) => [
    Kiosk.el("a", { href: `/api/sheets/${g}.pdf`, text: `${g} (PDF)` }), " ",
    Kiosk.el("a", { href: `/api/sheets/${g}.svg`, text: "SVG" }), " · ",
  ]));
  poll();
  setInterval(poll, 1000);
  setTimeout(read, 500);
  setInterval(read, 3000);
});

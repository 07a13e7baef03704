// The camera page: the live view (motion JPEG, detections drawn by the server) and the tags.
"use strict";

let sheetNames = {}; // each sticker sheet's name in the screen's language

async function poll() {
  try {
    const cam = await (await fetch("/api/camera")).json();
    const link = document.getElementById("link");
    link.dataset.state = cam.link.state;
    link.textContent = `${Kiosk.t("camera")}: ${Kiosk.t(cam.link.state)}`;
    link.title = cam.link.detail || ""; // the technical detail (a device path) on hover only
    document.getElementById("tags").textContent = cam.detections.map((d) => d.id).sort((a, b) => a - b).join(" ") || "—";
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

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.lang = Kiosk.lang || "en";
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); poll(); sheets(); read(); });
  sheets();
  poll();
  setInterval(poll, 1000);
  setTimeout(read, 500);
  setInterval(read, 3000);
});

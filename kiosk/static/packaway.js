// The pack-away page: lay the game's components out under the camera and touch Check; the page
// lists what is missing and how many of each (by the sticker sheet's names), with the camera's
// picture and the sheet's pages marking the missing (kiosk/routers/packaway.py).
"use strict";

const $ = (id) => document.getElementById(id);
const game = new URLSearchParams(location.search).get("game");
let shown = null; // the page's state: the game, its title and the last check
let note = null; // what the last touch of Check said when it kept nothing (key and words)

function say(text) { return text[Kiosk.lang] ?? text.en; }

function draw() {
  Kiosk.translateStatic();
  if (!shown) return;
  const title = say(shown.title);
  $("pack-intro").textContent = Kiosk.t("packIntro", { title });
  const last = shown.last;
  const summary = $("pack-summary");
  if (note === "nothing") summary.textContent = Kiosk.t("packNothing", { title });
  else if (note === "noFrame") summary.textContent = Kiosk.t("packNoFrame");
  else if (!last) summary.textContent = Kiosk.t("packNone");
  else if (last.complete) summary.textContent = Kiosk.t("packAllHere", { of: last.of });
  else summary.textContent = Kiosk.t("packSomeMissing", { seen: last.seen, of: last.of, n: last.of - last.seen });
  summary.dataset.complete = note || !last ? "" : String(last.complete);
  const missing = last ? last.missing : [];
  $("pack-missing-heading").hidden = !missing.length;
  $("pack-missing").replaceChildren(...missing.map((m) => Kiosk.el("li", { text: say(m.name) })));
  $("pack-counts-heading").hidden = !last;
  $("pack-counts").replaceChildren(...(last ? last.counts : []).map((c) => Kiosk.el("tr", { "data-short": String(c.seen < c.of) },
    Kiosk.el("td", { text: say(c.name) }), Kiosk.el("td", { text: Kiosk.t("packCount", { seen: c.seen, of: c.of }) }))));
  $("pack-picture-box").hidden = !last;
  if (last) {
    $("pack-picture").src = `/api/packaway.jpg?n=${last.number}`;
    $("pack-picture").alt = Kiosk.t("packPictureAlt");
  }
  $("pack-sheets").replaceChildren(...(last ? last.pages : []).map((n) => Kiosk.el("figure", {},
    Kiosk.el("figcaption", { text: Kiosk.t("packSheet", { n }) }),
    Kiosk.el("img", { src: `/api/packaway/sheet-${n}.svg?lang=${Kiosk.lang}&n=${last.number}`, alt: Kiosk.t("packSheet", { n }) }))));
}

async function load() {
  const query = game ? `?game=${encodeURIComponent(game)}` : "";
  const answer = await fetch(`/api/packaway${query}`);
  if (answer.ok) shown = await answer.json();
  draw();
}

async function runCheck() {
  const button = $("pack-check");
  button.disabled = true;
  $("pack-summary").textContent = Kiosk.t("packChecking");
  try {
    const answer = await Kiosk.post("/api/packaway", game ? { game } : {});
    note = null;
    if (answer.ok && answer.empty) note = "nothing";
    else if (answer.ok) shown = { ...shown, last: answer };
    else if (answer.detail === "no_frame") note = "noFrame";
    else { $("pack-summary").textContent = Kiosk.describe(answer.detail); return; }
    draw();
  } finally {
    button.disabled = false;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); draw(); });
  $("pack-check").addEventListener("click", runCheck);
  load();
});

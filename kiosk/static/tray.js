// The tray view: the LED state the controller is kept showing, refreshed on every change.
"use strict";

function slot(led, label) {
  const node = Kiosk.el("span", { class: "slot", "data-effect": led ? led.effect : "off", text: label });
  if (led && led.effect !== "off") node.style.background = led.colour;
  return node;
}

async function draw() {
  const tray = await (await fetch("/api/tray")).json();
  const link = document.getElementById("link");
  link.dataset.state = tray.link.state;
  if (!tray.connected) {
    link.textContent = `○ ${Kiosk.t("notConnected")}`;
    document.getElementById("trays").replaceChildren();
    document.getElementById("track").replaceChildren();
    return;
  }
  link.textContent = `${Kiosk.t("controller")}: ${Kiosk.t(tray.link.state)} — ${tray.link.detail}`;
  document.getElementById("trays").replaceChildren(...tray.trays.map((leds, t) => {
    const row = Kiosk.el("div", { class: "tray", "data-tray": t });
    leds.forEach((led, i) => row.append(slot(led, String(i + 1))));
    return row;
  }));
  document.getElementById("track").replaceChildren(...tray.track.map((led, i) => slot(led, String(i + 1))));
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.lang = Kiosk.lang || "en";
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); draw(); });
  Kiosk.connect(() => draw(), () => {});
});

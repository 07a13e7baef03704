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
    for (let i = 0; i < tray.slots; i++) row.append(slot(leds[i], String(i + 1)));
    return row;
  }));
  const track = document.getElementById("track");
  track.replaceChildren();
  for (let i = 0; i < tray.track_leds; i++) track.append(slot(tray.track[i], String(i + 1)));
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.lang = Kiosk.lang || "en";
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => { Kiosk.setLang(b.dataset.lang); draw(); });
  Kiosk.connect(() => draw(), () => {});
});

// The settings page: language, LED brightness, sound, stability timing of the camera.
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  Kiosk.translateStatic();
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => Kiosk.setLang(b.dataset.lang));
  const status = await (await fetch("/api/status")).json();
  const $ = (id) => document.getElementById(id);
  // A choice of two is two buttons a finger hits (64 px), never a drop-down or a checkbox.
  const choose = (group, value) => {
    for (const b of $(group).querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.value === String(value)));
  };
  const chosen = (group) => $(group).querySelector('[aria-pressed="true"]')?.dataset.value;
  for (const group of ["lang", "sound"]) {
    for (const b of $(group).querySelectorAll("button")) b.addEventListener("click", () => choose(group, b.dataset.value));
  }
  choose("lang", status.settings.lang);
  $("brightness").value = status.settings.brightness;
  choose("sound", status.settings.sound);
  $("settings").addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { lang: chosen("lang"), brightness: parseInt($("brightness").value, 10), sound: chosen("sound") === "true" };
    const stability = {};
    if ($("add_ms").value !== "") stability.add_ms = parseFloat($("add_ms").value);
    if ($("remove_ms").value !== "") stability.remove_ms = parseFloat($("remove_ms").value);
    if (Object.keys(stability).length) body.stability = stability;
    const answer = await Kiosk.post("/api/settings", body);
    $("message").dataset.ok = String(answer.ok);
    $("message").textContent = answer.ok ? Kiosk.t("saved") : Kiosk.describe(answer.detail);
    if (answer.ok) {
      $("add_ms").value = answer.stability.add_ms;
      $("remove_ms").value = answer.stability.remove_ms;
    }
  });
});

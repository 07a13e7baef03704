// An on-screen keyboard for the names the setup page asks (a kiosk has no keyboard, and no
// input method for Chinese): touching a name field opens it under the page. Latin letters A–Z,
// space, backspace and done; a second page of common Chinese name characters to tap. Every key
// types into the field and tells the page (an "input" event), as a keyboard would.
"use strict";

const Keyboard = {
  LATIN: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  // Common characters of given names and family names, and the syllables that start nicknames.
  CHINESE: "小阿老大明华红丽伟芳娜静敏强磊军洋勇艳杰娟涛超雷文晨宇浩婷雪琳玲欣怡佳悦子一飞龙凤兰云东海" +
    "李王张刘陈杨赵黄周吴徐孙马朱胡郭林何高罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程苏魏吕丁沈",
  target: null, // the id of the field being typed
  page: "latin",

  // The fields it types into: any input marked data-keyboard, and the save's name.
  fits(node) { return node instanceof HTMLInputElement && (node.hasAttribute("data-keyboard") || node.id === "name"); },

  field() { return Keyboard.target ? document.getElementById(Keyboard.target) : null; },

  open(input) {
    if (!input.id) return;
    Keyboard.target = input.id;
    Keyboard.draw();
    document.getElementById("keyboard").hidden = false;
    document.body.dataset.keyboard = "open";
    input.scrollIntoView({ block: "nearest" });
  },

  close() {
    Keyboard.target = null;
    const board = document.getElementById("keyboard");
    if (board) board.hidden = true;
    delete document.body.dataset.keyboard;
  },

  type(text) {
    const input = Keyboard.field();
    if (!input) { Keyboard.close(); return; }
    if (text === null) input.value = [...input.value].slice(0, -1).join(""); // one character back
    else input.value += text;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    const shown = document.getElementById("kb-value");
    if (shown) shown.textContent = input.value;
  },

  key(text, label, attrs = {}) {
    const b = Kiosk.el("button", { type: "button", class: "key", ...attrs, text: label ?? text });
    b.addEventListener("click", () => {
      if (attrs["data-key"] === "done") Keyboard.close();
      else if (attrs["data-key"] === "page") { Keyboard.page = Keyboard.page === "latin" ? "chinese" : "latin"; Keyboard.draw(); }
      else Keyboard.type(text);
    });
    // The field keeps its focus (and the page its caret) while a key is touched.
    b.addEventListener("mousedown", (e) => e.preventDefault());
    return b;
  },

  draw() {
    const t = Kiosk.t;
    const letters = Keyboard.page === "latin" ? [...Keyboard.LATIN] : [...Keyboard.CHINESE];
    const board = document.getElementById("keyboard");
    board.dataset.page = Keyboard.page;
    // What the field holds now, above the keys (the field itself may be under them).
    const input = Keyboard.field();
    const label = input ? (input.labels?.[0]?.textContent || input.placeholder || "") : "";
    // The line of what is typed shares its row with the keys that are not letters, so the
    // keyboard takes as little of the screen as it can.
    board.replaceChildren(
      Kiosk.el("div", { class: "keys keys-do" },
        Kiosk.el("p", { class: "kb-preview" },
          Kiosk.el("span", { class: "kb-who", text: label ? `${label}:` : "" }), " ",
          Kiosk.el("output", { id: "kb-value", class: "kb-value", text: input ? input.value : "" })),
        Keyboard.key(null, Keyboard.page === "latin" ? t("kbChinese") : t("kbLatin"), { "data-key": "page", class: "key key-page" }),
        Keyboard.key(" ", t("kbSpace"), { "data-key": "space", class: "key key-space" }),
        Keyboard.key(null, `⌫ ${t("kbBack")}`, { "data-key": "back", class: "key key-back" }),
        Keyboard.key(null, `✔ ${t("kbDone")}`, { "data-key": "done", class: "key key-done primary" })),
      Kiosk.el("div", { class: "keys" }, ...letters.map((c) => Keyboard.key(c, c, { "data-key": c }))),
    );
    board.setAttribute("aria-label", t("kbTitle"));
    // The keys' page changed their height: the field typed in is brought back into view.
    if (input && !board.hidden) input.scrollIntoView({ block: "nearest" });
  },

  init() {
    const board = Kiosk.el("div", { id: "keyboard", class: "keyboard", role: "group", hidden: "" });
    document.body.append(board);
    document.addEventListener("focusin", (e) => { if (Keyboard.fits(e.target)) Keyboard.open(e.target); });
    document.addEventListener("click", (e) => { if (Keyboard.fits(e.target)) Keyboard.open(e.target); });
    // No system keyboard on top of this one on a touch screen.
    const quiet = () => { for (const input of document.querySelectorAll("input")) if (Keyboard.fits(input)) input.inputMode = "none"; };
    new MutationObserver(quiet).observe(document.body, { childList: true, subtree: true });
    quiet();
  },
};

document.addEventListener("DOMContentLoaded", () => Keyboard.init());

// Shared by every page: language, the live connection, control requests with the pairing code.
"use strict";

// A phone that scanned the kiosk's pairing QR code opens a page with ?pair=TOKEN: the token is
// kept and sent like a typed pairing code (Kiosk.post), and taken out of the address bar.
(() => {
  const url = new URL(location.href);
  const token = url.searchParams.get("pair");
  if (!token) return;
  localStorage.setItem("pairing", token);
  url.searchParams.delete("pair");
  history.replaceState(null, "", url);
})();

// The words of every page, both languages: the server's catalogue (kiosk/words.py), in the
// page's frame (base.html) as JSON. Never a second list here.
const WORDS = JSON.parse(document.getElementById("words")?.textContent || "{}");

const Kiosk = {
  // One language per kiosk: ?lang when the link asks for one, else the kiosk's own setting,
  // which the page's frame carries (<html lang>, from kiosk/routers/pages.py); never a default
  // of English nor a choice this browser made on another page.
  lang: new URLSearchParams(location.search).get("lang")
    || (document.documentElement.lang ? (document.documentElement.lang.startsWith("zh") ? "zh" : "en") : ""),
  status: null,

  // A key missing from the catalogue is a bug (tests/kiosk/test_words.py): logged, and nothing
  // of the id is shown to the players.
  t(key, params = {}) {
    const words = WORDS[Kiosk.lang] || WORDS.en || {};
    let text = words[key];
    if (typeof text !== "string") {
      console.error(`tablesight: no words for ${JSON.stringify(key)} in the catalogue (kiosk/words.py)`);
      return "";
    }
    for (const [k, v] of Object.entries(params)) text = text.replace(`{${k}}`, v);
    return text;
  },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const child of children) if (child != null) node.append(child);
    return node;
  },

  translateStatic() {
    document.documentElement.lang = Kiosk.lang === "zh" ? "zh-CN" : "en";
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = Kiosk.t(node.dataset.t);
    for (const b of document.querySelectorAll("[data-lang]")) {
      b.setAttribute("aria-pressed", String(b.dataset.lang === Kiosk.lang));
    }
  },

  // Live status: a snapshot on every (re)connect, then changes merged into it.
  connect(onStatus, onConnection) {
    let source = null;
    let retry = null;
    const open = () => {
      if (source) source.close();
      const query = Kiosk.lang ? `?lang=${encodeURIComponent(Kiosk.lang)}` : "";
      source = new EventSource(`/api/live${query}`);
      source.addEventListener("snapshot", (e) => {
        Kiosk.status = JSON.parse(e.data);
        if (!Kiosk.lang) Kiosk.lang = Kiosk.status.lang;
        onConnection(true);
        onStatus(Kiosk.status, true);
      });
      source.addEventListener("change", (e) => {
        const change = JSON.parse(e.data);
        if (!Kiosk.status || change.seq <= Kiosk.status.seq) return;
        Object.assign(Kiosk.status, change);
        onStatus(Kiosk.status, false);
      });
      source.onerror = () => {
        onConnection(false);
        if (source.readyState === EventSource.CLOSED && retry === null) {
          retry = setTimeout(() => { retry = null; open(); }, 1000);
        }
      };
    };
    open();
    return {
      reopen: open,
    };
  },

  setLang(lang, live) {
    Kiosk.lang = lang;
    const url = new URL(location.href);  // this page keeps the choice; a new page follows the kiosk
    url.searchParams.set("lang", lang);
    history.replaceState(null, "", url);
    Kiosk.translateStatic();
    if (live) live.reopen();
  },

  // A control request: the kiosk's own screen needs no code; a phone sends the pairing code.
  async post(path, body = {}) {
    const headers = { "Content-Type": "application/json" };
    const code = localStorage.getItem("pairing");
    if (code) headers["X-Pairing-Code"] = code;
    let response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    if (response.status === 403) {
      const entered = prompt(Kiosk.t("pairAsk"));
      if (!entered) return { ok: false, detail: Kiosk.t("pairAsk") };
      localStorage.setItem("pairing", entered.trim());
      headers["X-Pairing-Code"] = entered.trim();
      response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    }
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, ...data };
  },

  describe(detail) {
    if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
    return String(detail ?? "");
  },
};

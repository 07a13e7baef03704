// The table page: draws any game generically from the live status.
"use strict";

const $ = (id) => document.getElementById(id);
const ICONS = { ok: "✔", bad: "✖" };
const LINK_ICONS = { ok: "●", simulated: "◐", lost: "✖", not_connected: "○" };

function render(s) {
  const t = Kiosk.t;
  Kiosk.translateStatic();
  document.title = `${s.title} — tablesight`;
  $("title").textContent = s.title;
  $("save").textContent = s.save;
  $("round").textContent = s.rounds ? t("roundOf", { n: s.round, of: s.rounds }) : t("round", { n: s.round });
  $("phase").textContent = s.phase.title;
  $("step").textContent = s.step ? t("step", { i: s.step.index, of: s.step.of, t: s.step.title }) : "";
  // A game may name its seats (characters); a name that is only "player N" adds nothing.
  let who = (s.view?.players || []).find((p) => p.seat === s.current_player - 1)?.name;
  if (who && /\d/.test(who)) who = null;
  $("turn").textContent = s.current_player
    ? (who ? t("playerNamed", { name: who, n: s.current_player }) : t("player", { n: s.current_player }))
    : t({ simultaneous: "everyone", table: "table", free: "free", clockwise: "table" }[s.order] || "table");
  if (s.passed_players.length && s.order !== "table") {
    $("turn").textContent += ` · ${t("passed", { list: s.passed_players.join(", ") })}`;
  }
  $("outcome").hidden = !s.outcome;
  $("outcome").textContent = s.outcome ? `${t("over")}: ${s.outcome.result}` : "";
  renderTrack(s);
  renderDice(s);
  renderVerdicts(s);
  renderPrompts(s.prompts || []);
  renderView(s.view || {});
  Console.render(s);
  $("console-undo").disabled = !s.can_undo;
  $("log").replaceChildren(...s.recent.map((e) => Kiosk.el("li", { "data-type": e.type, text: e.text })));
  for (const name of ["camera", "controller"]) {
    const link = s.links[name] || { state: "not_connected", detail: "" };
    const node = $(`link-${name}`);
    node.dataset.state = link.state;
    node.textContent = `${LINK_ICONS[link.state] || "?"} ${t(name)}: ${t(link.state)}`;
    node.title = link.detail;
  }
  $("moves").textContent = t("moves", { n: s.moves });
  $("undo").disabled = !s.can_undo;
  $("pairing").hidden = !(s.control.lan && s.control.code);
  $("pairing").textContent = s.control.code ? `${t("pairing")}: ${s.control.code} — ${t("pairHint")}` : "";
  $("menu").hidden = !s.menu;
  $("notices").replaceChildren(...s.notices.map((n) => Kiosk.el("li", { text: n })));
}

function renderTrack(s) {
  const rounds = s.rounds || Math.max(s.round, 1);
  const cells = [];
  for (let n = 1; n <= rounds; n++) {
    const state = n < s.round ? "done" : n === s.round ? "now" : "later";
    cells.push(Kiosk.el("li", { class: `cell ${state}`, "data-round": n, "aria-current": String(state === "now") }, String(n)));
  }
  $("track").replaceChildren(...cells);
  $("phases").replaceChildren(...s.phases.map((p) => Kiosk.el(
    "li", { class: p.name === s.phase.name ? "now" : "", "data-phase": p.name, "aria-current": String(p.name === s.phase.name) },
    (p.name === s.phase.name ? "▶ " : "") + p.title,
  )));
}

function renderDice(s) {
  if (!s.dice || !s.dice.dice.length) {
    $("dice").replaceChildren(Kiosk.el("p", { class: "muted", text: Kiosk.t("noDice") }));
    return;
  }
  const who = s.dice.seat == null ? Kiosk.t("table") : Kiosk.t("player", { n: s.dice.seat + 1 });
  $("dice").replaceChildren(
    Kiosk.el("p", { class: "muted", text: who + (s.dice.reason ? ` · ${s.dice.reason}` : "") }),
    ...s.dice.dice.map((d) => Kiosk.el("span", { class: "die", "data-die": d, text: d })),
  );
}

function renderVerdicts(s) {
  $("verdicts").replaceChildren(...s.verdicts.map((v) => Kiosk.el(
    "li", { class: v.ok ? "ok" : "bad", "data-code": v.code },
    Kiosk.el("span", { class: "icon", "aria-hidden": "true", text: v.ok ? ICONS.ok : ICONS.bad }),
    Kiosk.el("strong", { text: v.ok ? Kiosk.t("accepted") : Kiosk.t("rejected") }),
    ` ${v.message}`,
    v.rule ? Kiosk.el("small", { text: ` (${v.rule})` }) : null,
  )));
}

// What the camera asks of the players, in both languages (the kiosk's own first).
function renderPrompts(prompts) {
  $("prompt-box").hidden = !prompts.length;
  $("prompts").replaceChildren(...prompts.map((p) => {
    const other = p.message === p.zh ? p.en : p.zh;
    return Kiosk.el("li", { "data-code": p.code },
      Kiosk.el("strong", { text: p.message }),
      other && other !== p.message ? Kiosk.el("small", { lang: p.message === p.zh ? "en" : "zh", text: ` ${other}` }) : null);
  }));
}

function renderView(view) {
  const pairs = (list) => (list || []).flatMap(([k, v]) => [Kiosk.el("dt", { text: k }), Kiosk.el("dd", { text: String(v) })]);
  $("summary").replaceChildren(...pairs(view.summary));
  $("players").replaceChildren(...(view.players || []).map((p) => Kiosk.el(
    "div", { class: "player", "data-seat": p.seat },
    Kiosk.el("h3", { text: p.name ?? Kiosk.t("player", { n: p.seat + 1 }) }),
    Kiosk.el("dl", {}, ...pairs(p.fields)),
  )));
}

async function act(path, body) {
  const answer = await Kiosk.post(path, body);
  $("message").textContent = answer.ok ? (answer.message || "") : Kiosk.describe(answer.detail ?? answer.message);
  $("message").dataset.ok = String(answer.ok && answer.accepted !== false);
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.translateStatic();
  const live = Kiosk.connect(render, (up) => {
    $("connection").dataset.state = up ? "ok" : "lost";
    $("connection").textContent = up ? `● ${Kiosk.t("live")}` : `✖ ${Kiosk.t("reconnecting")}`;
  });
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => Kiosk.setLang(b.dataset.lang, live));
  $("advance").addEventListener("click", () => act("/api/advance"));
  $("undo").addEventListener("click", () => act("/api/undo"));
  $("console-undo").addEventListener("click", () => act("/api/undo"));
  Console.init();
  $("menu-button").addEventListener("click", () => act("/api/menu", { open: true }));
  $("menu-close").addEventListener("click", () => act("/api/menu", { open: false }));
});

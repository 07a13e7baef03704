// tablesight café overview: one tile per table, live from /api/live (server-sent events).
"use strict";

const WORDS = {
  zh: {
    heading: "各桌总览", csv: "下载已结束对局(CSV)", live: "已连接", lost: "与服务器断开,重新连接中…",
    connecting: "连接中…",
    brokerDown: "MQTT 服务器断开了。各桌照常进行,服务器恢复后会自动报告。",
    checking: "服务器已恢复,等待本桌报告…",
    counts: "{n} 张桌", countsAlert: "{n} 张桌,{k} 张需要处理", needs: "需要处理:",
    empty: "还没有桌子报告。桌旁运行 tablesight run --mqtt … --table 桌名 后,这里会出现它。",
    round: "第 {n} 轮", roundOf: "第 {n} / {of} 轮", step: "第 {i}/{of} 步:{t}",
    turn: "轮到{name}", everyone: "所有玩家同时行动", moves: "{n} 步",
    refused: "✖ 被拒的一步待处理:{who}:{what} — {why}", camera_lost: "⚠ 摄像头断开",
    controller_lost: "⚠ 灯光控制器断开", offline: "⊘ 本桌离线", offlineSince: "⊘ 本桌离线(最后消息 {t})",
    ended: "✔ 游戏结束:{title}", waiting: "等待本桌的消息…", open: "打开本桌屏幕",
    missing: "⚠ 《{title}》缺 {n} 件配件", missing_one: "⚠ 《{title}》缺 1 件配件",
    short_missing: "《{title}》缺 {n} 件配件", short_missing_one: "《{title}》缺 1 件配件",
    short_refused: "被拒的一步", short_camera_lost: "摄像头断开", short_controller_lost: "灯光控制器断开",
    short_offline: "离线", short_ended: "游戏结束", sep: "、",
    unreadable: "⚠ 无法读取本桌的报告", short_unreadable: "报告无法读取",
    site: "店面:", allSites: "全部店面", noSite: "未指定店面的桌", siteCount: "{n} 张桌",
    emptySite: "这个店面还没有桌子报告。", atSite: "{site} · {name}",
    offered: "咖啡馆的盒子:{games}", offeredGame: "{title}(已录入 {n} 项)",
    box_cafe: "▣ 用咖啡馆的盒子", box_table: "用本桌自己的盒子", box_demo: "用演示盒(编造的值)",
  },
  en: {
    heading: "Tables", csv: "Download ended games (CSV)", live: "live", lost: "server lost, reconnecting…",
    connecting: "connecting…",
    brokerDown: "The MQTT broker is down. The tables play on and will report when it is back.",
    checking: "Broker back: waiting for this table to report…",
    counts: "{n} tables", countsAlert: "{n} tables, {k} need staff", needs: "Needs staff:",
    empty: "No table has reported yet. Run tablesight run --mqtt … --table NAME at a table and it appears here.",
    round: "Round {n}", roundOf: "Round {n} of {of}", step: "Step {i}/{of}: {t}",
    turn: "{name} to act", everyone: "Everyone acts at once", moves: "{n} moves",
    refused: "✖ Refused move waiting: {who}: {what} — {why}", camera_lost: "⚠ Camera lost",
    controller_lost: "⚠ LED controller lost", offline: "⊘ Table offline", offlineSince: "⊘ Table offline (last heard {t})",
    ended: "✔ Game over: {title}", waiting: "Waiting for this table's news…", open: "Open the table's screen",
    missing: "⚠ {n} pieces of {title} missing", missing_one: "⚠ 1 piece of {title} missing",
    short_missing: "{n} pieces of {title} missing", short_missing_one: "1 piece of {title} missing",
    short_refused: "refused move", short_camera_lost: "camera lost", short_controller_lost: "LED controller lost",
    short_offline: "offline", short_ended: "game over", sep: ", ",
    unreadable: "⚠ This table's report could not be read", short_unreadable: "report unreadable",
    site: "Site:", allSites: "All sites", noSite: "Tables without a site", siteCount: "{n} tables",
    emptySite: "No table of this site has reported yet.", atSite: "{site} · {name}",
    offered: "The café's box: {games}", offeredGame: "{title} ({n} copied)",
    box_cafe: "▣ The café's box", box_table: "The table's own box", box_demo: "The demo box (invented values)",
  },
};

const KEY = "tablesight.cafe.lang";
let lang = localStorage.getItem(KEY) || document.body.dataset.defaultLang || "zh";
const tables = new Map();  // by key: "<site>/<table>", or "<table>" without a site
let siteFilter = new URLSearchParams(location.search).get("site") || "";
let serverState = "connecting";
let brokerUp = true;
// The café's boxes it offers the tables ([{game, title: {zh, en}, items}]), from the page.
const offeredBoxes = (() => {
  try {
    const list = JSON.parse(document.body.dataset.boxes || "[]");
    return Array.isArray(list) ? list : [];
  } catch (e) { return []; }
})();

function t(key, params = {}) {
  const text = (WORDS[lang] || WORDS.en)[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (params[k] ?? ""));
}
function say(text) { return typeof text === "object" && text ? (text[lang] ?? text.en ?? "") : (text ?? ""); }
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
function clock(seconds) {
  const d = new Date(seconds * 1000);
  return d.toLocaleTimeString(lang === "zh" ? "zh-CN" : "en-GB", { hour: "2-digit", minute: "2-digit" });
}

// Never throws: a tile whose alerts are not a list of alerts says its report is unreadable.
function alertsOf(tile) {
  const list = [];
  if (tile.online === false) list.push({ kind: "offline" });
  const alerts = tile.state ? tile.state.alerts : [];
  if (tile.unreadable || !Array.isArray(alerts) || !alerts.every(a => a && typeof a.kind === "string" && WORDS.en[a.kind])) {
    list.push({ kind: "unreadable" });
  } else {
    list.push(...alerts);
  }
  return list;
}
function level(alerts) {
  const kinds = alerts.map(a => a.kind);
  if (kinds.includes("refused")) return "refused";
  if (kinds.includes("offline")) return "offline";
  if (kinds.includes("unreadable")) return "unreadable";
  if (kinds.some(k => k.endsWith("_lost"))) return "lost";
  if (kinds.includes("missing")) return "missing";
  if (kinds.includes("ended")) return "ended";
  return "none";
}
function alertText(a, tile) {
  if (a.kind === "refused") return t("refused", { who: say(a.who), what: say(a.what), why: say(a.why) });
  if (a.kind === "ended") return t("ended", { title: say(a.title) });
  if (a.kind === "missing") return t(a.count === 1 ? "missing_one" : "missing", { n: a.count, title: say(a.title) });
  if (a.kind === "offline") return tile.seen ? t("offlineSince", { t: clock(tile.seen) }) : t("offline");
  return t(a.kind);
}
// The alert as the list of tables needing staff says it ("T3: 2 pieces of Greenwood missing").
function shortText(a) {
  if (a.kind === "missing") return t(a.count === 1 ? "short_missing_one" : "short_missing", { n: a.count, title: say(a.title) });
  return t(`short_${a.kind}`);
}

// One tile; a tile that cannot be drawn (whatever its report holds) is drawn as unreadable,
// and every other tile stays.
function tileNode(tile) {
  try {
    if (tile.unreadable) throw new Error("unreadable");
    return drawTile(tile);
  } catch (e) {
    const name = String((tile && tile.name) || "?");
    const node = el("article", { class: "tile", "data-table": name, "data-level": "unreadable" });
    node.append(el("header", {}, el("h3", { text: name })));
    node.append(el("ul", { class: "alerts" }, el("li", { class: "alert", "data-kind": "unreadable", text: t("unreadable") })));
    return node;
  }
}

function drawTile(tile) {
  const s = tile.state;
  const alerts = alertsOf(tile);
  const node = el("article", { class: "tile", "data-table": tile.name, "data-level": level(alerts) });
  const title = el("h3");
  if (s && typeof s.url === "string" && /^https?:\/\//.test(s.url)) title.append(el("a", { href: s.url, target: "_blank", rel: "noopener", title: t("open"), text: `${tile.name} ↗` }));
  else title.textContent = tile.name;
  node.append(el("header", {}, title, s ? el("span", { class: "game", text: say(s.title) }) : null));
  if (tile.checking && tile.online !== false) node.append(el("p", { class: "checking", text: t("checking") }));
  if (!s) {
    node.append(el("p", { class: "muted", text: t("waiting") }));
  } else {
    const round = s.rounds ? t("roundOf", { n: s.round, of: s.rounds }) : t("round", { n: s.round });
    node.append(el("p", { class: "where" }, `${round} · `, el("span", { class: "phase", text: say(s.phase.title) })));
    if (s.step) node.append(el("p", { class: "step", text: t("step", { i: s.step.index, of: s.step.of, t: say(s.step.title) }) }));
    if (!s.end) {
      const turn = el("p", { class: "turn" });
      if (s.turn) {
        const player = s.players[s.turn.seat - 1];
        const dot = el("span", { class: "dot", "aria-hidden": "true" });
        if (player) dot.style.background = player.hex;
        turn.append(dot, t("turn", { name: say(s.turn.name) }));
      } else if (s.order === "simultaneous") {
        turn.textContent = t("everyone");
      } else {
        turn.textContent = say(s.next);
      }
      node.append(turn);
    }
    const players = el("ul", { class: "players" });
    for (const p of s.players || []) {
      const dot = el("span", { class: "dot", "aria-hidden": "true" });
      dot.style.background = p.hex;
      const li = el("li", {}, dot, say(p.name));
      if (p.score !== null && p.score !== undefined) li.append(" ", el("span", { class: "score", text: String(p.score) }));
      players.append(li);
    }
    node.append(players);
    // which box the game plays with: said when the café offers one (or the table has it)
    if (["cafe", "table", "demo"].includes(s.box) && (offeredBoxes.length || s.box === "cafe")) {
      node.append(el("p", { class: "box", "data-box": s.box, text: t(`box_${s.box}`) }));
    }
  }
  if (alerts.length) {
    const list = el("ul", { class: "alerts" });
    for (const a of alerts) list.append(el("li", { class: "alert", "data-kind": a.kind, text: alertText(a, tile) }));
    node.append(list);
  }
  return node;
}

function natural(a, b) { return a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" }); }
function keyOf(tile) { return String(tile.key ?? tile.name); }
function siteOf(tile) { return typeof tile.site === "string" ? tile.site : ""; }
// The tables with no site first, then site by site; each group by name (table-2 before table-10).
function byPlace(a, b) {
  const ta = tables.get(a), tb = tables.get(b);
  const sa = siteOf(ta), sb = siteOf(tb);
  if (sa !== sb) return sa === "" ? -1 : sb === "" ? 1 : natural(sa, sb);
  return natural(String(ta.name), String(tb.name));
}
function sites() { return [...new Set([...tables.values()].map(siteOf).filter(s => s))].sort(natural); }
function shownKeys() {
  return [...tables.keys()].filter(k => !siteFilter || siteOf(tables.get(k)) === siteFilter).sort(byPlace);
}
function tileKeyed(tile) {
  const node = tileNode(tile);
  node.dataset.key = keyOf(tile);
  if (siteOf(tile)) node.dataset.site = siteOf(tile);
  return node;
}

// The site picker: every site heard of (and the one in the address, even before it reports).
function drawSitePick() {
  const known = sites();
  if (siteFilter && !known.includes(siteFilter)) known.push(siteFilter);
  const pick = document.getElementById("sitepick");
  pick.hidden = known.length === 0;
  const select = document.getElementById("site");
  const options = [el("option", { value: "", text: t("allSites") })];
  for (const s of known) options.push(el("option", { value: s, text: s }));
  select.replaceChildren(...options);
  select.value = siteFilter;
}

function drawAll() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const b of document.querySelectorAll("button[data-lang]")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  const query = new URLSearchParams({ lang });
  if (siteFilter) query.set("site", siteFilter);
  document.getElementById("csv").href = `/results.csv?${query}`;
  drawSitePick();
  const offered = document.getElementById("offered");
  offered.hidden = offeredBoxes.length === 0;
  offered.textContent = offeredBoxes.length ? t("offered", {
    games: offeredBoxes.map(b => t("offeredGame", { title: say(b.title), n: b.items })).join(t("sep")),
  }) : "";
  const box = document.getElementById("tiles");
  const keys = shownKeys();
  const grouped = sites().length > 0;
  const groups = new Map();
  for (const k of keys) {
    const s = siteOf(tables.get(k));
    if (!groups.has(s)) groups.set(s, []);
    groups.get(s).push(k);
  }
  const parts = [];
  for (const [s, members] of groups) {
    const section = el("section", { class: "group", "data-site": s || null });
    if (grouped) {
      section.append(el("h2", { class: "sitename" }, s || t("noSite"),
        el("span", { class: "sitecount", text: t("siteCount", { n: members.length }) })));
    }
    section.append(el("div", { class: "tiles" }, ...members.map(k => tileKeyed(tables.get(k)))));
    parts.push(section);
  }
  box.replaceChildren(...parts);
  drawSummary(keys);
  drawConn();
}

function drawSummary(keys) {
  const needing = keys.map(k => tables.get(k)).filter(tile => alertsOf(tile).some(a => a.kind !== "ended"));
  const counts = document.getElementById("counts");
  counts.textContent = needing.length ? t("countsAlert", { n: keys.length, k: needing.length }) : t("counts", { n: keys.length });
  const empty = document.getElementById("empty");
  empty.hidden = keys.length > 0;
  empty.textContent = siteFilter && tables.size ? t("emptySite") : t("empty");
  const needs = document.getElementById("needs");
  needs.hidden = needing.length === 0;
  const list = el("ul");
  for (const tile of needing) {
    const kinds = alertsOf(tile).filter(a => a.kind !== "ended").map(shortText);
    const who = siteOf(tile) ? t("atSite", { site: siteOf(tile), name: tile.name }) : tile.name;
    list.append(el("li", { text: `${who}: ${kinds.join(t("sep"))}` }));
  }
  needs.replaceChildren(el("strong", { text: t("needs") }), list);
}

// The broker down is one banner (the tables play on); the corner says the page's own link.
function drawConn() {
  const conn = document.getElementById("conn");
  const outage = serverState === "live" && !brokerUp;
  conn.dataset.state = serverState;
  conn.hidden = outage;
  conn.textContent = serverState === "live" ? `● ${t("live")}` : t(serverState);
  const banner = document.getElementById("outage");
  banner.hidden = !outage;
  banner.textContent = outage ? `⚠ ${t("brokerDown")}` : "";
}

function updateOne(tile) {
  const isNew = !tables.has(keyOf(tile));
  tables.set(keyOf(tile), tile);
  const old = document.querySelector(`.tile[data-key="${CSS.escape(keyOf(tile))}"]`);
  if (!old || isNew) { drawAll(); return; }
  old.replaceWith(tileKeyed(tile));
  drawSummary(shownKeys());
}

function connect() {
  const source = new EventSource("/api/live");
  source.addEventListener("snapshot", (e) => {
    const data = JSON.parse(e.data);
    tables.clear();
    for (const tile of data.tables) tables.set(keyOf(tile), tile);
    brokerUp = data.broker;
    serverState = "live";
    drawAll();
  });
  source.addEventListener("table", (e) => updateOne(JSON.parse(e.data)));
  source.addEventListener("gone", (e) => { tables.delete(JSON.parse(e.data).name); drawAll(); });
  source.addEventListener("broker", (e) => { brokerUp = JSON.parse(e.data).broker; drawConn(); });
  source.onerror = () => {
    serverState = "lost";
    drawConn();
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("button[data-lang]")) {
    b.addEventListener("click", () => { lang = b.dataset.lang; localStorage.setItem(KEY, lang); drawAll(); });
  }
  document.getElementById("site").addEventListener("change", (e) => {
    siteFilter = e.target.value;
    const url = new URL(location.href);
    if (siteFilter) url.searchParams.set("site", siteFilter); else url.searchParams.delete("site");
    history.replaceState(null, "", url);
    drawAll();
  });
  drawAll();
  connect();
});

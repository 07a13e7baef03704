// The "Your box" page (kiosk/routers/box.py): each kind of printed item and how much of it is
// the owner's; copying a submarine board by looking at the camera's straightened picture of it
// and touching its cells, or a piece by laying it on a board and touching the cells it covers.
// The item being copied is kept by the server after every touch (a power cut loses nothing)
// and used by no game until "Save as mine".
"use strict";

const $ = (id) => document.getElementById(id);
const AREA_COLOURS = ["#ffc24a", "#ff7bd5", "#7cf0ff", "#b2ff6b", "#ff9f5a", "#c7a6ff"];
let shown = null; // GET /api/box: the games, the chosen game's kinds and progress, its draft
let look = null; // GET /api/box/{game}/look: the camera's board, frozen while copying
let copying = null; // {how, item, value, touches, undo}
let tool = null; // "unusable" | "start" | "join" | "erase" | "icon:<reward>" | "area[:<reward>]" | "diagonal[:<reward>]"
let corner = null; // an area's first corner
let said = ""; // the copier's last line (saved, failed…)
let form = null; // GET /api/box/{game}/form: the fields a card is copied by

const params = new URLSearchParams(location.search);
let game = params.get("game");

function kindLabel(kind) {
  return (shown.kinds.find((k) => k.kind === kind) || {}).label || "";
}

function howOf(item) {
  const kind = item.split("/").slice(0, 2).join("/");
  return (shown.kinds.find((k) => k.kind === kind) || {}).how || null;
}

async function load() {
  const query = new URLSearchParams({ lang: Kiosk.lang });
  if (game) query.set("game", game);
  const answer = await fetch(`/api/box?${query}`);
  if (!answer.ok) return;
  shown = await answer.json();
  game = shown.game;
  if (shown.draft && !copying) {
    const d = shown.draft;
    copying = { how: howOf(d.item), item: d.item, value: d.value, touches: d.touches, undo: d.undo };
    if (copying.how === "card") form = await (await fetch(`/api/box/${game}/form?kind=${encodeURIComponent(d.item)}&lang=${Kiosk.lang}`)).json();
    else await takeLook(false);
  }
  draw();
}

async function takeLook(start) {
  look = { state: "waiting" };
  draw();
  for (let tries = 0; tries < 20; tries += 1) {
    const answer = await fetch(`/api/box/${game}/look?lang=${Kiosk.lang}`);
    if (!answer.ok) { look = null; break; }
    look = await answer.json();
    if (look.state !== "waiting") break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (start && look && (look.state === "board" || look.state === "tiles")) begin();
  draw();
}

function begin() {
  if (wanted === "board") {
    const mine = look.owner && look.value ? structuredClone(look.value) : null;
    const blank = { cols: look.grid.cols, rows: look.grid.rows, start: null, unusable: [], rewards: [], areas: [] };
    const value = mine ? { cols: mine.cols, rows: mine.rows, start: mine.start, unusable: mine.unusable, rewards: mine.rewards, areas: mine.areas } : blank;
    copying = { how: "board", item: look.item, value, touches: 0, undo: [] };
  } else if (wanted === "layout") {
    if (!look.layout) { copying = null; return; }
    copying = { how: "layout", item: wantedKind, value: structuredClone(look.layout), touches: 0, undo: [] };
  } else if (wanted === "tiles") {
    copying = { how: "tiles", item: "tiles/biomes", value: { biomes: [...look.all], copied: [] }, touches: 0, undo: [] };
  } else if (wanted === "piece") {
    const piece = look.pieces.find((p) => !p.askew);
    if (!piece) { copying = null; return; }
    copying = { how: "piece", item: piece.item, value: { covered: [piece.cell], tag_cell: piece.cell, quarter: piece.quarter }, touches: 0, undo: [] };
  }
  tool = null;
  corner = null;
  said = "";
}

let wanted = null; // the kind's "how" the owner chose to copy
let wantedKind = null; // and the kind itself

// --- touches ---------------------------------------------------------------------------------

// Each touch's draft is sent after the one before it has been kept, so an older one never
// lands after a newer one.
let keeping = Promise.resolve();
function keepDraft() {
  const { item, value, touches, undo } = copying;
  const body = structuredClone({ item, value, touches, undo: undo.slice(-200) });
  const path = `/api/box/${game}/draft`;
  keeping = keeping.then(() => send("PUT", path, body)).catch(() => null);
}

// A change sent as the kiosk's own screen, or with this phone's pairing code (common.js).
async function send(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const code = localStorage.getItem("pairing");
  if (code) headers["X-Pairing-Code"] = code;
  const init = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  return fetch(path, init);
}

function touch(change) {
  if (!copying) return;
  copying.touches += 1;
  if (change) {
    copying.undo.push(structuredClone(copying.value));
    change(copying.value);
  }
  said = "";
  keepDraft();
  draw();
}

const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const has = (cells, cell) => cells.some((c) => same(c, cell));
const without = (cells, cell) => cells.filter((c) => !same(c, cell));

function rectangleCells(a, b) {
  const cells = [];
  for (let r = Math.min(a[1], b[1]); r <= Math.max(a[1], b[1]); r += 1) {
    for (let c = Math.min(a[0], b[0]); c <= Math.max(a[0], b[0]); c += 1) cells.push([c, r]);
  }
  return cells;
}

// The cells from one end of a diagonal to the other, or null when they are not on one.
function diagonalCells(a, b) {
  const dc = b[0] - a[0];
  const dr = b[1] - a[1];
  if (dc === 0 || Math.abs(dc) !== Math.abs(dr)) return null;
  const cells = [];
  for (let i = 0; i <= Math.abs(dc); i += 1) cells.push([a[0] + i * Math.sign(dc), a[1] + i * Math.sign(dr)]);
  return cells;
}

function areaName(cells, value) {
  const cols = new Set(cells.map((c) => c[0]));
  const rows = new Set(cells.map((c) => c[1]));
  if (cols.size === 1 && rows.size === value.rows) return `column ${cells[0][0] + 1}`;
  if (cols.size === cells.length && rows.size === cells.length && cells.length === value.rows) return "diagonal";
  return `area ${value.areas.length + 1}`;
}

function onCell(cell) {
  if (!copying) return;
  if (copying.how === "piece") {
    if (same(cell, copying.value.tag_cell)) { touch(null); return; }
    touch((v) => { v.covered = has(v.covered, cell) ? without(v.covered, cell) : [...v.covered, cell]; });
    return;
  }
  if (!tool) { touch(null); said = Kiosk.t("boxIcons"); draw(); return; }
  if (tool === "unusable") {
    touch((v) => {
      v.unusable = has(v.unusable, cell) ? without(v.unusable, cell) : [...v.unusable, cell];
      if (same(v.start, cell)) v.start = null;
    });
  } else if (tool === "start") {
    touch((v) => { v.start = cell; v.unusable = without(v.unusable, cell); });
  } else if (tool === "erase") {
    touch((v) => {
      v.unusable = without(v.unusable, cell);
      if (same(v.start, cell)) v.start = null;
      v.rewards = v.rewards.filter((r) => !has(r.cells, cell));
      v.areas = v.areas.filter((a) => !has(a.cells, cell));
    });
  } else if (tool === "join") {
    touch((v) => {
      const last = v.rewards[v.rewards.length - 1];
      if (last && !has(last.cells, cell)) last.cells.push(cell);
    });
    const last = copying.value.rewards[copying.value.rewards.length - 1];
    if (last) tool = `icon:${last.reward}`;
  } else if (tool.startsWith("icon:")) {
    const reward = tool.slice(5);
    touch((v) => { v.rewards.push({ cells: [cell], reward }); });
  } else if (tool.startsWith("area:") || tool.startsWith("diagonal:")) {
    if (!corner) { corner = cell; touch(null); return; }
    const [shape, reward] = [tool.split(":")[0], tool.slice(tool.indexOf(":") + 1)];
    const first = corner;
    corner = null;
    const cells = shape === "diagonal" ? diagonalCells(first, cell) : rectangleCells(first, cell);
    if (!cells) { said = Kiosk.t("boxNotDiagonal"); touch(null); return; }
    touch((v) => { v.areas.push({ name: areaName(cells, v), cells, reward }); });
  } else {
    touch(null);
  }
}

function pick(next) {
  tool = next;
  corner = null;
  touch(null);
}

async function save() {
  if (!copying) return;
  copying.touches += 1;
  if (copying.how === "board" && !copying.value.start) {
    said = Kiosk.t("boxNeedStart");
    keepDraft();
    draw();
    return;
  }
  const body = { item: copying.item, value: copying.value };
  await keeping;
  const answer = await Kiosk.post(`/api/box/${game}/keep?lang=${Kiosk.lang}`, body);
  if (!answer.ok) {
    const problems = (answer.detail && answer.detail.problems) || [Kiosk.describe(answer.detail)];
    said = `${Kiosk.t("boxSaveFailed")} ${problems.join("; ")}`;
    keepDraft();
    draw();
    return;
  }
  said = Kiosk.t("boxSaved", { what: titleOf(), n: copying.touches });
  copying = null;
  tool = null;
  await load();
}

async function giveUp() {
  await keeping;
  await send("DELETE", `/api/box/${game}/draft`);
  copying = null;
  said = "";
  await load();
}

function undo() {
  if (!copying || !copying.undo.length) return;
  copying.touches += 1;
  copying.value = copying.undo.pop();
  corner = null;
  keepDraft();
  draw();
}

async function openForm(kind) {
  const answer = await fetch(`/api/box/${game}/form?kind=${encodeURIComponent(kind)}&lang=${Kiosk.lang}`);
  if (!answer.ok) return;
  form = await answer.json();
  const value = { title: "" };
  for (const f of form.fields) value[f.name] = f.kind === "number" ? f.default : (f.choices[0] || {}).value;
  copying = { how: "card", item: kind, value, touches: 0, undo: [] };
  draw();
}

const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function drawForm() {
  const v = copying.value;
  const rows = form.fields.map((f) => {
    const row = Kiosk.el("div", { class: "form-row", "data-field": f.name }, Kiosk.el("span", { class: "form-label", text: f.label }));
    if (f.kind === "number") {
      const minus = Kiosk.el("button", { type: "button", text: "−", "data-step": "-1" });
      const plus = Kiosk.el("button", { type: "button", text: "+", "data-step": "1" });
      minus.disabled = v[f.name] <= f.low;
      plus.disabled = v[f.name] >= f.high;
      minus.addEventListener("click", () => touch((x) => { x[f.name] = Math.max(f.low, x[f.name] - 1); }));
      plus.addEventListener("click", () => touch((x) => { x[f.name] = Math.min(f.high, x[f.name] + 1); }));
      row.append(minus, Kiosk.el("span", { class: "number", text: String(v[f.name]) }), plus);
    } else {
      for (const c of f.choices) {
        const b = Kiosk.el("button", { type: "button", text: c.label, "data-value": JSON.stringify(c.value), "aria-pressed": String(sameValue(v[f.name], c.value)) });
        b.addEventListener("click", () => touch((x) => { x[f.name] = c.value; }));
        row.append(b);
      }
    }
    return row;
  });
  const title = Kiosk.el("input", { id: "box-card-title", "data-keyboard": "title", autocomplete: "off", value: v.title || "" });
  title.addEventListener("input", () => touch((x) => { x.title = title.value; }));
  const titleRow = Kiosk.el("div", { class: "form-row" }, Kiosk.el("label", { class: "form-label", for: "box-card-title", text: Kiosk.t("boxCardTitle") }), title);
  // Numbers side by side (each side of the storm icon a column; the losses a row), the
  // choices a row each.
  const numbers = rows.filter((r) => r.querySelector("[data-step]"));
  const counts = numbers.filter((r) => /^(left|right)_/.test(r.dataset.field));
  const losses = numbers.filter((r) => !counts.includes(r));
  const choices = rows.filter((r) => !numbers.includes(r));
  $("box-form").replaceChildren(...choices.slice(0, 1),
    Kiosk.el("div", { class: "form-grid" }, ...counts),
    Kiosk.el("div", { class: "form-grid form-row3" }, ...losses),
    ...choices.slice(1), ...(form.titled ? [titleRow] : []));
}

function drawTiles() {
  const v = copying.value;
  const cards = look.tiles.map((t) => {
    const copied = v.copied.includes(t.number);
    const buttons = look.biomes.map((b) => {
      const button = Kiosk.el("button", { type: "button", text: b.name, "data-biome": b.biome, "aria-pressed": String(copied && v.biomes[t.number - 1] === b.biome) });
      button.addEventListener("click", () => touch((x) => {
        x.biomes[t.number - 1] = b.biome;
        if (!x.copied.includes(t.number)) x.copied.push(t.number);
      }));
      return button;
    });
    return Kiosk.el("div", { class: "box-tile", "data-tile": String(t.number), "data-copied": String(copied) },
      Kiosk.el("h3", { text: Kiosk.t("boxTileN", { n: t.number }) }),
      Kiosk.el("img", { src: t.picture || "", alt: Kiosk.t("boxTileN", { n: t.number }) }),
      Kiosk.el("div", { class: "row" }, ...buttons));
  });
  $("box-form").replaceChildren(
    Kiosk.el("p", { class: "box-say", text: Kiosk.t("boxTilesSay", { n: v.copied.length, of: v.biomes.length }) }),
    Kiosk.el("div", { class: "box-tiles" }, ...cards));
}

function drawLayout() {
  const v = copying.value;
  const places = [{ name: Kiosk.t("boxPortal"), x: v.portal.x, y: v.portal.y, portal: true }, ...v.slots];
  const cols = Math.max(...places.map((p) => p.x)) + 2;
  const rows = Math.max(...places.map((p) => p.y)) + 2;
  const map = Kiosk.el("div", { class: "box-map" });
  map.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  map.style.gridTemplateRows = `repeat(${rows}, 1fr)`;
  map.style.aspectRatio = `${cols} / ${rows}`;
  for (const p of places) {
    const biome = p.portal ? "" : (look.biomes.find((b) => b.biome === look.all[p.tile - 1]) || {}).name || "";
    const tile = Kiosk.el("div", { class: "map-place", "data-slot": p.portal ? "portal" : p.name },
      Kiosk.el("strong", { text: p.name }), Kiosk.el("span", { text: biome }));
    tile.style.gridColumn = `${p.x + 1} / span 2`;
    tile.style.gridRow = `${p.y + 1} / span 2`;
    map.append(tile);
  }
  const counts = Object.entries(v.biomes).map(([b, n]) => `${(look.biomes.find((x) => x.biome === b) || {}).name || b} ${n}`).join(" · ");
  const lines = [Kiosk.el("p", { class: "box-say", text: Kiosk.t("boxLayoutSay", { n: v.slots.length, biomes: counts }) })];
  if (look.layout && look.layout.off_grid.length) lines.push(Kiosk.el("p", { class: "box-hint", text: Kiosk.t("boxOffGrid", { tiles: look.layout.off_grid.join(", ") }) }));
  $("box-form").replaceChildren(...lines, map);
}

// --- drawing ---------------------------------------------------------------------------------

function titleOf() {
  if (copying && copying.how === "card") return form ? form.label : "";
  if (copying && copying.how === "layout") return Kiosk.t("boxLayoutTitle", { what: kindLabel(copying.item) });
  if (copying && copying.how === "tiles") return Kiosk.t("boxTilesTitle");
  if (!copying || !look || look.state !== "board") return "";
  if (copying.how === "piece") {
    const piece = look.pieces.find((p) => p.item === copying.item);
    return Kiosk.t("boxPieceTitle", { piece: piece ? piece.name : "" });
  }
  return Kiosk.t("boxBoardTitle", { board: look.board, n: look.layout });
}

function rewardIcon(reward) {
  const found = look && look.rewards ? look.rewards.find((r) => r.reward === reward) : null;
  return found ? found.icon : "?";
}

function rewardName(reward) {
  const found = look && look.rewards ? look.rewards.find((r) => r.reward === reward) : null;
  return found ? found.name || found.icon : "";
}

function drawSide() {
  $("box-games").replaceChildren(...shown.games.map((g) => {
    const b = Kiosk.el("button", { type: "button", text: g.title, "data-game": g.name, "aria-pressed": String(g.name === game) });
    b.addEventListener("click", () => { game = g.name; copying = null; look = null; wanted = null; wantedKind = null; said = ""; load(); });
    return b;
  }));
  $("box-line").textContent = shown.line;
  $("box-next").textContent = shown.next;
  $("box-kinds").dataset.game = game;
  // the kinds this page copies first, those a box file brings after them (each in the box's order)
  const kinds = [...shown.kinds.filter((k) => k.how), ...shown.kinds.filter((k) => !k.how)];
  $("box-kinds").replaceChildren(...kinds.map((k) => {
    const li = Kiosk.el("li", { "data-kind": k.kind, "data-done": String(k.mine === k.total) },
      Kiosk.el("span", { class: "kind-name", text: k.label }),
      Kiosk.el("span", { class: "kind-count", text: Kiosk.t("boxCount", { mine: k.mine, total: k.total }) }));
    if (k.how) {
      const b = Kiosk.el("button", { type: "button", text: Kiosk.t("boxCopy"), "data-how": k.how, "aria-pressed": String(wanted !== null && wantedKind === k.kind) });
      b.addEventListener("click", async () => {
        wanted = k.how;
        wantedKind = k.kind;
        copying = null;
        said = "";
        if (k.how === "card") await openForm(k.kind);
        else await takeLook(true);
      });
      li.append(b);
    } else {
      li.append(Kiosk.el("span", { class: "kind-how", text: Kiosk.t("boxByFile") }));
    }
    return li;
  }));
  $("box-export").href = `/api/box/${game}/export.zip`;
}

function drawCells() {
  const grid = look.grid;
  const [w, h] = look.size;
  const cells = [];
  const v = copying.value;
  for (let r = 0; r < grid.rows; r += 1) {
    for (let c = 0; c < grid.cols; c += 1) {
      const cell = [c, r];
      const b = Kiosk.el("button", { type: "button", class: "cell", "data-cell": `${c},${r}` });
      b.style.left = `${((grid.origin[0] + c * grid.cell[0]) / w) * 100}%`;
      b.style.top = `${((grid.origin[1] + r * grid.cell[1]) / h) * 100}%`;
      b.style.width = `${(grid.cell[0] / w) * 100}%`;
      b.style.height = `${(grid.cell[1] / h) * 100}%`;
      if (copying.how === "piece") {
        b.dataset.covered = String(has(v.covered, cell));
        b.dataset.tag = String(same(v.tag_cell, cell));
      } else {
        b.dataset.unusable = String(has(v.unusable, cell));
        b.dataset.start = String(same(v.start, cell));
        b.dataset.corner = String(same(corner, cell));
        const icons = v.rewards.filter((x) => has(x.cells, cell)).map((x) => rewardIcon(x.reward));
        const marks = [...(same(v.start, cell) ? ["▶"] : []), ...(has(v.unusable, cell) ? ["✕"] : []), ...icons];
        b.textContent = marks.join(" ");
        v.areas.forEach((a, i) => {
          if (!has(a.cells, cell)) return;
          const ring = Kiosk.el("span", { class: "area" });
          ring.style.setProperty("--area", AREA_COLOURS[i % AREA_COLOURS.length]);
          ring.style.inset = `${3 + i * 6}px`;
          b.append(ring);
        });
      }
      b.addEventListener("click", () => onCell(cell));
      cells.push(b);
    }
  }
  $("box-cells").replaceChildren(...cells);
}

function toolButton(key, label, title) {
  const b = Kiosk.el("button", { type: "button", text: label, "data-tool": key, "aria-pressed": String(tool === key) });
  if (title) b.title = title;
  b.addEventListener("click", () => pick(key));
  return b;
}

function drawTools() {
  const box = $("box-tools");
  if (copying.how === "piece") { box.replaceChildren(); return; }
  const rewards = look.rewards || [];
  const shape = tool ? tool.split(":")[0] : "";
  const areaMode = shape === "area" || shape === "diagonal";
  const button = (r) => toolButton(areaMode ? `${shape}:${r.reward}` : `icon:${r.reward}`, r.name ? `${r.icon} ${r.name}` : r.icon, r.name || r.icon);
  const areas = copying.value.areas.map((a, i) => {
    const li = Kiosk.el("li", { text: Kiosk.t("boxAreaLine", { n: i + 1, cells: a.cells.length, reward: rewardName(a.reward) }) });
    li.style.setProperty("--area", AREA_COLOURS[i % AREA_COLOURS.length]);
    return li;
  });
  box.replaceChildren(
    Kiosk.el("div", { class: "row" },
      toolButton("unusable", `✕ ${Kiosk.t("boxToolUnusable")}`),
      toolButton("start", `▶ ${Kiosk.t("boxToolStart")}`),
      toolButton("erase", Kiosk.t("boxToolErase"))),
    Kiosk.el("h3", { text: areaMode ? Kiosk.t("boxAreaReward") : Kiosk.t("boxIcons") }),
    Kiosk.el("div", { class: "row points" }, ...rewards.filter((r) => !r.name).map(button)),
    Kiosk.el("div", { class: "icons" }, ...rewards.filter((r) => r.name).map(button)),
    Kiosk.el("div", { class: "row" },
      toolButton("join", Kiosk.t("boxToolJoin")),
      toolButton("area", Kiosk.t("boxToolArea")),
      toolButton("diagonal", Kiosk.t("boxToolDiagonal"))),
    Kiosk.el("ul", { class: "areas" }, ...areas),
  );
}

function draw() {
  Kiosk.translateStatic();
  if (!shown) return;
  drawSide();
  const work = $("box-work");
  let say = said;
  if (!copying) {
    work.hidden = true;
    if (!say) {
      if (!wanted) say = Kiosk.t(shown.kinds.some((k) => k.how) ? "boxPick" : "boxOnlyFile");
      else if (!look || look.state === "waiting") say = Kiosk.t("boxWaiting");
      else if (look.state === "no_board") say = Kiosk.t("boxNoBoard");
      else if (look.state === "no_tile") say = Kiosk.t("boxNoTile");
      else if (wanted === "layout" && !look.layout) say = Kiosk.t("boxNoPortal");
      else if (wanted === "piece") say = look.pieces.some((p) => p.askew) ? Kiosk.t("boxAskew") : Kiosk.t("boxNoPiece");
    }
    const line = $("box-say");
    const shows = line.firstChild ? line.firstChild.textContent : "";
    const has = line.querySelector("button");
    // drawn again only when it changes: a "Take again" made anew at every poll could be
    // replaced under a finger in the middle of a touch
    if (shows === say && !!has === !!wanted && (!has || has.textContent === Kiosk.t("boxRetake"))) return;
    line.textContent = say;
    const retake = Kiosk.el("button", { type: "button", text: Kiosk.t("boxRetake") });
    retake.addEventListener("click", () => takeLook(true));
    if (wanted) line.append(" ", retake);
    return;
  }
  $("box-say").textContent = "";
  work.dataset.how = copying.how;
  if (copying.how === "card" || (["tiles", "layout"].includes(copying.how) && look && look.state === "tiles")) {
    work.hidden = false;
    $("box-title").textContent = titleOf();
    $("box-touches").textContent = Kiosk.t("boxTouches", { n: copying.touches });
    $("box-touches").dataset.touches = String(copying.touches);
    if (copying.how === "card") drawForm();
    else if (copying.how === "layout") drawLayout();
    else drawTiles();
    $("box-hint").textContent = said;
    $("box-undo").disabled = !copying.undo.length;
    return;
  }
  if (!look || look.state !== "board") {
    work.hidden = true;
    $("box-say").textContent = Kiosk.t("boxDraftOf", { what: copying.item }) + " " + Kiosk.t("boxNoBoard");
    return;
  }
  work.hidden = false;
  $("box-title").textContent = titleOf();
  $("box-touches").textContent = Kiosk.t("boxTouches", { n: copying.touches });
  $("box-touches").dataset.touches = String(copying.touches);
  $("box-image").src = look.picture;
  $("box-image").alt = titleOf();
  $("box-picture").style.setProperty("--ratio", `${look.size[0]} / ${look.size[1]}`);
  $("box-picture").style.setProperty("--ratio-number", String(look.size[0] / look.size[1]));
  drawCells();
  drawTools();
  let hint = said;
  if (!hint && corner) hint = Kiosk.t("boxSecondCorner");
  if (!hint && copying.how === "board" && !copying.value.start) hint = Kiosk.t("boxNeedStart");
  $("box-hint").textContent = hint;
  $("box-undo").disabled = !copying.undo.length;
}

async function upload(file) {
  const headers = { "Content-Type": "application/zip" };
  const code = localStorage.getItem("pairing");
  if (code) headers["X-Pairing-Code"] = code;
  const answer = await fetch(`/api/box/${game}/import?lang=${Kiosk.lang}`, { method: "POST", headers, body: file });
  const data = await answer.json().catch(() => ({}));
  if (answer.ok) {
    $("box-file-line").textContent = Kiosk.t("boxImported", { n: data.took });
    await load();
  } else {
    const problems = answer.status === 413 ? [Kiosk.t("boxTooLarge")]
      : (data.detail && data.detail.problems) || [Kiosk.describe(data.detail)];
    $("box-file-line").textContent = `${Kiosk.t("boxImportFailed")} ${problems.join("; ")}`;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  Kiosk.translateStatic(); // the page's own words (the download link's) before its data comes
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", async () => {
      Kiosk.setLang(b.dataset.lang);
      await load();
      if (look && look.state === "board") await refreshLook();
      draw();
    });
  }
  $("box-save").addEventListener("click", save);
  $("box-undo").addEventListener("click", undo);
  $("box-giveup").addEventListener("click", giveUp);
  $("box-retake").addEventListener("click", () => refreshLook());
  $("box-upload").addEventListener("change", (e) => { if (e.target.files[0]) upload(e.target.files[0]); e.target.value = ""; });
  load();
});

// A new picture of the same board while copying: the marks stay, the picture is the camera's now.
async function refreshLook() {
  const answer = await fetch(`/api/box/${game}/look?lang=${Kiosk.lang}`);
  if (answer.ok) {
    const fresh = await answer.json();
    if (fresh.state === "board" || fresh.state === "tiles") look = fresh;
    if (copying && copying.how === "layout" && look.layout) {
      const laid = structuredClone(look.layout);
      touch((v) => Object.assign(v, laid));
      return;
    }
  }
  if (copying) touch(null);
  else draw();
}

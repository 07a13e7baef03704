// The board, drawn from status.picture (engine Game.picture, docs/engine.md "Pictures"):
// one small SVG per board (a submarine, the map, the valley), cells filled by their kind,
// each placed piece outlined, figures as coloured discs, marks outlined over the cells.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const U = 10; // one cell in SVG units

const Board = {
  node(tag, attrs = {}, text = null) {
    const n = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text != null) n.textContent = text;
    return n;
  },

  render(picture, seats, target) {
    const boards = picture?.boards || [];
    target.hidden = !boards.length;
    if (!boards.length) { target.replaceChildren(); return; }
    // One board (a map, a valley): its notes beside it, over the legend, so that the drawing
    // takes the whole height; side-by-side boards each keep theirs under it.
    const single = boards.length === 1;
    const beside = single;
    const noted = beside ? 0 : Math.max(0, ...boards.map((b) => (b.notes || []).length)); // lines each keeps
    const row = Kiosk.el("div", { class: "boards" }, ...boards.map((b) => Board.panel(b, seats, noted)));
    const side = Kiosk.el("div", { class: "board-side" });
    if (beside && (boards[0].notes || []).length) {
      side.append(Kiosk.el("ul", { class: "board-note" }, ...boards[0].notes.map((n) => Kiosk.el("li", { text: n }))));
    }
    // The figures on one line of the legend ("① Ash ② Birch"), then a line per kind or symbol.
    const legend = picture.legend || [];
    const figures = legend.filter((l) => l.kind === "token");
    const lines = legend.filter((l) => l.kind !== "token").map((l) => Board.entry(l, seats));
    if (figures.length) {
      lines.unshift(Kiosk.el("li", { class: "figures" }, ...figures.map((l) => Kiosk.el(
        "span", { class: "figure" }, ...Board.entry(l, seats).childNodes))));
    }
    if (lines.length) side.append(Kiosk.el("ul", { class: "board-legend" }, ...lines));
    target.replaceChildren(row, side);
    // Sized by Board.fit, which the page calls once every panel around the board is drawn.
    if (!Board.fitted) { // once: a new window size, or a font that arrives late, fits it again
      Board.fitted = true;
      window.addEventListener("resize", () => Board.fit(target));
      // a symbol's font may load after the fit measured its fallback's width (a legend cut)
      document.fonts.addEventListener("loadingdone", () => Board.fit(target));
    }
  },

  // Each board's drawing as large as the panel allows (its cells and texts read from the
  // chairs), with every note, title and legend line whole. The notes and legend go beside
  // the drawing, or the notes beside and the legend under it, or both under it: whichever
  // keeps every word whole and the smallest text of the drawing readable (20 px tall at
  // 1920×1080, 16 px at 1280×720, issue 24) with the largest drawing (a wide valley takes
  // the width, a map the height); failing that, the one readable, then the largest.
  fit(target) {
    const panels = [...target.querySelectorAll(".board-panel")];
    if (!panels.length || target.hidden) return;
    const side = target.querySelector(".board-side");
    const notes = side?.querySelector(".board-note");
    const legend = side?.querySelector(".board-legend");
    const parts = [target, ...target.querySelectorAll(".board-side, .board-note, figcaption, .board-legend, .board-legend li")];
    const cut = () => parts.some((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    // The notes' and legend's share of the width, smallest first: in each arrangement the
    // first share that keeps every word whole leaves the drawing its largest.
    const shares = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
    const tries = [];
    if (notes || legend) tries.push(["beside", shares], ["under", [0]]);
    else tries.push(["beside", [0]]);
    if (notes && legend) tries.push(["split", shares]);
    const least = innerWidth >= 1920 ? 20 : 16 * Math.min(1, innerWidth / 1280);
    const texts = [...target.querySelectorAll("svg text")];
    const rank = (c) => [c.whole && c.readable, c.readable, c.whole, c.scale];
    const better = (a, b) => {
      const x = rank(a); const y = rank(b);
      const i = x.findIndex((v, k) => v !== y[k]);
      return i >= 0 && x[i] > y[i];
    };
    let best = null;
    for (const [place, keep] of tries) {
      for (const share of keep) {
        const scale = Board.size(target, panels, place, share);
        const readable = texts.every((t) => Board.readable(t, least));
        const tried = { place, share, scale, whole: !cut(), readable };
        if (!best || better(tried, best)) best = tried;
        if (tried.whole) break;
      }
    }
    Board.size(target, panels, best.place, best.share);
  },

  // A text of the drawing read from the chairs: at least `least` px tall, and under 1920 px
  // wide its type as drawn (its font size times the drawing's scale) too, as a sweep of the
  // screen measures it (issue 38: 13.2 px at 1280×720 passed as 16 px tall).
  readable(t, least) {
    if (t.getBoundingClientRect().height < least) return false;
    if (innerWidth >= 1920) return true;
    return parseFloat(t.getAttribute("font-size")) * t.ownerSVGElement.getScreenCTM().a >= least - 0.05;
  },

  // The drawings sized for one arrangement of the notes and legend: "beside" (both, in share
  // of the width), "split" (the notes beside in share of the width, the legend under) or
  // "under" (both); the scale the drawings get.
  size(target, panels, place, share) {
    target.dataset.side = place;
    const css = getComputedStyle(target);
    const px = (name) => parseFloat(css[name]) || 0;
    const width = target.clientWidth - px("paddingLeft") - px("paddingRight");
    let height = target.clientHeight - px("paddingTop") - px("paddingBottom");
    const gap = px("columnGap");
    const side = target.querySelector(".board-side");
    const under = place === "under" ? side : place === "split" ? side.querySelector(".board-legend") : null;
    if (under) height -= under.offsetHeight + px("rowGap");
    const keep = place === "under" || !side?.childElementCount ? 0 : Math.max(width * share, 160);
    const across = (width - keep - gap * (panels.length - (keep ? 0 : 1))) / panels.length;
    let least = Infinity;
    for (let pass = 0; pass < 2; pass++) { // a caption may wrap differently once sized
      for (const panel of panels) {
        const svg = panel.querySelector("svg");
        const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
        const others = [...panel.children].filter((c) => c !== svg).reduce((t, c) => t + c.offsetHeight, 0);
        const scale = Math.max(0, Math.min(across / w, (height - others - 2) / h));
        svg.style.width = `${Math.floor(w * scale)}px`;
        svg.style.height = `${Math.floor(h * scale)}px`;
        panel.style.maxWidth = `${Math.floor(across)}px`; // its title and notes wrap there
        if (pass) least = Math.min(least, scale);
      }
    }
    return least;
  },

  // One line of the legend: the swatch of a kind or mark (one per seat in the seat's colour
  // when the entry names seats), a symbol the cells draw, or a figure's disc; then its words.
  entry(l, seats) {
    let marks;
    if (l.icon != null) {
      marks = [Kiosk.el("span", { class: `swatch icon k-${l.kind}`, "aria-hidden": "true", text: l.icon })];
    } else if (l.kind === "token") {
      const disc = Kiosk.el("span", { class: "swatch disc", "aria-hidden": "true", text: l.token });
      const hex = Board.colour(seats, l.seat);
      if (hex) disc.style.background = hex;
      marks = [disc];
    } else if (Array.isArray(l.seats) && l.seats.length) {
      marks = l.seats.map((seat) => {
        const swatch = Kiosk.el("span", { class: `swatch k-${l.kind}`, "aria-hidden": "true" });
        const hex = Board.colour(seats, seat);
        if (hex) swatch.style.background = hex;
        return swatch;
      });
    } else {
      marks = [Kiosk.el("span", { class: `swatch k-${l.kind} m-${l.kind}`, "aria-hidden": "true" })];
    }
    return Kiosk.el("li", {}, Kiosk.el("span", { class: "swatches" }, ...marks), l.text);
  },

  colour(seats, seat) {
    return seat == null ? null : (seats || []).find((s) => s.seat === seat)?.hex || null;
  },

  panel(b, seats, noted = false) {
    const hex = Board.colour(seats, b.seat);
    const svg = Board.node("svg", {
      viewBox: `-1 -1 ${b.cols * U + 2} ${b.rows * U + 2}`, role: "img", "aria-label": b.title,
      preserveAspectRatio: "xMidYMid meet",
    });
    const taken = new Map();
    const late = [];
    for (const c of b.cells || []) {
      const g = Board.node("g", { class: `cell k-${c.kind}`, "data-col": c.col, "data-row": c.row });
      const rect = Board.node("rect", { x: c.col * U + 0.4, y: c.row * U + 0.4, width: U - 0.8, height: U - 0.8, rx: 1 });
      g.append(rect);
      // A text across cells goes over the cells after it (drawn once they are).
      if (c.text && (c.span || 1) > 1) late.push(Board.label(c.col, c.row, c.text, c.span));
      else if (c.text) g.append(Board.label(c.col, c.row, c.text));
      svg.append(g);
      if (c.group) {
        if (!taken.has(c.group)) taken.set(c.group, new Set());
        taken.get(c.group).add(`${c.col},${c.row}`);
      }
    }
    svg.append(...late);
    for (const cells of taken.values()) svg.append(Board.outline(cells, "group"));
    for (const m of b.marks || []) {
      svg.append(Board.node("rect", {
        class: `mark m-${m.kind}`, x: m.col * U + 0.9, y: m.row * U + 0.9, width: U - 1.8, height: U - 1.8, rx: 1,
        "data-col": m.col, "data-row": m.row,
      }));
    }
    const here = new Map();
    for (const t of b.tokens || []) {
      const key = `${t.col},${t.row}`;
      const k = here.get(key) || 0;
      here.set(key, k + 1);
      const dx = k ? (k % 2 ? 2.2 : -2.2) : 0;
      const cx = t.col * U + U / 2 + dx;
      const cy = t.row * U + U / 2 + (k ? 2.2 : 0);
      const g = Board.node("g", { class: "token", "data-seat": t.seat ?? "" });
      g.append(Board.node("circle", { cx, cy, r: 4.5, fill: Board.colour(seats, t.seat) || "#eef2f5" }));
      g.append(Board.node("text", { x: cx, y: cy, class: "token-text", "font-size": Math.min(7, 8 / Board.ems(t.text)) }, t.text));
      svg.append(g);
    }
    const caption = Kiosk.el("figcaption", { text: b.title });
    if (hex) caption.style.setProperty("--seat", hex);
    const figure = Kiosk.el("figure", { class: "board-panel", "data-seat": b.seat ?? "" }, caption, svg);
    if (hex) figure.style.setProperty("--seat", hex);
    // One note a line, never cut; every board keeps as many lines as the most noted one, so
    // that side-by-side boards are drawn at one size.
    if (noted) {
      const list = Kiosk.el("ul", { class: "board-note" }, ...(b.notes || []).map((n) => Kiosk.el("li", { text: n })));
      list.style.minHeight = `${noted * 1.25}em`;
      figure.append(list);
    }
    return figure;
  },

  // A cell's text as large as the cell allows: a CJK character is about one em wide, a Latin
  // letter or digit about 0.6 em.
  ems(text) {
    return Math.max(1, [...text].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? 1 : 0.62), 0));
  },

  // A cell's text, centred across \`span\` cells of its row (a tile's number over two cells).
  label(col, row, text, span = 1) {
    const size = Math.min(7.5, (span * U - 0.8) / Board.ems(text));
    return Board.node("text", { x: col * U + span * U / 2, y: row * U + U / 2, "font-size": size, class: "cell-text" }, text);
  },

  // The outline of a set of cells (a placed piece): every edge whose neighbour is not in it.
  outline(cells, cls) {
    const d = [];
    for (const key of cells) {
      const [c, r] = key.split(",").map(Number);
      const x = c * U; const y = r * U;
      if (!cells.has(`${c},${r - 1}`)) d.push(`M${x} ${y}h${U}`);
      if (!cells.has(`${c},${r + 1}`)) d.push(`M${x} ${y + U}h${U}`);
      if (!cells.has(`${c - 1},${r}`)) d.push(`M${x} ${y}v${U}`);
      if (!cells.has(`${c + 1},${r}`)) d.push(`M${x + U} ${y}v${U}`);
    }
    return Board.node("path", { d: d.join(""), class: cls });
  },

  // Points per round, one line per seat in its colour (the end screen).
  chart(chart, target) {
    if (!chart || !chart.rounds.length) { target.replaceChildren(); target.hidden = true; return; }
    target.hidden = false;
    const all = chart.series.flatMap((s) => s.points);
    const top = Math.max(1, ...all);
    const w = 100; const h = 60; const n = chart.rounds.length;
    const base = h - 10; // the axis; the rounds' numbers under it
    const x = (i) => (n === 1 ? w / 2 : 8 + (i * (w - 16)) / (n - 1));
    const y = (v) => base - (v / top) * (base - 6);
    const svg = Board.node("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": Kiosk.t("chart") });
    svg.append(Board.node("path", { d: `M4 ${base}H${w - 2}`, class: "axis" }));
    chart.rounds.forEach((r, i) => svg.append(Board.node("text", { x: x(i), y: h - 1.5, class: "axis-text" }, String(r))));
    for (const s of chart.series) {
      const pts = s.points.map((v, i) => `${x(i)},${y(v)}`).join(" ");
      svg.append(Board.node("polyline", { points: pts, class: "series", stroke: s.hex }));
      s.points.forEach((v, i) => svg.append(Board.node("circle", { cx: x(i), cy: y(v), r: 1.6, fill: s.hex })));
    }
    target.replaceChildren(Kiosk.el("h2", { text: Kiosk.t("chart") }), svg);
  },
};

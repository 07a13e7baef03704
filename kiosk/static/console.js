// The players' console: what each seat may do now, as large touch targets (docs/kiosk.md).
// Drawn from status.console (the engine's offers, GET /api/offers); a move is made with
// POST /api/move. A move with choices opens the picker; options the rules refuse now are greyed
// with the reason, so nobody has to try a move to learn it is illegal.
"use strict";

const Console = {
  picking: null, // { offer, picks: [], numbers: {}, faces: {}, counts: {}, cells: Set }
  checking: null, // the latest live check under way
  moves: -1,

  effectsOpen: new Set(), // the seats whose "card effect…" group is open
  last: null, // the status last drawn
  drawn: null, // what the console last drew (its offers, the language, the open groups)

  render(s) {
    Console.last = s;
    const c = s.console;
    const box = document.getElementById("console");
    if (!c) return;
    // Redrawn only when what it shows changed: a timer's tick (every second) must not replace
    // the buttons under a finger (a touch landing during a redraw was lost, issue #38).
    const armed = Console.armed ? Console.armed.key : null;
    const key = JSON.stringify([c, Boolean(s.outcome), [...Console.effectsOpen], armed, Kiosk.lang],
      (k, v) => (k === "index" ? undefined : v));
    if (key === Console.drawn && box.childElementCount) return;
    Console.drawn = key;
    const t = Kiosk.t;
    if (s.outcome) {
      box.replaceChildren(Kiosk.el("p", { class: "console-note", text: t("gameIsOver") }));
    } else if (!c.groups.length) {
      box.replaceChildren(Kiosk.el("p", { class: "console-note", text: t("nothingNow") }));
    } else {
      const together = Console.together(c.groups);
      box.replaceChildren(...c.groups.map((g, gi) => (together && together.seats.includes(g) ? null : Console.group(g, gi)))
        .filter(Boolean));
      if (together) box.prepend(together.box);
    }
    // Two seats at once with moves of their own (Don't Starve's day): side by side, so that the
    // second seat's moves open now are not under the first's greyed ones (issue 38).
    const seats = c.groups.filter((g) => g.seat != null);
    const apart = !s.outcome && box.querySelector(".together") === null && seats.length === 2 && !c.groups.some((g) => g.acting);
    box.dataset.apart = String(apart); // laid out by Console.layout once the page is drawn
    if (c.moves !== Console.moves) {
      Console.moves = c.moves;
      Console.refreshPicker(c);
    }
  },

  // Two seats side by side only where it shows more of what can be done now: the first
  // seat's moves open now all in view as in one column (the acting seat's promise), and fewer
  // of any seat's out of view. Called after each draw and when the window changes size.
  layout() {
    const box = document.getElementById("console");
    if (!box || !box.getClientRects().length) return;
    const worse = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]);
    box.dataset.flow = "stack";
    Console.fit();
    let stack = Console.unseen(box);
    let wide = true;
    if (stack[0]) { // a long button taking two cells pushed the first seat's moves out of view
      Console.fit(false);
      const narrow = Console.unseen(box);
      if (worse(narrow, stack)) Console.fit();
      else { stack = narrow; wide = false; }
    }
    if (box.dataset.apart !== "true" || !stack[1]) return;
    box.dataset.flow = "columns";
    Console.fit();
    if (worse(Console.unseen(box), stack)) {
      box.dataset.flow = "stack";
      Console.fit(wide);
    }
  },

  // How many moves open now lie outside the console's box scrolled to its top (where a move
  // made brings it back): the first seat's, everyone's.
  unseen(box) {
    const r = box.getBoundingClientRect();
    const out = (g) => [...g.querySelectorAll(".offer:not(.greyed)")]
      .filter((b) => ["main", "dice"].includes(b.dataset.kind))
      .filter((b) => {
        const q = b.getBoundingClientRect();
        const top = q.top - r.top - box.clientTop + box.scrollTop;
        return top < -1 || top + q.height > box.clientHeight + 1;
      }).length;
    const groups = [...box.querySelectorAll(".seat-group")];
    return [groups.length ? out(groups[0]) : 0, groups.reduce((n, g) => n + out(g), 0)];
  },

  // Every button's words in at most two lines (issue 38: Don't Starve's wrapped to 3–4 in
  // three columns), never smaller than 1rem: two seats side by side ("columns") keep each
  // seat's moves open now in its own half, the rest of each seat's moves under both, two to a
  // row; in any row of buttons, one whose words need more than two lines takes two cells, or
  // the whole row (`wide`: false keeps each in its cell, where that keeps the first seat's
  // moves open now in view).
  fit(wide = true) {
    const box = document.getElementById("console");
    if (!box || !box.getClientRects().length) return;
    for (const el of box.querySelectorAll(".seat-group > *, .seat-group > .offers > *")) {
      if (el.closest(".together")) continue; // placed by Console.together
      el.style.gridRow = "";
      el.style.gridColumn = "";
    }
    for (const more of box.querySelectorAll(".seat-more")) more.hidden = true;
    const lines = (b) => {
      const label = b.querySelector(".offer-label");
      if (!label) return 1;
      return label.getBoundingClientRect().height / (parseFloat(getComputedStyle(label).lineHeight) || 1);
    };
    const long = (b) => lines(b) > 2.2;
    const rowButtons = (el) => [...el.children].filter((x) => x.matches("button.offer"));
    if (box.dataset.flow === "columns") Console.fitColumns(box, long, rowButtons);
    for (const grid of box.querySelectorAll(".seat-group .offers")) {
      const css = getComputedStyle(grid);
      if (css.display !== "grid") continue;
      grid.style.gridAutoFlow = "";
      const buttons = rowButtons(grid);
      buttons.forEach((b) => { b.style.gridColumn = ""; });
      const spanned = wide && css.gridTemplateColumns.split(" ").length > 1 ? buttons.filter(long) : [];
      for (const b of spanned) {
        b.style.gridColumn = "span 2";
        if (long(b) || b.getBoundingClientRect().width < 1) b.style.gridColumn = "1 / -1";
      }
      if (spanned.length) grid.style.gridAutoFlow = "row dense"; // no hole left before a wide one
    }
  },

  // Two seats side by side: four tracks, each seat's headline and moves open now in two of
  // them, one under the other; then each seat's other moves (greyed, free, card effects, what
  // the camera reads, the end of the game) under both, under the seat's name, two to a row
  // (a button whose words need more than two lines at half the width takes the row).
  fitColumns(box, long, rowButtons) {
    const groups = [...box.children].filter((g) => g.matches(".seat-group") && g.dataset.seat !== "table");
    const at = (el, row, col, span) => { el.style.gridRow = String(row); el.style.gridColumn = `${col} / span ${span}`; };
    const open = (b) => !b.classList.contains("greyed") && ["main", "dice", "core"].includes(b.dataset.kind);
    let end = 1;
    const rest = groups.map((g, j) => {
      const row = g.querySelector(":scope > .offers:not(.effect-offers):not(.camera-offers):not(.final-offers)");
      const buttons = row ? rowButtons(row) : [];
      let r = 1;
      for (const el of g.querySelectorAll(":scope > h3, :scope > .shared-why")) at(el, r++, 1 + 2 * j, 2);
      for (const b of buttons.filter(open)) at(b, r++, 1 + 2 * j, 2);
      end = Math.max(end, r);
      return [g, buttons.filter((b) => !open(b))];
    });
    let r = end;
    for (const [g, buttons] of rest) {
      const boxes = [...g.querySelectorAll(":scope > .camera-offers, :scope > .effect-offers, :scope > .final-offers")];
      const more = g.querySelector(":scope > .seat-more");
      if (!buttons.length && !boxes.length) { if (more) more.hidden = true; continue; }
      if (more) { more.hidden = false; at(more, r++, 1, 4); }
      buttons.forEach((b, i) => at(b, r + Math.floor(i / 2), 1 + 2 * (i % 2), 2)); // two to a row
      const wide = new Set(buttons.filter(long)); // measured at half the width
      let col = 0;
      for (const b of buttons) { // packed again: a wide one takes a row of its own
        if (wide.has(b)) { if (col) { r += 1; col = 0; } at(b, r++, 1, 4); continue; }
        at(b, r, 1 + 2 * col, 2);
        col += 1;
        if (col === 2) { r += 1; col = 0; }
      }
      if (col) r += 1;
      for (const d of boxes) at(d, r++, 1, 4);
    }
  },

  // Where an offer goes, as the game decided (engine/core/forms.py, OfferKind).
  kind(o) { return o.kind || (o.camera ? "camera" : "main"); },

  group(g, gi) {
    const seat = g.seat == null ? "table" : String(g.seat);
    g.offers.forEach((o, oi) => { o.index = `${gi}.${oi}`; });
    // One row, each kind in the engine's order: the dice just rolled (the console asks what
    // they show), the main actions open now, the end of the turn or phase, the card effects
    // behind one entry (before the greyed actions: at 1280 x 720 a column of greyed actions
    // pushed it out of view), the main actions greyed now (what a player can do stays in view
    // even when the rules name many actions, as Stonesaga's day does), the free actions; then
    // what the camera reads, and the moves that end the game in a row of their own. A greyed
    // offer's reason is said once above when it is the same for many, else on a touch (the
    // row stays one look tall: a reason under every greyed button would not fit).
    const of = (k) => g.offers.filter((o) => Console.kind(o) === k);
    const main = of("main");
    const openNow = [...of("dice"), ...main.filter((o) => o.ok), ...of("core")];
    const row = [...openNow, ...main.filter((o) => !o.ok)];
    const free = of("free");
    const greyed = [...row, ...free].filter((o) => !o.ok);
    const reasons = [...new Set(greyed.map((o) => Console.refusal(o)))];
    const shared = greyed.length > 2 && reasons.length === 1 ? reasons[0] : null;
    const camera = of("camera");
    const cameraBox = camera.length
      ? Kiosk.el("div", { class: "offers camera-offers" },
        Kiosk.el("p", { class: "camera-note", text: Kiosk.t("cameraFallback") }),
        ...camera.map((o) => Console.button(o)))
      : null;
    // Nothing else can be done now but what the camera reads: that comes first.
    const cameraFirst = ![...row, ...free].some((o) => o.ok) && camera.some((o) => o.ok);
    const effects = of("card_effect");
    const open = Console.effectsOpen.has(seat);
    const toggle = effects.length
      ? Kiosk.el("button", {
        type: "button", class: "offer effects-toggle", "data-seat": seat, "aria-expanded": String(open),
      }, Kiosk.el("span", { class: "offer-label", text: `${open ? "▾" : "▸"} ${Kiosk.t("cardEffects")}` }))
      : null;
    if (toggle) {
      toggle.addEventListener("click", () => {
        if (open) Console.effectsOpen.delete(seat); else Console.effectsOpen.add(seat);
        Console.render(Console.last);
      });
    }
    const effectsBox = effects.length && open
      ? Kiosk.el("div", { class: "offers effect-offers", "data-seat": seat }, ...effects.map((o) => Console.button(o)))
      : null;
    const finals = of("final");
    const finalBox = finals.length
      ? Kiosk.el("div", { class: "offers final-offers", "data-seat": seat },
        Kiosk.el("p", { class: "final-note", text: Kiosk.t("endsTheGame") }),
        ...finals.map((o) => Console.button(o)))
      : null;
    const box = Kiosk.el(
      "div", { class: "seat-group", "data-seat": seat, "data-acting": String(g.acting) },
      Kiosk.el("h3", { text: g.name + (g.seat == null ? "" : ` · ${Kiosk.t(g.acting ? "toAct" : "mayAct")}`) }),
      shared ? Kiosk.el("p", { class: "why shared-why", text: shared }) : null,
      cameraFirst ? cameraBox : null,
      Kiosk.el("div", { class: "offers" },
        ...openNow.map((o) => Console.button(o, false)), toggle,
        ...main.filter((o) => !o.ok).map((o) => Console.button(o, false)),
        ...free.map((o) => Console.button(o, false))),
      effectsBox,
      cameraFirst ? null : cameraBox,
      finalBox,
      Kiosk.el("p", { class: "seat-more", text: g.name, hidden: "" }), // its other moves' head (Console.fitColumns)
    );
    if (g.hex) box.style.setProperty("--seat", g.hex); // the player's colour, as on the board
    return box;
  },

  // Everyone at once (no seat's turn), each seat offered the same moves (Greenwood's and Don't
  // Starve's opening draws, Stonesaga's creation roll, the dusk): one row a move, its words
  // once, then one button a seat under that seat's name, so that every seat's moves are in
  // view at one look (issue 38: a third seat's were under the console's fold). Each seat's
  // buttons stay in its own .seat-group (drawn as contents of the grid). Null where the seats'
  // moves differ, a seat has its turn, or the rows would be many (each seat's own group then).
  MOST_ROWS: 8,
  together(groups) {
    const seats = groups.filter((g) => g.seat != null);
    if (seats.length < 2 || groups.some((g) => g.acting)) return null;
    const shape = (g) => JSON.stringify(g.offers.map((o) => [o.move, o.label, Console.kind(o), o.fields.length > 0]));
    if (seats.some((g) => shape(g) !== shape(seats[0]))) return null;
    if (seats[0].offers.some((o) => ["camera", "final"].includes(Console.kind(o)))) return null;
    const offers = seats[0].offers.map((o, oi) => ({ o, oi, ok: seats.some((g) => g.offers[oi].ok) }));
    const of = (k) => offers.filter((r) => Console.kind(r.o) === k);
    const main = of("main");
    const rows = [...of("dice"), ...main.filter((r) => r.ok), ...of("core"), ...main.filter((r) => !r.ok), ...of("free")];
    const effects = of("card_effect");
    if (rows.length + (effects.length ? 1 : 0) > Console.MOST_ROWS) return null;
    seats.forEach((g) => { const gi = groups.indexOf(g); g.offers.forEach((o, oi) => { o.index = `${gi}.${oi}`; }); });
    // One reason for the greyed buttons is said once above, unless they are one move's row
    // (the end of the phase, greyed for all): its ✖ says why on a touch, as a greyed offer does.
    const greyedRows = rows.filter((r) => seats.some((g) => !g.offers[r.oi].ok));
    const greyed = seats.flatMap((g) => rows.map((r) => g.offers[r.oi])).filter((o) => !o.ok);
    const reasons = [...new Set(greyed.map((o) => Console.refusal(o)))];
    const shared = greyedRows.length > 1 && reasons.length === 1 ? reasons[0] : null;
    const at = (el, row, col) => { el.style.gridRow = String(row); el.style.gridColumn = String(col); return el; };
    const labels = rows.map((r, i) => at(Kiosk.el("span", {
      class: `together-label${r.ok ? "" : " greyed-label"}`,
      text: (r.o.fields.some((f) => f.kind === "dice") ? "⚄ " : "") + (r.o.fields.length ? `${r.o.label}\u00a0›` : r.o.label), // › never alone
    }), i + 2, 1));
    if (effects.length) labels.push(at(Kiosk.el("span", { class: "together-label", text: Kiosk.t("cardEffects") }), rows.length + 2, 1));
    const columns = seats.map((g, j) => {
      const seat = String(g.seat);
      const buttons = rows.map((r, i) => {
        const o = g.offers[r.oi];
        const b = Console.button(o, false);
        // the move's words head the row: the button says whose it is (its column's name)
        const mark = o.ok ? (o.fields.length ? "›" : "✔") : "✖";
        b.querySelector(".offer-label").replaceChildren(Kiosk.el("span", { class: "offscreen", text: o.label }), ` ${mark}`);
        b.setAttribute("aria-label", `${g.name}: ${o.label}${o.ok ? "" : ` (${Console.refusal(o)})`}`);
        return at(b, i + 2, j + 2);
      });
      const open = Console.effectsOpen.has(seat);
      let toggle = null;
      let opened = null;
      if (effects.length) {
        toggle = at(Kiosk.el("button", {
          type: "button", class: "offer effects-toggle", "data-seat": seat, "aria-expanded": String(open),
          "aria-label": `${g.name}: ${Kiosk.t("cardEffects")}`,
        }, Kiosk.el("span", { class: "offer-label", text: open ? "▾" : "▸" })), rows.length + 2, j + 2);
        toggle.addEventListener("click", () => {
          if (open) Console.effectsOpen.delete(seat); else Console.effectsOpen.add(seat);
          Console.render(Console.last);
        });
        if (open) {
          opened = Kiosk.el("div", { class: "offers effect-offers", "data-seat": seat },
            Kiosk.el("p", { class: "together-whose", text: g.name }),
            ...effects.map((r) => Console.button(g.offers[r.oi])));
          opened.style.gridColumn = "1 / -1";
        }
      }
      const head = at(Kiosk.el("h3", { text: g.name }), 1, j + 2);
      const box = Kiosk.el("div", { class: "seat-group", "data-seat": seat, "data-acting": "false" },
        head, Kiosk.el("div", { class: "offers" }, ...buttons, toggle), opened);
      if (g.hex) box.style.setProperty("--seat", g.hex);
      return box;
    });
    const corner = at(Kiosk.el("p", { class: "together-corner", text: Kiosk.t("everyoneAtOnce") }), 1, 1);
    const grid = Kiosk.el("div", { class: "together" }, corner, ...labels, ...columns);
    grid.style.setProperty("--seats", String(seats.length));
    grid.style.setProperty("--column", seats.length <= 2 ? "5em" : seats.length === 3 ? "4em" : "3.4em"); // names wrap
    const box = Kiosk.el("div", { class: "together-box" },
      shared ? Kiosk.el("p", { class: "why shared-why", text: shared }) : null, grid);
    return { seats, box };
  },

  // A move that ends the game is made by a second touch within ARM_MS of the first; the first
  // turns the button into what the second will do ("touch again to end the scenario").
  ARM_MS: 5000,
  armed: null, // { key, until }
  armKey(o) { return `${o.move}|${o.seat}|${JSON.stringify(o.fixed)}`; },
  isArmed(o) { const a = Console.armed; return Boolean(a && a.key === Console.armKey(o) && Date.now() < a.until); },
  arm(o) {
    const key = Console.armKey(o);
    Console.armed = { key, until: Date.now() + Console.ARM_MS };
    setTimeout(() => {
      if (Console.armed && Console.armed.key === key && Date.now() >= Console.armed.until) {
        Console.armed = null;
        if (Console.last) Console.render(Console.last);
      }
    }, Console.ARM_MS + 50);
    if (Console.last) Console.render(Console.last);
  },

  refusal(o) { return o.ok ? null : (o.options.find((x) => !x.ok) || {}).reason; },

  button(o, withReason = true) {
    const refused = Console.refusal(o);
    const final = Console.kind(o) === "final";
    const armed = final && o.ok && Console.isArmed(o);
    const dice = o.fields.some((f) => f.kind === "dice");
    const label = armed ? o.confirm : (dice ? "⚄ " : "") + (o.fields.length ? `${o.label} ›` : o.label);
    const b = Kiosk.el(
      "button",
      { type: "button", class: `offer${o.ok ? "" : " greyed"}${o.ok && dice ? " ask-dice" : ""}${armed ? " armed" : ""}`, "data-move": o.move,
        "data-seat": o.seat == null ? "table" : String(o.seat), "data-offer": o.index,
        "data-kind": Console.kind(o), "aria-disabled": String(!o.ok), title: refused || "" },
      Kiosk.el("span", { class: "offer-label", text: label }),
      refused && withReason ? Kiosk.el("small", { class: "why", text: refused }) : null,
    );
    b.addEventListener("click", () => {
      if (!o.ok) { Console.say(false, `${o.label}: ${refused}`); return; }
      if (final && !Console.isArmed(o)) { Console.arm(o); return; }
      if (final) Console.armed = null;
      if (!o.fields.length) Console.send(o, Console.build(o, [], {}, {}));
      else Console.open(o);
    });
    return b;
  },

  // --- the picker ---------------------------------------------------------------------------

  open(o) {
    const picks = Console.pickFields(o).map((f) => (f.choices.length === 1 ? f.choices[0].value : undefined));
    const numbers = {};
    const counts = {};
    for (const f of o.fields) {
      if (f.kind === "number") numbers[f.name] = f.default;
      if (f.kind === "tally") counts[f.name] = f.choices.map(() => 0);
    }
    Console.picking = { offer: o, picks, numbers, faces: {}, counts, cells: new Set(), places: {}, held: {} };
    document.getElementById("picker").hidden = false;
    Console.draw();
  },

  close() {
    Console.picking = null;
    document.getElementById("picker").hidden = true;
  },

  // After the game moved on, keep the picker on the same offer if it is still open, else close.
  refreshPicker(c) {
    const p = Console.picking;
    if (!p) return;
    const same = c.groups.flatMap((g) => g.offers).find(
      (o) => o.move === p.offer.move && o.seat === p.offer.seat && o.label === p.offer.label && o.ok);
    if (!same) { Console.close(); return; }
    p.offer = same;
    Console.draw();
  },

  pickFields(o) { return o.fields.filter((f) => f.kind === "pick" || f.kind === "cells"); },

  same(a, b) { return JSON.stringify(a) === JSON.stringify(b); },

  // The options that agree with every pick made so far, except field k's.
  candidates(k, value) {
    const { offer, picks } = Console.picking;
    return offer.options.filter((o) => o.values.every((v, j) =>
      j === k ? Console.same(v, value) : picks[j] === undefined || Console.same(v, picks[j])));
  },

  draw() {
    const p = Console.picking;
    const o = p.offer;
    // Whose move it is, by name and colour (the table's when no seat makes it).
    const group = (Console.last?.console?.groups || []).find((g) => g.seat === o.seat);
    const who = group ? group.name : Kiosk.t("table");
    const title = document.getElementById("picker-title");
    title.replaceChildren(Kiosk.el("span", { class: "picker-who", text: who }), ` · ${o.label}`);
    document.querySelector("#picker .picker-body").style.setProperty("--seat", group?.hex || "var(--accent)");
    let k = -1;
    const rows = o.fields.map((f) => {
      if (f.kind === "pick" || f.kind === "cells") k += 1;
      const index = k;
      const body = f.kind === "pick" ? Console.pickRow(f, index)
        : f.kind === "cells" ? Console.cellsRow(f, index)
          : f.kind === "number" ? Console.numberRow(f)
            : f.kind === "tally" ? Console.tallyRows(f)
              : f.kind === "assign" ? Console.assignRows(f)
                : Console.diceRows(f);
      const ask = f.kind === "dice" ? Kiosk.t("diceAsk") : f.kind === "assign" ? Kiosk.t("assignAsk") : null;
      return Kiosk.el("fieldset", { class: `field field-${f.kind}`, "data-field": f.name },
        Kiosk.el("legend", { text: ask ? `${f.label} · ${ask}` : f.label }), body);
    });
    document.getElementById("picker-fields").replaceChildren(...rows);
    const why = Console.problem();
    document.getElementById("picker-why").textContent = why || "";
    document.getElementById("picker-do").disabled = Boolean(why);
    if (!why && o.fields.some((f) => ["number", "tally", "dice", "assign"].includes(f.kind))) Console.liveCheck();
  },

  // Counts and numbers are not spelled out as options: ask the rules about this very move
  // (POST /api/check changes nothing), so "Do it" is greyed with the reason before a touch.
  async liveCheck() {
    const p = Console.picking;
    const token = (Console.checking = {});
    document.getElementById("picker-do").disabled = true;
    const move = Console.build(p.offer, p.picks, p.numbers, p.faces, p.counts, p.places);
    const response = await fetch(`/api/check?lang=${encodeURIComponent(Kiosk.lang)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(move),
    }).catch(() => null);
    if (token !== Console.checking || Console.picking !== p) return; // a newer change, or closed
    const answer = response && response.ok ? await response.json() : { accepted: true };
    // A move the rules take with a word to say (Stonesaga's five dice under 14: noted, then
    // rolled again): the word is said before "Do it" is touched, not a bare "accepted" after.
    document.getElementById("picker-why").textContent = answer.accepted ? Console.note(answer) : answer.message;
    document.getElementById("picker-do").disabled = !answer.accepted;
  },

  // What an accepted answer says beyond "accepted" (its code is not the plain "ok"), or "".
  note(answer) { return answer.code && answer.code !== "ok" && answer.message ? answer.message : ""; },

  pickRow(f, k) {
    const p = Console.picking;
    return Kiosk.el("div", { class: "choices" }, ...f.choices.map((c) => {
      const options = Console.candidates(k, c.value);
      const ok = options.some((x) => x.ok);
      const reason = ok ? null : (options[0] || {}).reason;
      const chosen = p.picks[k] !== undefined && Console.same(p.picks[k], c.value);
      const b = Kiosk.el("button", {
        type: "button", class: `choice${ok ? "" : " greyed"}`, "aria-pressed": String(chosen),
        "aria-disabled": String(!ok), "data-value": JSON.stringify(c.value),
      }, Kiosk.el("span", { text: c.label }), reason ? Kiosk.el("small", { class: "why", text: reason }) : null);
      b.addEventListener("click", () => {
        if (!ok) { document.getElementById("picker-why").textContent = `${c.label}: ${reason}`; return; }
        p.picks[k] = c.value;
        Console.dropStale(k);
        Console.draw();
      });
      return b;
    }));
  },

  // A pick that no legal option supports any more (after another field changed) is undone.
  dropStale(changed) {
    const p = Console.picking;
    p.picks.forEach((v, j) => {
      if (j !== changed && v !== undefined && !Console.candidates(j, v).some((x) => x.ok)) p.picks[j] = undefined;
    });
  },

  // A placement (a submarine piece the camera could not read), touched on the player's own
  // board as the table draws it (Board.panel: start cell, rewards, placed pieces), its edges
  // labelled as the board prints them (columns A…, rows 1…; the engine's cell names). The cells
  // some legal placement covers are marked; a touch chooses one (a touch on a legal cell that
  // does not go with those chosen starts again there), a touch on a chosen cell takes it back,
  // or places the piece once the chosen cells are a placement ("Do it" does the same). A cell
  // no legal placement covers is dimmed; a touch says why.
  cellsRow(f, k) {
    const p = Console.picking;
    const [cols, rows] = f.grid || [8, 8];
    const key = (c) => `${c[0]},${c[1]}`;
    const name = (c, r) => `${String.fromCharCode(65 + c)}${r + 1}`;
    const verdicts = f.choices.map((c) => Console.candidates(k, c.value));
    const usable = f.choices.filter((c, i) => verdicts[i].some((x) => x.ok));
    const legal = new Set(usable.flatMap((c) => c.value.map(key)));
    const fits = usable.filter((c) => [...p.cells].every((cell) => c.value.some((v) => key(v) === cell)));
    const reachable = new Set(fits.flatMap((c) => c.value.map(key)));
    // Why a cell takes no piece: the reason the rules give most often for the placements over
    // it, else that a piece covers it already (no placement is offered there), else no room.
    const reasons = new Map();
    f.choices.forEach((c, i) => {
      const reason = (verdicts[i].find((x) => !x.ok) || {}).reason;
      if (!reason) return;
      for (const cell of c.value.map(key)) {
        const counts = reasons.get(cell) || new Map();
        counts.set(reason, (counts.get(reason) || 0) + 1);
        reasons.set(cell, counts);
      }
    });
    const s = Console.last || {};
    const drawn = (s.picture?.boards || []).find((b) => b.seat === p.offer.seat && b.cols === cols && b.rows === rows);
    const blank = () => Array.from({ length: cols * rows }, (_, i) => ({ col: i % cols, row: Math.floor(i / cols), kind: "empty" }));
    const board = drawn || { title: "", seat: p.offer.seat, cols, rows, cells: blank() }; // a game with no picture
    const kinds = new Map((board.cells || []).map((c) => [`${c.col},${c.row}`, c.kind]));
    const why = (id) => {
      const counts = reasons.get(id);
      if (counts) return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
      const covered = ["piece", "done"].includes(kinds.get(id));
      return Kiosk.t(covered ? "cellTaken" : "cellNoRoom");
    };
    const over = Kiosk.el("div", { class: "cell-over" });
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const id = `${c},${r}`;
        const on = p.cells.has(id);
        const refused = legal.has(id) ? null : why(id);
        const b = Kiosk.el("button", {
          type: "button", "data-cell": id, "aria-pressed": String(on), "aria-disabled": String(Boolean(refused)),
          class: `grid-cell${refused ? " refused" : " legal"}${reachable.has(id) ? " reachable" : ""}`,
          "aria-label": refused ? `${name(c, r)}: ${refused}` : name(c, r),
        });
        b.addEventListener("click", () => {
          const line = document.getElementById("picker-why");
          if (refused) { line.textContent = `${name(c, r)}: ${refused}`; return; }
          if (on && p.picks[k] !== undefined && !Console.problem()) { Console.submit(); return; }
          if (on) p.cells.delete(id);
          else if (reachable.has(id)) p.cells.add(id);
          else p.cells = new Set([id]);
          const exact = f.choices.find((ch) => ch.value.length === p.cells.size
            && ch.value.every((v) => p.cells.has(key(v))));
          p.picks[k] = exact ? exact.value : undefined;
          Console.draw();
        });
        over.append(b);
      }
    }
    const labels = (cls, n, text) => Kiosk.el("div", { class: `cell-labels ${cls}`, "aria-hidden": "true" },
      ...Array.from({ length: n }, (_, i) => Kiosk.el("span", { text: text(i) })));
    const stage = Kiosk.el("div", { class: "cell-stage" }, Board.panel(board, s.seats), over);
    const grid = Kiosk.el("div", { class: "cell-board" }, Kiosk.el("span"),
      labels("col-labels", cols, (i) => String.fromCharCode(65 + i)), labels("row-labels", rows, (i) => String(i + 1)), stage);
    grid.style.setProperty("--cols", String(cols));
    grid.style.setProperty("--rows", String(rows));
    const complete = p.picks[k] !== undefined;
    const note = Kiosk.el("p", { class: "muted",
      text: complete ? Kiosk.t("touchAgain") : Kiosk.t("placements", { n: usable.length }) }); // "tap…": the why line
    return Kiosk.el("div", { class: "cells" }, note,
      Kiosk.el("div", { class: "cell-layout" }, grid, Console.cellsLegend(board, s)));
  },

  // The board's legend as the table shows it, narrowed to what this board draws (its own
  // seat's pieces), then the picker's own marks.
  cellsLegend(board, s) {
    const kinds = new Set([...(board.cells || []).map((c) => c.kind), ...(board.marks || []).map((m) => m.kind)]);
    const entries = (s.picture?.legend || []).filter((l) => kinds.has(l.kind))
      .map((l) => (Array.isArray(l.seats) ? { ...l, seats: l.seats.filter((seat) => seat === board.seat) } : l))
      .filter((l) => !Array.isArray(l.seats) || l.seats.length)
      .map((l) => Board.entry(l, s.seats));
    const mark = (cls, text) => Kiosk.el("li", {},
      Kiosk.el("span", { class: "swatches" }, Kiosk.el("span", { class: `swatch ${cls}`, "aria-hidden": "true" })), text);
    return Kiosk.el("ul", { class: "board-legend cell-legend" },
      mark("mark-legal", Kiosk.t("cellLegal")), mark("mark-chosen", Kiosk.t("cellChosen")),
      mark("mark-refused", Kiosk.t("cellRefused")), ...entries);
  },

  numberRow(f) {
    const p = Console.picking;
    const step = (d) => {
      p.numbers[f.name] = Math.min(f.high, Math.max(f.low, p.numbers[f.name] + d));
      Console.draw();
    };
    const minus = Kiosk.el("button", { type: "button", class: "step-button", "data-step": "-1", "aria-label": "−", text: "−" });
    const plus = Kiosk.el("button", { type: "button", class: "step-button", "data-step": "+1", "aria-label": "+", text: "+" });
    minus.disabled = p.numbers[f.name] <= f.low;
    plus.disabled = p.numbers[f.name] >= f.high;
    minus.addEventListener("click", () => step(-1));
    plus.addEventListener("click", () => step(1));
    return Kiosk.el("div", { class: "number" }, minus,
      Kiosk.el("output", { class: "number-value", text: String(p.numbers[f.name]) }), plus,
      Kiosk.el("small", { class: "muted", text: `${f.low} – ${f.high}` }));
  },

  // A count for each choice (a trade: how many of each kind each player gives).
  tallyRows(f) {
    const counts = Console.picking.counts[f.name];
    return Kiosk.el("div", { class: "tally" }, ...f.choices.map((c, i) => {
      const step = (d) => { counts[i] = Math.min(c.most, Math.max(0, counts[i] + d)); Console.draw(); };
      const minus = Kiosk.el("button", { type: "button", class: "step-button", "data-step": "-1", "aria-label": "−", text: "−" });
      const plus = Kiosk.el("button", { type: "button", class: "step-button", "data-step": "+1", "aria-label": "+", text: "+" });
      minus.disabled = counts[i] <= 0;
      plus.disabled = counts[i] >= c.most;
      minus.addEventListener("click", () => step(-1));
      plus.addEventListener("click", () => step(1));
      return Kiosk.el("div", { class: "tally-row", "data-index": String(i) },
        Kiosk.el("span", { class: "tally-label", text: c.label }), minus,
        Kiosk.el("output", { class: "number-value", text: String(counts[i]) }), plus);
    }));
  },

  diceRows(f) {
    const p = Console.picking;
    const chosen = p.faces[f.name] || (p.faces[f.name] = f.dice.map(() => null));
    // Each die by its own name ("die 3"); numbered only where dice share a name ("Combat die ·
    // die 2"): "die 1 · die 1" said one thing twice.
    const names = f.dice.map((d) => d.label);
    const shared = new Set(names.filter((n, i) => names.indexOf(n) !== i));
    return Kiosk.el("div", { class: "dice-entry" }, ...f.dice.map((d, i) => Kiosk.el(
      "div", { class: "die-row", "data-die": d.name, "data-index": String(i) },
      Kiosk.el("span", { class: "die-name", text: shared.has(d.label) ? `${d.label} · ${Kiosk.t("die", { n: i + 1 })}` : d.label }),
      ...d.faces.map((face, j) => {
        const b = Kiosk.el("button", {
          type: "button", class: "face", "aria-pressed": String(chosen[i] === j), "data-face": String(j), title: face.label,
        }, Kiosk.el("span", { class: "symbol", text: face.symbol }), Kiosk.el("small", { text: face.label }));
        b.addEventListener("click", () => { chosen[i] = j; Console.draw(); });
        return b;
      }),
    )));
  },

  // Values to place, one on each choice (the kept creation dice on the attributes): a touch on
  // a die holds it, a touch on a choice places it there (a die already there goes back).
  assignRows(f) {
    const p = Console.picking;
    const places = p.places[f.name] || (p.places[f.name] = f.choices.map(() => null));
    if (p.held[f.name] === undefined) p.held[f.name] = 0;  // the first die waits in hand
    const held = p.held[f.name];
    const PIPS = "⚀⚁⚂⚃⚄⚅";
    const face = (v) => (v >= 1 && v <= 6 ? PIPS[v - 1] : "");
    const dice = Kiosk.el("div", { class: "die-row assign-dice" }, ...f.pool.map((v, i) => {
      const used = places.includes(i);
      const b = Kiosk.el("button", {
        type: "button", class: `face assign-die${used ? " placed" : ""}`, "aria-pressed": String(held === i),
        "data-die": String(i), "aria-label": Kiosk.t("die", { n: i + 1 }) + ` · ${v}`,
      }, Kiosk.el("span", { class: "symbol", text: face(v) }), Kiosk.el("span", { class: "assign-value", text: String(v) }));
      if (used && held !== i) b.style.opacity = "0.45";  // already on an attribute
      b.addEventListener("click", () => { p.held[f.name] = i; Console.draw(); });
      return b;
    }));
    const targets = Kiosk.el("div", { class: "choices assign-targets" }, ...f.choices.map((c, j) => {
      const at = places[j];
      const b = Kiosk.el("button", {
        type: "button", class: `choice assign-target${at === null ? "" : " filled"}`, "data-value": JSON.stringify(c.value),
        "aria-pressed": String(at !== null),
      }, Kiosk.el("span", { class: "assign-name", text: c.label }),
      Kiosk.el("span", { class: "assign-value", text: at === null ? "—" : `${face(f.pool[at])} ${f.pool[at]}` }));
      b.addEventListener("click", () => {
        const h = p.held[f.name] ?? null;
        if (h === null) { places[j] = null; Console.draw(); return; }  // a touch without a die takes it back
        const before = places.indexOf(h);
        if (before >= 0) places[before] = null;
        places[j] = h;
        const free = f.pool.findIndex((_, i) => !places.includes(i));
        p.held[f.name] = free >= 0 ? free : null;  // the next die waits in hand
        Console.draw();
      });
      return b;
    }));
    return Kiosk.el("div", { class: "assign" }, dice, targets);
  },

  // What still stops the move (in the kiosk language), or null when it can be made.
  problem() {
    const p = Console.picking;
    const fields = Console.pickFields(p.offer);
    if (p.picks.some((v) => v === undefined)) {
      const cells = fields.find((f, j) => f.kind === "cells" && p.picks[j] === undefined);
      if (!cells) return Kiosk.t("chooseEach");
      if (!p.cells.size) return Kiosk.t("tapCells");
      const key = (c) => `${c[0]},${c[1]}`;
      const partOfOne = cells.choices.some((c) => [...p.cells].every((id) => c.value.some((v) => key(v) === id)));
      return Kiosk.t(partOfOne ? "tapCells" : "noPlacement");
    }
    for (const f of p.offer.fields) {
      if (f.kind === "dice" && (p.faces[f.name] || []).some((x) => x === null)) return Kiosk.t("chooseEach");
      if (f.kind === "tally" && p.counts[f.name].filter((n) => n > 0).length < (f.low || 0)) return Kiosk.t("countSome");
      if (f.kind === "assign" && (p.places[f.name] || []).some((x) => x === null)) return Kiosk.t("placeEach");
    }
    const option = p.offer.options.find((o) => Console.same(o.values, p.picks));
    if (!option) return Kiosk.t("chooseEach");
    return option.ok ? null : option.reason;
  },

  // The move as the engine spells it (docs/engine.md).
  build(o, picks, numbers, faces, counts = {}, places = {}) {
    const move = { type: o.move, seat: o.seat, ...o.fixed };
    Console.pickFields(o).forEach((f, j) => { move[f.name] = picks[j]; });
    for (const f of o.fields) {
      if (f.kind === "number") move[f.name] = numbers[f.name] ?? f.default;
      if (f.kind === "tally") {
        move[f.name] = f.choices.flatMap((c, i) => {
          const n = (counts[f.name] || [])[i] || 0;
          if (!n) return [];
          return [c.value !== null && typeof c.value === "object" && !Array.isArray(c.value) ? { ...c.value, count: n } : [c.value, n]];
        });
      }
      if (f.kind === "assign") {
        f.choices.forEach((c, j) => { move[c.value] = f.pool[(places[f.name] || [])[j] ?? j]; });
      }
      if (f.kind === "dice") {
        f.dice.forEach((d, i) => {
          const face = d.faces[(faces[f.name] || [])[i] ?? 0];
          for (const [name, n] of Object.entries(face.adds)) move[name] = (move[name] || 0) + n;
        });
      }
    }
    return move;
  },

  // The move the picker spells, made ("Do it", or a second touch on a chosen cell).
  submit() {
    const p = Console.picking;
    if (!p || p.sending || Console.problem()) return; // once, however often it is touched
    p.sending = true;
    Console.send(p.offer, Console.build(p.offer, p.picks, p.numbers, p.faces, p.counts, p.places))
      .finally(() => { p.sending = false; });
  },

  async send(o, move) {
    const answer = await Kiosk.post(`/api/move?lang=${encodeURIComponent(Kiosk.lang)}`, move);
    const accepted = Boolean(answer.ok && answer.accepted);
    const note = accepted ? Console.note(answer) : "";
    const line = Console.say(accepted, accepted ? `${o.label}: ${note ? `${note} · ` : ""}${Kiosk.t("accepted")}`
      : Kiosk.describe(answer.message ?? answer.detail));
    if (accepted) {
      // Back to the top of the console, the card effects closed: the next move's main actions
      // are in view (a finger scrolled down to a card effect leaves them out of sight).
      Console.close();
      Console.effectsOpen.delete(o.seat == null ? "table" : String(o.seat));
      document.getElementById("console").scrollTop = 0;
    } else if (Console.picking) document.getElementById("picker-why").textContent = line;
    return answer;
  },

  // The answer line under the console: what happened to the last touch.
  say(ok, text) {
    const line = document.getElementById("console-answer");
    line.dataset.ok = String(ok);
    line.textContent = text;
    return text;
  },

  init() {
    document.getElementById("picker-cancel").addEventListener("click", () => Console.close());
    document.getElementById("picker-do").addEventListener("click", () => Console.submit());
  },
};

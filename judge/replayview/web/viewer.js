"use strict";
// The replay viewer: decodes the frames of the data block incrementally
// (the cells at the start, then the cells each turn changed) and draws the
// turn on screen on one canvas.
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  // One colour a seat, everywhere: its swatch, its stones or discs, its
  // land and head, its line in the charts.
  const COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd"];
  const seatColor = (s) => COLORS[s % COLORS.length];
  const $ = (id) => document.getElementById(id);
  const canvas = $("board"), ctx = canvas.getContext("2d");
  const N = D.frames.length;
  const G = D.grids.length;
  const EVERY = 32; // a full copy of the cells every EVERY frames

  function b64(s) {
    const bin = atob(s || "");
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function applyDiff(layers, f) {
    const diff = D.frames[f].diff;
    if (!diff) return;
    for (const d of diff) {
      const cells = layers[d[0]];
      for (let k = 1; k + 2 < d.length; k += 3) cells.fill(d[k + 2], d[k], d[k] + d[k + 1]);
    }
  }
  // Decode once, keeping copies to jump from.
  const cur = D.start.map(b64);
  const keep = [];
  (function () {
    const l = cur.map((c) => c.slice());
    for (let f = 0; f < N; f++) {
      if (f > 0) applyDiff(l, f);
      if (f % EVERY === 0) keep.push(l.map((c) => c.slice()));
    }
  })();
  let frame = 0;
  function seek(f) {
    f = Math.max(0, Math.min(N - 1, f | 0));
    if (f === frame) return;
    if (f === frame + 1) {
      applyDiff(cur, f);
    } else {
      const k = Math.floor(f / EVERY);
      keep[k].forEach((c, i) => cur[i].set(c));
      for (let g = k * EVERY + 1; g <= f; g++) applyDiff(cur, g);
    }
    frame = f;
  }

  // Which layers are on screen: the spectators' or a seat's.
  let seeing = -1;
  function layerOf(g) { return seeing < 0 ? g : (1 + seeing) * G + g; }

  // Layout: the grids side by side, a label above each, the x axis's
  // numbers above the grid and the y axis's at its left.
  const LABEL = G > 1 ? 20 : 0, GAP = 16, AXT = 16, AXL = 26;
  let cell = 1, pad = 0;
  // The room the panel beside the board needs: the board leaves it on
  // screens from 1000 px wide.
  const PANEL = 440;
  function layout() {
    const cols = D.grids.reduce((s, g) => s + g.w, 0);
    const rows = Math.max(...D.grids.map((g) => g.h));
    const side = window.innerWidth >= 1000 ? PANEL : 0;
    const maxW = Math.max(240, Math.min(760, window.innerWidth - 40 - side)) - G * AXL - GAP * (G - 1);
    const maxH = Math.max(240, Math.min(760, window.innerHeight - 200)) - LABEL - AXT;
    cell = Math.max(1, Math.floor(Math.min(maxW / cols, maxH / rows)));
    pad = cell >= 12 ? 2 : 0;
    canvas.width = cols * cell + G * AXL + GAP * (G - 1);
    canvas.height = rows * cell + LABEL + AXT;
    $("stage").style.width = Math.max(canvas.width + 2, 320) + "px";
  }
  function origin(g) {
    let x = AXL;
    for (let i = 0; i < g; i++) x += D.grids[i].w * cell + GAP + AXL;
    return [x, LABEL + AXT];
  }
  // The y a row of grid g is numbered with: from the top (0 at the top
  // row), but from the bottom for Connect Four and Splix, as their
  // protocols count (docs/protocol).
  function rowY(g, row) {
    const info = D.grids[g];
    return info.kind === "discs" || info.kind === "land" ? info.h - 1 - row : row;
  }
  // axisLabels are the numbers drawn along grid g's axes: {axis: "x" or
  // "y", text, x, y} at canvas positions, every few cells when cells are
  // small.
  function axisLabels(g) {
    const info = D.grids[g], [ox, oy] = origin(g), out = [];
    const step = [1, 2, 5, 10, 20, 25, 50, 100].find((k) => k * cell >= 18) || 100;
    for (let x = 0; x < info.w; x += step) out.push({ axis: "x", text: String(x), x: ox + x * cell + cell / 2, y: oy - 2 });
    for (let row = 0; row < info.h; row++) {
      const y = rowY(g, row);
      if (y % step === 0) out.push({ axis: "y", text: String(y), x: ox - 4, y: oy + row * cell + cell / 2 });
    }
    return out;
  }
  function drawAxes(g) {
    ctx.fillStyle = "#555";
    ctx.font = Math.min(12, Math.max(9, Math.floor(cell * 0.45))) + "px sans-serif";
    for (const l of axisLabels(g)) {
      ctx.textAlign = l.axis === "x" ? "center" : "right";
      ctx.textBaseline = l.axis === "x" ? "bottom" : "middle";
      ctx.fillText(l.text, l.x, l.y);
    }
  }
  function light(hex, t) {
    const n = parseInt(hex.slice(1), 16);
    const mix = (c) => Math.round(c + (255 - c) * t);
    return "rgb(" + mix(n >> 16) + "," + mix((n >> 8) & 255) + "," + mix(n & 255) + ")";
  }
  function rgb(hex, t) {
    const n = parseInt(hex.slice(1), 16);
    const mix = (c) => Math.round(c + (255 - c) * t);
    return [mix(n >> 16), mix((n >> 8) & 255), mix(n & 255)];
  }
  const LAND = COLORS.map((c) => rgb(c, 0.62)), TRAIL = COLORS.map((c) => rgb(c, 0.25));

  // A disc falling into its cell: {g, x, y, seat, at} with at from 0 (top)
  // to 1 (in place).
  let falling = null;
  function drawStones(g, cells, ox, oy, discs) {
    const info = D.grids[g];
    ctx.fillStyle = discs ? "#5b6573" : "#e6c27a";
    ctx.fillRect(ox, oy, info.w * cell, info.h * cell);
    if (!discs) {
      ctx.strokeStyle = "#8a6d2f";
      ctx.lineWidth = 1;
      for (let i = 0; i <= info.w; i++) { ctx.beginPath(); ctx.moveTo(ox + i * cell + 0.5, oy); ctx.lineTo(ox + i * cell + 0.5, oy + info.h * cell); ctx.stroke(); }
      for (let j = 0; j <= info.h; j++) { ctx.beginPath(); ctx.moveTo(ox, oy + j * cell + 0.5); ctx.lineTo(ox + info.w * cell, oy + j * cell + 0.5); ctx.stroke(); }
    }
    const r = Math.max(1, cell / 2 - Math.max(1, cell / 10));
    for (let y = 0; y < info.h; y++) {
      for (let x = 0; x < info.w; x++) {
        const c = cells[y * info.w + x];
        const cx = ox + x * cell + cell / 2, cy = oy + y * cell + cell / 2;
        let fill = null;
        if (falling && falling.g === g && falling.x === x && falling.y === y) fill = "#f4f4f4";
        else if (c === 88) fill = seatColor(0);
        else if (c === 79) fill = seatColor(1);
        else if (discs) fill = "#f4f4f4";
        if (!fill) continue;
        ctx.fillStyle = fill;
        ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI); ctx.fill();
        if (!discs && cell >= 16) {
          ctx.fillStyle = "#fff";
          ctx.font = "bold " + Math.floor(cell * 0.5) + "px sans-serif";
          ctx.textAlign = "center"; ctx.textBaseline = "middle";
          ctx.fillText(c === 88 ? "X" : "O", cx, cy + 1);
        }
      }
    }
    if (falling && falling.g === g) {
      const cy = oy + falling.at * falling.y * cell + cell / 2;
      ctx.fillStyle = seatColor(falling.seat);
      ctx.beginPath(); ctx.arc(ox + falling.x * cell + cell / 2, cy, r, 0, 2 * Math.PI); ctx.fill();
    }
  }
  function drawSea(g, cells, ox, oy) {
    const info = D.grids[g];
    for (let y = 0; y < info.h; y++) {
      for (let x = 0; x < info.w; x++) {
        const c = String.fromCharCode(cells[y * info.w + x]);
        const px = ox + x * cell, py = oy + y * cell;
        ctx.fillStyle = c === "S" || c === "x" ? "#7a7f87" : c === "#" ? "#6b1b1b" : "#9fcbe8";
        ctx.fillRect(px, py, cell, cell);
        if (c === "x" || c === "#") {
          ctx.strokeStyle = c === "x" ? "#e0201c" : "#ffb3b3";
          ctx.lineWidth = Math.max(1, cell / 8);
          const m = cell * 0.22;
          ctx.beginPath(); ctx.moveTo(px + m, py + m); ctx.lineTo(px + cell - m, py + cell - m);
          ctx.moveTo(px + cell - m, py + m); ctx.lineTo(px + m, py + cell - m); ctx.stroke();
        } else if (c === "o") {
          ctx.fillStyle = "#fff";
          ctx.beginPath(); ctx.arc(px + cell / 2, py + cell / 2, Math.max(1, cell / 7), 0, 2 * Math.PI); ctx.fill();
        }
      }
    }
    ctx.strokeStyle = "rgba(255,255,255,0.6)";
    ctx.lineWidth = 1;
    for (let i = 0; i <= info.w; i++) { ctx.beginPath(); ctx.moveTo(ox + i * cell + 0.5, oy); ctx.lineTo(ox + i * cell + 0.5, oy + info.h * cell); ctx.stroke(); }
    for (let j = 0; j <= info.h; j++) { ctx.beginPath(); ctx.moveTo(ox, oy + j * cell + 0.5); ctx.lineTo(ox + info.w * cell, oy + j * cell + 0.5); ctx.stroke(); }
  }
  const off = document.createElement("canvas"), offCtx = off.getContext("2d");
  let img = null;
  function drawLand(g, cells, ox, oy) {
    const info = D.grids[g];
    if (!img || img.width !== info.w || img.height !== info.h) {
      off.width = info.w; off.height = info.h;
      img = offCtx.createImageData(info.w, info.h);
    }
    const p = img.data;
    for (let i = 0, n = info.w * info.h; i < n; i++) {
      const c = cells[i], own = c & 15, tr = c >> 4;
      const col = tr ? TRAIL[(tr - 1) % 5] : own ? LAND[(own - 1) % 5] : null;
      const j = 4 * i;
      if (col) { p[j] = col[0]; p[j + 1] = col[1]; p[j + 2] = col[2]; } else { p[j] = 246; p[j + 1] = 246; p[j + 2] = 246; }
      p[j + 3] = 255;
    }
    offCtx.putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(off, ox, oy, info.w * cell, info.h * cell);
  }
  // A grid of a kind the viewer has no drawing of its own for is drawn by
  // its game's palette (D.palette, by cell value): each cell filled with
  // its colour, its glyph over it in black or white, whichever shows.
  const PALETTE = D.palette || {};
  function contrast(hex) {
    const n = parseInt(String(hex).slice(1), 16);
    return 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255) > 150 ? "#000" : "#fff";
  }
  function drawCells(g, cells, ox, oy) {
    const info = D.grids[g];
    ctx.font = Math.floor(cell * 0.7) + "px sans-serif";
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (let y = 0; y < info.h; y++) {
      for (let x = 0; x < info.w; x++) {
        const c = cells[y * info.w + x], p = PALETTE[c] || { glyph: String.fromCharCode(c), colour: "#f6f6f6" };
        const px = ox + x * cell, py = oy + y * cell;
        ctx.fillStyle = p.colour;
        ctx.fillRect(px, py, cell, cell);
        if (p.glyph && p.glyph.trim() && cell >= 8) {
          ctx.fillStyle = contrast(p.colour);
          ctx.fillText(p.glyph, px + cell / 2, py + cell / 2 + 1);
        }
      }
    }
    ctx.strokeStyle = "rgba(0,0,0,0.2)";
    ctx.lineWidth = 1;
    for (let i = 0; i <= info.w; i++) { ctx.beginPath(); ctx.moveTo(ox + i * cell + 0.5, oy); ctx.lineTo(ox + i * cell + 0.5, oy + info.h * cell); ctx.stroke(); }
    for (let j = 0; j <= info.h; j++) { ctx.beginPath(); ctx.moveTo(ox, oy + j * cell + 0.5); ctx.lineTo(ox + info.w * cell, oy + j * cell + 0.5); ctx.stroke(); }
  }
  function drawMarks() {
    for (const m of D.frames[frame].marks) {
      const [ox, oy] = origin(m.g);
      const px = ox + m.x * cell, py = oy + m.y * cell;
      if (m.kind === "head") {
        const s = Math.max(cell, 5), o = (s - cell) / 2;
        ctx.fillStyle = seatColor(m.seat);
        ctx.fillRect(px - o, py - o, s, s);
        ctx.strokeStyle = "#000"; ctx.lineWidth = 1;
        ctx.strokeRect(px - o - 0.5, py - o - 0.5, s + 1, s + 1);
      } else {
        ctx.strokeStyle = "#111"; ctx.lineWidth = Math.max(2, Math.min(4, cell / 10));
        ctx.strokeRect(px + 1.5, py + 1.5, cell - 3, cell - 3);
      }
    }
  }
  // What the frame on screen highlights: the winning line of a game of
  // stones or discs, on the frame it ends in; a Battleship ship sunk in
  // this turn. {kind, g, cells: [[x, y], ...]} or null.
  function winLine(g, cells) {
    const f = D.frames[frame], info = D.grids[g];
    const k = +(D.params || {}).k || 0;
    if (!f.over || D.outcome.winner < 0 || k < 1 || (info.kind !== "stones" && info.kind !== "discs")) return null;
    const m = f.marks.find((m) => m.kind === "last" && m.g === g);
    if (!m) return null;
    const at = (x, y) => (x >= 0 && y >= 0 && x < info.w && y < info.h ? cells[y * info.w + x] : -1);
    const c = at(m.x, m.y);
    if (c !== 88 && c !== 79) return null;
    for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      let a = 0, b = 0;
      while (at(m.x - (a + 1) * dx, m.y - (a + 1) * dy) === c) a++;
      while (at(m.x + (b + 1) * dx, m.y + (b + 1) * dy) === c) b++;
      if (a + b + 1 >= k) {
        const run = [];
        for (let i = -a; i <= b; i++) run.push([m.x + i * dx, m.y + i * dy]);
        return { kind: "win", g, cells: run };
      }
    }
    return null;
  }
  function sunkShip(g) {
    const info = D.grids[g], l = layerOf(g), run = [];
    if (info.kind !== "sea") return null;
    for (const d of D.frames[frame].diff || []) {
      if (d[0] !== l) continue;
      for (let k = 1; k + 2 < d.length; k += 3) {
        if (d[k + 2] !== 35) continue; // '#'
        for (let c = d[k]; c < d[k] + d[k + 1]; c++) run.push([c % info.w, Math.floor(c / info.w)]);
      }
    }
    return run.length ? { kind: "sunk", g, cells: run } : null;
  }
  // At the end of a game won by sinking a fleet, the whole fleet sunk in
  // the loser's waters (grid p is seat p's).
  function sunkFleet(g) {
    const info = D.grids[g], cells = cur[layerOf(g)], run = [];
    if (info.kind !== "sea" || !D.frames[frame].over || D.outcome.winner < 0 || g !== 1 - D.outcome.winner) return null;
    for (let i = 0; i < cells.length; i++) {
      if (cells[i] === 83) return null; // 'S': a ship afloat
      if (cells[i] === 35) run.push([i % info.w, Math.floor(i / info.w)]);
    }
    return run.length ? { kind: "sunk", g, cells: run } : null;
  }
  let highlight = null;
  function drawHighlight() {
    highlight = null;
    for (let g = 0; g < G && !highlight; g++) highlight = winLine(g, cur[layerOf(g)]) || sunkFleet(g) || sunkShip(g);
    document.body.dataset.highlight = highlight ? highlight.kind : "";
    if (!highlight) return;
    const [ox, oy] = origin(highlight.g);
    const w = Math.max(2, Math.min(5, cell / 6));
    for (const [x, y] of highlight.cells) {
      ctx.strokeStyle = "#111"; ctx.lineWidth = w + 2;
      ctx.strokeRect(ox + x * cell + w / 2, oy + y * cell + w / 2, cell - w, cell - w);
      ctx.strokeStyle = "#ffd400"; ctx.lineWidth = w;
      ctx.strokeRect(ox + x * cell + w / 2, oy + y * cell + w / 2, cell - w, cell - w);
    }
    if (highlight.kind === "win") {
      const a = highlight.cells[0], b = highlight.cells[highlight.cells.length - 1];
      const cx = (p) => ox + p[0] * cell + cell / 2, cy = (p) => oy + p[1] * cell + cell / 2;
      ctx.lineCap = "round";
      // Thin enough to leave the stones' letters readable.
      for (const [col, lw] of [["rgba(17,17,17,0.7)", w / 2 + 2], ["#ffd400", w / 2]]) {
        ctx.strokeStyle = col; ctx.lineWidth = lw;
        ctx.beginPath(); ctx.moveTo(cx(a), cy(a)); ctx.lineTo(cx(b), cy(b)); ctx.stroke();
      }
      ctx.lineCap = "butt";
    }
  }
  function draw() {
    if (falling && falling.frame !== frame) falling = null;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    for (let g = 0; g < G; g++) {
      const [ox, oy] = origin(g);
      const cells = cur[layerOf(g)], kind = D.grids[g].kind;
      if (LABEL) {
        ctx.fillStyle = "#333"; ctx.font = "13px sans-serif"; ctx.textAlign = "left"; ctx.textBaseline = "alphabetic";
        ctx.fillText(named(D.grids[g].name), ox, 14);
      }
      drawAxes(g);
      if (kind === "land") drawLand(g, cells, ox, oy);
      else if (kind === "sea") drawSea(g, cells, ox, oy);
      else if (kind === "stones" || kind === "discs") drawStones(g, cells, ox, oy, kind === "discs");
      else drawCells(g, cells, ox, oy);
    }
    drawMarks();
    drawHighlight();
  }

  // The panel beside the board.
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const ms = (us) => (us / 1000).toFixed(us < 10000 ? 2 : 1) + " ms";
  const swatch = (seat) => '<span class="swatch" style="background:' + seatColor(seat) + '"></span>';
  // A seat's name in words: its bot's name, with its symbol in games of
  // X and O, and its seat when two bots have the same name.
  const SYMBOLS = D.grids.some((g) => g.kind === "stones" || g.kind === "discs") && D.bots.length === 2;
  function seatName(s) {
    const b = D.bots[s];
    if (!b) return "seat " + s;
    const twin = D.bots.some((o, i) => i !== s && o.name === b.name);
    const tags = [];
    if (SYMBOLS) tags.push(s === 0 ? "X" : "O");
    if (twin) tags.push("seat " + s);
    return b.name + (tags.length ? " (" + tags.join(", ") + ")" : "");
  }
  // Long names (paths) may break after a /, never inside a word.
  const breakable = (t) => esc(t).replace(/\//g, "/<wbr>");
  const who = (s) => swatch(s) + "<b>" + breakable(seatName(s)) + "</b>";
  // The game's words with its seats named: "X made 3 in a row",
  // "seat 1 forfeited".
  function named(text) {
    let t = String(text || "").replace(/\bseat (\d+)\b/g, (all, s) => (D.bots[+s] ? seatName(+s) : all));
    if (SYMBOLS) t = t.replace(/\b([XO])\b/g, (c) => seatName(c === "X" ? 0 : 1));
    return t;
  }
  const DID = {
    timeout: "timed out", crash: "crashed", illegal: "made an illegal move", protocol: "broke the protocol",
    output: "wrote too much output", memory: "ran out of memory",
    "referee-error": "was stopped by the referee's failure",
  };
  // failedAt is the turn a seat failed in, or 0.
  function failedAt(s) {
    for (const f of D.frames) for (const m of f.moves || []) if (m.seat === s && m.status !== "ok") return f.turn;
    return 0;
  }
  // A reason, its stderr lines (a traceback) apart in a preformatted block.
  function reasonHTML(r) {
    r = String(r || "");
    const i = r.indexOf("; stderr: ");
    if (i < 0 && r.indexOf("\n") < 0) return esc(r);
    if (i < 0) return '<pre class="why">' + esc(r) + "</pre>";
    return esc(r.slice(0, i)) + ', and its stderr ended with:<pre class="why">' + esc(r.slice(i + 10)) + "</pre>";
  }
  function panel() {
    const f = D.frames[frame];
    $("turn").textContent = frame === 0 ? "start (" + (N - 1) + " turns)" : "turn " + f.turn + " of " + D.frames[N - 1].turn;
    $("scrub").value = frame;
    $("goto").value = f.turn;
    document.body.dataset.frame = frame;
    canvas.setAttribute("aria-label", D.game + ", " + $("turn").textContent);
    const moved = {};
    for (const m of f.moves || []) moved[m.seat] = m;
    let h = '<tr><th>player</th><th>status</th><th>move</th><th>wall, CPU</th><th title="queries">q</th></tr>';
    D.bots.forEach((b, s) => {
      const m = moved[s];
      h += '<tr><td class="who">' + who(s) + "</td>";
      if (m) {
        h += '<td class="st ' + (m.status === "ok" ? "st-ok" : "st-bad") + '">' + esc(m.status) + "</td>" +
          '<td class="move">' + esc((m.move || []).join("; ")) + "</td>" +
          '<td class="num">' + ms(m.wall_us) + '<br><span class="cpu">' + ms(m.cpu_us) + '</span></td><td class="num">' + m.queries + "</td>";
      } else {
        h += '<td class="idle" colspan="4">' + (frame === 0 ? "" : "did not move this turn") + "</td>";
      }
      h += "</tr>";
      const state = (f.seats || [])[s];
      if (state) h += '<tr class="state"><td colspan="5">' + esc(state) + "</td></tr>";
    });
    $("seats").innerHTML = h;
    let d = "";
    D.bots.forEach((b, s) => {
      const m = moved[s];
      if (m && m.status !== "ok") d += '<div class="refused">' + who(s) + " " + esc(DID[m.status] || m.status) + " on turn " + f.turn + ": " + reasonHTML(m.reason) + "</div>";
      if (m && m.invalid) for (const r of m.invalid) d += '<div class="refused">' + who(s) + " refused: " + esc(r) + "</div>";
      if (m && (m.stderr || m.stderr_cut)) {
        const n = (m.stderr || "").length;
        d += '<details open class="turn-stderr" data-seat="' + s + '"><summary>' + who(s) + " wrote on stderr in turn " + f.turn + " (" + n + " bytes" +
          (m.stderr_cut ? ", " + m.stderr_cut + " more not kept" : "") + ")</summary><pre>" + esc(m.stderr || "") +
          (m.stderr_cut ? '<span class="cut">✂ ' + m.stderr_cut + " bytes not kept (256 KiB a turn, 8 MiB a match)</span>" : "") + "</pre></details>";
      }
      const tr = f.trace && f.trace[s];
      if (tr && tr.length) {
        d += "<details open><summary>" + swatch(s) + "transcript of seat " + s + " (" + esc(b.name) + "), " + tr.length + " lines</summary><pre>";
        for (const l of tr) {
          const arrow = l.dir === "in" ? "   <" : l.dir === "cut" ? "   ✂" : "bot>";
          for (const line of l.line.split("\n")) d += '<span class="' + esc(l.dir) + '">' + (l.t_us / 1000).toFixed(3).padStart(10) + "ms " + arrow + " " + esc(line) + "</span>\n";
        }
        d += "</pre></details>";
      }
    });
    if (f.over) d += '<div class="refused">the game ends here: ' + esc(named(f.over)) + "</div>";
    $("details").innerHTML = d;
    chartCursor();
    markMove();
  }
  // The result in words: who won, and how, with names.
  function headline() {
    const o = D.outcome, players = o.players || [];
    const failed = [];
    players.forEach((p, s) => {
      if (p.status !== "ok") {
        const t = failedAt(s);
        failed.push(seatName(s) + " " + (DID[p.status] || p.status) + (t ? " on turn " + t : ""));
      }
    });
    const how = failed.length ? failed.join("; ") : named(o.reason);
    if (o.winner >= 0) return [o.winner, seatName(o.winner) + " wins: " + how];
    return [-1, (failed.length ? "no winner: " : "") + how];
  }
  function result() {
    const o = D.outcome;
    const [w, words] = headline();
    let h = '<div id="headline">' + (w >= 0 ? swatch(w) : "") + esc(words) + "</div>";
    h += '<table class="players"><tr><th>player</th><th>status</th><th>score</th><th>reason</th></tr>';
    (o.players || []).forEach((p, s) => {
      h += '<tr><td class="who">' + who(s) + '</td><td class="st ' + (p.status === "ok" ? "st-ok" : "st-bad") + '">' + esc(p.status) +
        '</td><td class="num">' + p.score + '</td><td class="reason">' + reasonHTML(p.reason) + "</td></tr>";
    });
    h += "</table>";
    // Where the match turned (judge explain), each linked to its turn.
    const pts = (D.points || []).filter((p) => p.kind !== "end");
    if (pts.length) {
      h += '<div id="points"><b>Where it turned</b><ul>';
      pts.forEach((p) => {
        h += '<li><a href="#' + p.turn + '">turn ' + p.turn + "</a>: " + esc(p.text) + "</li>";
      });
      h += "</ul></div>";
    }
    $("result").innerHTML = h;
    let s = "";
    D.bots.forEach((b, i) => {
      s += "<details><summary>" + who(i) + ": " + esc((b.command || []).join(" ")) +
        " — " + (b.stderr_bytes || 0) + " bytes</summary><pre>" + esc(b.stderr || "(nothing)") + "</pre></details>";
    });
    $("stderr").innerHTML = s;
  }

  // Charts over the turns: every game's time per turn, from the moves'
  // records, then the numbers of the seats' lines: Splix's score and
  // land, Battleship's shots and hits. Plain SVG; a click jumps to the
  // turn.
  function series(re) {
    return D.bots.map((_, s) => ({ seat: s, vals: D.frames.map((f) => {
      const m = re.exec((f.seats || [])[s] || "");
      return m ? +m[1] : 0;
    }) }));
  }
  // times are each seat's wall and CPU time per turn, in ms, where it
  // moved (null where it did not).
  function times() {
    const out = [];
    D.bots.forEach((_, s) => {
      const of = (k) => D.frames.map((f) => {
        const m = (f.moves || []).find((m) => m.seat === s);
        return m ? m[k] / 1000 : null;
      });
      out.push({ seat: s, vals: of("wall_us"), name: "wall" }, { seat: s, vals: of("cpu_us"), name: "CPU", dash: true });
    });
    return out;
  }
  function chartsOf() {
    const kinds = D.grids.map((g) => g.kind), list = [];
    if (N > 1) list.push({ title: "time per turn (ms): wall —, CPU - -", lines: times(), log: true, id: "time" });
    if (kinds.includes("land")) list.push({ title: "score", lines: series(/score (\d+)/) }, { title: "land (cells)", lines: series(/land (\d+)/) });
    if (kinds.includes("sea")) list.push({ title: "shots fired", lines: series(/^(\d+) shots/) }, { title: "ship cells hit", lines: series(/(\d+) ship cells hit/) });
    // The numbers a game's view reports per seat (a plugin game's view),
    // a chart each, by name.
    const names = [...new Set(D.frames.flatMap((f) => Object.keys(f.numbers || {})))].sort();
    for (const name of names) {
      list.push({ title: name, id: "n-" + name.replace(/[^A-Za-z0-9_-]/g, "_"), lines: D.bots.map((_, s) => ({ seat: s,
        vals: D.frames.map((f) => (f.numbers && f.numbers[name] ? f.numbers[name][s] : null)) })) });
    }
    return list;
  }
  const charts = [];
  // chart adds to box an SVG chart of c.lines, each {seat, vals[frame]
  // (null: no point), dash}; on a log scale when c.log. Its markup is
  // parsed as HTML, which puts it in the SVG namespace.
  function chart(box, c) {
    const W = 380, H = 150, L = 40, B = 18, T = 20;
    const all = c.lines.flatMap((l) => l.vals).filter((v) => v !== null);
    let y, ticks;
    if (c.log) {
      // From the smallest power of ten under the values (0.01 ms at
      // least) to the first above them.
      const lo = Math.min(0, Math.floor(Math.log10(Math.max(0.01, Math.min(...all.filter((v) => v > 0), 1)))));
      const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...all, 0.01))));
      y = (v) => T + (H - T - B) * (1 - (Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo));
      ticks = [];
      for (let e = lo; e <= hi; e++) ticks.push(10 ** e);
    } else {
      const max = Math.max(1, ...all);
      y = (v) => T + (H - T - B) * (1 - v / max);
      ticks = [0, max];
    }
    const x = (f) => L + (N > 1 ? (f * (W - L - 6)) / (N - 1) : 0);
    const el = (name, attrs, text) => "<" + name + Object.keys(attrs).map((k) => " " + k + '="' + esc(attrs[k]) + '"').join("") + ">" +
      (text === undefined ? "" : esc(text)) + "</" + name + ">";
    const bottom = H - B;
    let m = el("text", { x: L, y: 13, class: "title" }, c.title) +
      el("line", { x1: L, y1: bottom, x2: W - 6, y2: bottom, class: "axis" }) +
      el("line", { x1: L, y1: T, x2: L, y2: bottom, class: "axis" }) +
      el("text", { x: W - 6, y: H - 4, class: "tick", "text-anchor": "end" }, "turn " + D.frames[N - 1].turn);
    for (const v of ticks) {
      m += el("text", { x: L - 4, y: y(v) + 3, class: "tick", "text-anchor": "end" }, String(+v.toPrecision(3)));
      if (c.log) m += el("line", { x1: L, y1: y(v), x2: W - 6, y2: y(v), class: "grid" });
    }
    for (const l of c.lines) {
      const pts = [];
      l.vals.forEach((v, f) => { if (v !== null) pts.push(x(f).toFixed(1) + "," + y(v).toFixed(1)); });
      if (pts.length === 1) pts.push(pts[0]);
      m += el("polyline", { points: pts.join(" "), stroke: seatColor(l.seat), class: "series" + (l.dash ? " dash" : ""), "data-seat": l.seat,
        "data-name": l.name || "" });
    }
    m += el("line", { x1: x(0), y1: T, x2: x(0), y2: bottom, class: "cursor" });
    box.insertAdjacentHTML("beforeend", '<svg class="chart" viewBox="0 0 ' + W + " " + H + '" data-title="' + esc(c.title) + '"' +
      (c.id ? ' id="chart-' + c.id + '"' : "") + ">" + m + "</svg>");
    const svg = box.lastElementChild;
    svg.addEventListener("click", (e) => {
      const r = svg.getBoundingClientRect();
      const f = Math.round(((e.clientX - r.left) * W / r.width - L) * (N - 1) / (W - L - 6));
      setPlaying(false); show(Math.max(0, Math.min(N - 1, f)));
    });
    charts.push({ cursor: svg.querySelector(".cursor"), x });
  }
  function chartCursor() {
    for (const c of charts) {
      c.cursor.setAttribute("x1", c.x(frame)); c.cursor.setAttribute("x2", c.x(frame));
    }
  }
  function buildCharts() {
    const list = chartsOf();
    if (!list.length) return;
    const box = $("charts");
    for (const c of list) chart(box, c);
    box.hidden = false;
  }

  // The list of moves, a row a turn; a click on one shows its turn.
  function moveText(m) {
    if (m.status !== "ok") return m.status;
    return (m.move || []).join("; ") || "–";
  }
  function buildMoves() {
    const box = $("moves");
    if (!box || N < 2) return;
    let h = '<table><tr><th>turn</th><th>player</th><th>move</th></tr>';
    for (let f = 1; f < N; f++) {
      const ms = D.frames[f].moves || [];
      ms.forEach((m, i) => {
        h += '<tr class="mv' + (i === 0 ? " first" : "") + '" data-frame="' + f + '">' +
          (i === 0 ? '<td class="num" rowspan="' + ms.length + '">' + D.frames[f].turn + "</td>" : "") +
          '<td class="who">' + who(m.seat) + '</td><td class="' + (m.status === "ok" ? "move" : "move st-bad") + '">' + esc(moveText(m)) + "</td></tr>";
      });
      if (!ms.length) h += '<tr class="mv first" data-frame="' + f + '"><td class="num">' + D.frames[f].turn + '</td><td colspan="2" class="idle">no moves</td></tr>';
    }
    box.innerHTML = h + "</table>";
    box.addEventListener("click", (e) => {
      const tr = e.target.closest("tr[data-frame]");
      if (tr) { setPlaying(false); show(+tr.dataset.frame); }
    });
    $("moves-box").hidden = false;
  }
  let marked = [];
  // markMove marks the rows of the frame on screen, and scrolls the list
  // (not the page) to them.
  function markMove() {
    const box = $("moves");
    if (!box) return;
    for (const r of marked) r.classList.remove("now");
    marked = [...box.querySelectorAll('tr[data-frame="' + frame + '"]')];
    for (const r of marked) r.classList.add("now");
    if (marked.length) {
      const r = marked[0], top = r.offsetTop, bottom = marked[marked.length - 1].offsetTop + marked[marked.length - 1].offsetHeight;
      if (top < box.scrollTop + 20 || bottom > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    } else if (frame === 0) box.scrollTop = 0;
  }
  function show(f) {
    const step = f === frame + 1;
    seek(f);
    draw();
    panel();
    if (step && !playing) drop();
    if (!playing) keepHash();
  }
  // The address says the frame on screen (viewer.html#40), to be copied;
  // the start has none.
  function keepHash() {
    if (N < 2) return;
    const want = frame ? "#" + frame : "";
    if (location.hash === want || !location.hash && !want) return;
    try { history.replaceState(null, "", want || location.pathname + location.search); } catch (e) { /* a page that cannot */ }
  }
  // hashFrame is the frame the address asks for (#40), or -1.
  function hashFrame() {
    const at = /^#(\d+)$/.exec(location.hash);
    return at ? +at[1] : -1;
  }
  // Connect Four: the disc just dropped falls from the top to its cell.
  let dropping = 0;
  function drop() {
    const m = D.frames[frame].marks.find((m) => m.kind === "last" && D.grids[m.g].kind === "discs");
    if (!m) return;
    const start = performance.now(), at = frame, id = ++dropping;
    const ms = 60 + 25 * m.y;
    function step(t) {
      if (id !== dropping || frame !== at) return;
      const p = Math.min(1, (t - start) / ms);
      falling = p < 1 ? { frame: at, g: m.g, x: m.x, y: m.y, seat: m.seat, at: p * p } : null;
      draw();
      if (p < 1) requestAnimationFrame(step);
    }
    requestAnimationFrame(step);
  }

  // Playing.
  let playing = false, last = 0, acc = 0;
  function tick(t) {
    if (!playing) return;
    const rate = +$("speed").value;
    acc += last ? (t - last) * rate / 1000 : 0;
    last = t;
    const steps = Math.floor(acc);
    if (steps > 0) {
      acc -= steps;
      const to = Math.min(N - 1, frame + steps);
      for (let f = frame + 1; f <= to; f++) seek(f);
      draw(); panel();
      if (frame >= N - 1) { setPlaying(false); keepHash(); return; }
    }
    requestAnimationFrame(tick);
  }
  function setPlaying(p) {
    const was = playing;
    playing = p && N > 1;
    if (was && !playing) keepHash();
    $("play").textContent = playing ? "pause" : "play";
    document.body.dataset.playing = playing;
    if (playing) {
      if (frame >= N - 1) show(0);
      last = 0; acc = 0;
      requestAnimationFrame(tick);
    }
  }

  // Wiring.
  $("title").textContent = D.game + ": " + D.bots.map((b) => b.name).join(" vs ");
  $("subtitle").textContent = "seed " + D.seed + ", " + Object.keys(D.params || {}).sort().map((k) => k + "=" + D.params[k]).join(" ");
  $("scrub").max = N - 1;
  $("first").onclick = () => { setPlaying(false); show(0); };
  $("prev").onclick = () => { setPlaying(false); show(frame - 1); };
  $("next").onclick = () => { setPlaying(false); show(frame + 1); };
  $("last").onclick = () => { setPlaying(false); show(N - 1); };
  $("play").onclick = () => setPlaying(!playing);
  $("scrub").oninput = (e) => { setPlaying(false); show(+e.target.value); };
  $("goto").onchange = (e) => {
    const t = +e.target.value;
    let f = D.frames.findIndex((fr) => fr.turn >= t);
    if (f < 0) f = N - 1;
    setPlaying(false); show(f);
  };
  if (D.layers > G) {
    const sel = $("seeing");
    sel.innerHTML = '<option value="-1">spectator (everything)</option>' +
      D.bots.map((b, s) => '<option value="' + s + '">what seat ' + s + " (" + esc(b.name) + ") sees</option>").join("");
    sel.onchange = () => { seeing = +sel.value; draw(); };
    $("seeing-label").hidden = false;
  }
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "SELECT")) return;
    if (e.key === "ArrowRight") { setPlaying(false); show(frame + 1); }
    else if (e.key === "ArrowLeft") { setPlaying(false); show(frame - 1); }
    else if (e.key === " ") { setPlaying(!playing); }
    else if (e.key === "Home") { setPlaying(false); show(0); }
    else if (e.key === "End") { setPlaying(false); show(N - 1); }
    else return;
    e.preventDefault();
  });
  window.addEventListener("resize", () => { layout(); draw(); });
  // viewer.html#40 opens at frame 40, and going to #12 later shows frame
  // 12 (a link in the page, an address typed, back and forward).
  window.addEventListener("hashchange", () => {
    const f = hashFrame();
    if (f >= 0 && f !== frame) { setPlaying(false); show(f); }
  });
  layout();
  result();
  buildCharts();
  buildMoves();
  if (hashFrame() >= 0) seek(hashFrame());
  draw();
  panel();
  // For scripts and tests: where the viewer is and a way to move it.
  window.viewer = {
    frames: N,
    get frame() { return frame; },
    get turn() { return D.frames[frame].turn; },
    show: (f) => { setPlaying(false); show(f); },
    see: (s) => { seeing = s; draw(); },
    cells: (layer) => Array.from(cur[layer]),
    // The cells highlighted on screen: {kind: "win" or "sunk", g, cells}.
    get highlight() { return highlight; },
    axes: (g) => axisLabels(g),
    // For pages that draw a game as it is played (judge play --web):
    // put draws other cells (one array per layer) and marks in place of
    // the first frame's, and with end ({reason, winner, params}) as the
    // end of the game, its winning line or sunk fleet highlighted;
    // geometry says where the cells are on the canvas.
    put: (layers, marks, end) => {
      layers.forEach((c, i) => cur[i].set(c));
      D.frames[0].marks = marks;
      if (end) {
        D.frames[0].over = end.reason || "over";
        D.outcome.winner = end.winner;
        D.params = end.params || {};
      } else delete D.frames[0].over;
      frame = 0; draw();
    },
    geometry: () => ({ cell, origins: D.grids.map((_, g) => origin(g)) }),
  };
  document.body.dataset.ready = "true";
})();

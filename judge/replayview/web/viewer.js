"use strict";
// The replay viewer: decodes the frames of the data block incrementally
// (the cells at the start, then the cells each turn changed) and draws the
// turn on screen on one canvas.
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd"];
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

  // Layout: the grids side by side, a label above each.
  const LABEL = G > 1 ? 20 : 0, GAP = 16;
  let cell = 1, pad = 0;
  function layout() {
    const cols = D.grids.reduce((s, g) => s + g.w, 0);
    const rows = Math.max(...D.grids.map((g) => g.h));
    const maxW = Math.max(240, Math.min(760, window.innerWidth - 40));
    const maxH = Math.max(240, Math.min(760, window.innerHeight - 140));
    cell = Math.max(1, Math.floor(Math.min((maxW - GAP * (G - 1)) / cols, (maxH - LABEL) / rows)));
    pad = cell >= 12 ? 2 : 0;
    canvas.width = cols * cell + GAP * (G - 1);
    canvas.height = rows * cell + LABEL;
  }
  function origin(g) {
    let x = 0;
    for (let i = 0; i < g; i++) x += D.grids[i].w * cell + GAP;
    return [x, LABEL];
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
    ctx.fillStyle = discs ? "#2050b0" : "#e6c27a";
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
        else if (c === 88) fill = discs ? "#e02020" : COLORS[0];
        else if (c === 79) fill = discs ? "#f5d000" : COLORS[1];
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
      ctx.fillStyle = falling.seat === 0 ? "#e02020" : "#f5d000";
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
  function drawMarks() {
    for (const m of D.frames[frame].marks) {
      const [ox, oy] = origin(m.g);
      const px = ox + m.x * cell, py = oy + m.y * cell;
      if (m.kind === "head") {
        const s = Math.max(cell, 5), o = (s - cell) / 2;
        ctx.fillStyle = COLORS[m.seat % 5];
        ctx.fillRect(px - o, py - o, s, s);
        ctx.strokeStyle = "#000"; ctx.lineWidth = 1;
        ctx.strokeRect(px - o - 0.5, py - o - 0.5, s + 1, s + 1);
      } else {
        ctx.strokeStyle = "#111"; ctx.lineWidth = Math.max(2, cell / 10);
        ctx.strokeRect(px + 1.5, py + 1.5, cell - 3, cell - 3);
      }
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
        ctx.fillText(D.grids[g].name, ox, 14);
      }
      if (kind === "land") drawLand(g, cells, ox, oy);
      else if (kind === "sea") drawSea(g, cells, ox, oy);
      else drawStones(g, cells, ox, oy, kind === "discs");
    }
    drawMarks();
  }

  // The panel beside the board.
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const ms = (us) => (us / 1000).toFixed(us < 10000 ? 2 : 1) + " ms";
  const swatch = (seat) => '<span class="swatch" style="background:' + COLORS[seat % 5] + '"></span>';
  function panel() {
    const f = D.frames[frame];
    $("turn").textContent = frame === 0 ? "start (" + (N - 1) + " turns)" : "turn " + f.turn + " of " + D.frames[N - 1].turn;
    $("scrub").value = frame;
    $("goto").value = f.turn;
    document.body.dataset.frame = frame;
    canvas.setAttribute("aria-label", D.game + ", " + $("turn").textContent);
    const moved = {};
    for (const m of f.moves || []) moved[m.seat] = m;
    let h = "<tr><th>seat</th><th>status</th><th>wall</th><th>CPU</th><th>queries</th><th>move</th><th>state</th></tr>";
    D.bots.forEach((b, s) => {
      const m = moved[s];
      h += "<tr><td>" + swatch(s) + s + " " + esc(b.name) + "</td>";
      if (m) {
        h += '<td class="' + (m.status === "ok" ? "st-ok" : "st-bad") + '">' + esc(m.status) + "</td>" +
          '<td class="num">' + ms(m.wall_us) + '</td><td class="num">' + ms(m.cpu_us) + '</td><td class="num">' + m.queries + "</td>" +
          "<td>" + esc((m.move || []).join("; ")) + "</td>";
      } else {
        h += '<td class="idle" colspan="5">' + (frame === 0 ? "" : "did not move this turn") + "</td>";
      }
      h += "<td>" + esc((f.seats || [])[s] || "") + "</td></tr>";
    });
    $("seats").innerHTML = h;
    let d = "";
    D.bots.forEach((b, s) => {
      const m = moved[s];
      if (m && m.reason) d += '<div class="refused">' + swatch(s) + "seat " + s + ": " + esc(m.reason) + "</div>";
      if (m && m.invalid) for (const r of m.invalid) d += '<div class="refused">' + swatch(s) + "seat " + s + " refused: " + esc(r) + "</div>";
      const tr = f.trace && f.trace[s];
      if (tr && tr.length) {
        d += "<details open><summary>" + swatch(s) + "transcript of seat " + s + " (" + esc(b.name) + "), " + tr.length + " lines</summary><pre>";
        for (const l of tr) {
          const arrow = l.dir === "in" ? "   <" : "bot>";
          for (const line of l.line.split("\n")) d += '<span class="' + esc(l.dir) + '">' + (l.t_us / 1000).toFixed(3).padStart(10) + "ms " + arrow + " " + esc(line) + "</span>\n";
        }
        d += "</pre></details>";
      }
    });
    if (f.over) d += '<div class="refused">the game ends here: ' + esc(f.over) + "</div>";
    $("details").innerHTML = d;
  }
  function result() {
    const o = D.outcome;
    let h = "<b>Result:</b> ";
    h += o.winner >= 0 ? swatch(o.winner) + "seat " + o.winner + " (" + esc(D.bots[o.winner].name) + ") wins: " + esc(o.reason) : "no winner: " + esc(o.reason);
    h += '<table style="margin-top:4px"><tr><th>seat</th><th>status</th><th>score</th><th>reason</th></tr>';
    (o.players || []).forEach((p, s) => {
      h += "<tr><td>" + swatch(s) + s + " " + esc(p.name) + '</td><td class="' + (p.status === "ok" ? "st-ok" : "st-bad") + '">' + esc(p.status) +
        '</td><td class="num">' + p.score + "</td><td>" + esc(p.reason || "") + "</td></tr>";
    });
    $("result").innerHTML = h + "</table>";
    let s = "";
    D.bots.forEach((b, i) => {
      s += "<details><summary>" + swatch(i) + "seat " + i + " " + esc(b.name) + ": " + esc((b.command || []).join(" ")) +
        " — " + (b.stderr_bytes || 0) + " bytes</summary><pre>" + esc(b.stderr || "(nothing)") + "</pre></details>";
    });
    $("stderr").innerHTML = s;
  }
  function show(f) {
    const step = f === frame + 1;
    seek(f);
    draw();
    panel();
    if (step && !playing) drop();
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
      if (frame >= N - 1) { setPlaying(false); return; }
    }
    requestAnimationFrame(tick);
  }
  function setPlaying(p) {
    playing = p && N > 1;
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
  layout();
  result();
  // viewer.html#40 opens at frame 40.
  const at = /^#(\d+)$/.exec(location.hash);
  if (at) seek(+at[1]);
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
    // For pages that draw a game as it is played (judge play --web):
    // put draws other cells (one array per layer) and marks in place of
    // the first frame's; geometry says where the cells are on the canvas.
    put: (layers, marks) => { layers.forEach((c, i) => cur[i].set(c)); D.frames[0].marks = marks; frame = 0; draw(); },
    geometry: () => ({ cell, origins: D.grids.map((_, g) => origin(g)) }),
  };
  document.body.dataset.ready = "true";
})();

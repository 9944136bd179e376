// The arena's page: the standings and the matches, polled from the API,
// and an entrant's submissions. Every name, reason and log is the bots'
// or the entrants' text: it is put on the page as text (textContent),
// never as HTML.
"use strict";

const arena = {
  token: sessionStorage.getItem("arena-token") || "",
  name: "",
  entrant: "",    // whose matches are shown; "" for all
  current: 0,     // the submission followed
  standings: null,
  submissions: [],
};
window.arena = arena;

const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function replayLink(name, text) {
  const a = el("a", text || "replay");
  a.href = "/view/" + encodeURIComponent(name);
  a.target = "_blank";
  a.rel = "noopener";
  return a;
}

async function api(path, opts) {
  opts = opts || {};
  const headers = opts.headers || {};
  if (arena.token) headers["Authorization"] = "Bearer " + arena.token;
  const r = await fetch(path, { ...opts, headers, cache: "no-store" });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) {
    const err = new Error((body && body.error) || (r.status + " " + r.statusText));
    err.status = r.status;
    throw err;
  }
  return body;
}

function fixed(x) { return Number(x).toFixed(0); }

function when(t) {
  const d = new Date(t);
  return isNaN(d) ? "" : d.toLocaleString();
}

async function loadStandings() {
  const s = await api("/api/standings");
  arena.standings = s;
  const plural = (n, w) => n + " " + w + (n === 1 ? "" : "es".slice(w.endsWith("ch") ? 0 : 1));
  $("summary").textContent = plural(s.matches, "ladder match") + " played, " + plural(s.standings.length, "bot");
  const tb = $("standings").tBodies[0];
  tb.replaceChildren();
  for (const x of s.standings) {
    const tr = el("tr", undefined, "entrant");
    if (x.name === arena.name) tr.classList.add("me");
    tr.dataset.name = x.name;
    tr.append(el("td", x.rank, "num"), el("td", x.name), el("td", fixed(x.rating), "num"),
      el("td", fixed(x.low) + " – " + fixed(x.high), "num"), el("td", x.played, "num"),
      el("td", x.wins, "num"), el("td", x.draws, "num"), el("td", x.losses, "num"), el("td", x.failures, "num"));
    tr.addEventListener("click", () => { arena.entrant = x.name; loadMatches(); });
    tb.append(tr);
  }
}

async function loadMatches() {
  const q = arena.entrant ? "?entrant=" + encodeURIComponent(arena.entrant) : "";
  const m = await api("/api/matches" + q);
  $("matches-title").textContent = arena.entrant ? "Matches of " + arena.entrant : "Latest matches";
  $("all-matches").hidden = !arena.entrant;
  const tb = $("matches").tBodies[0];
  tb.replaceChildren();
  const ranked = new Set(((arena.standings && arena.standings.standings) || []).map((x) => x.name));
  for (const x of m.matches) {
    const tr = el("tr");
    const rp = el("td");
    if (x.replay) rp.append(replayLink(x.replay));
    else if (x.replay_dropped) rp.append("dropped (the arena keeps its newest replays)");
    // Each entrant's name shows their matches; append() of a string
    // makes a text node.
    const seats = el("td");
    (x.seats || []).forEach((n, i) => {
      if (i > 0) seats.append(" vs ");
      if (!ranked.has(n) || n === arena.entrant) { seats.append(n); return; }
      const a = el("a", n);
      a.href = "#";
      a.addEventListener("click", (ev) => { ev.preventDefault(); arena.entrant = n; loadMatches(); });
      seats.append(a);
    });
    tr.append(el("td", when(x.finished)), el("td", x.test ? "test" : "ladder"),
      seats, el("td", x.result), el("td", x.reason), rp);
    tb.append(tr);
  }
}

const explain = {
  "queued": "waiting for its build",
  "building": "being built",
  "compile-error": "it did not build: the compiler's message is below. Fix it and submit again.",
  "testing": "built: playing its test matches against the reference bots",
  "active": "in the ladder: it plays the other bots",
  "retired": "replaced by a later submission",
  "benched": "the judge cannot play it: the reason is below. Fix it and submit again.",
  "failing": "it lost test matches by its own fault (a crash, a timeout, an illegal move): what happened, and at which turn, is below, with the replays. Fix it and submit again.",
};

function showCurrent(sub) {
  $("current").hidden = false;
  $("sub-id").textContent = "#" + sub.id;
  const st = $("sub-status");
  st.textContent = sub.status;
  st.className = "status-" + sub.status;
  $("current").dataset.status = sub.status;
  $("sub-explain").textContent = explain[sub.status] || "";
  $("sub-log").textContent = sub.log || "";
  const ul = $("sub-replays");
  ul.replaceChildren();
  (sub.replays || []).forEach((r, i) => {
    const li = el("li");
    li.append(replayLink(r, "test match " + (i + 1)));
    ul.append(li);
  });
}

async function loadMine() {
  if (!arena.token) return;
  const m = await api("/api/submissions");
  arena.name = m.name;
  arena.submissions = m.submissions;
  $("whoami").textContent = "signed in as " + m.name;
  $("upload-form").hidden = false;
  $("mine").hidden = m.submissions.length === 0;
  const tb = $("submissions").tBodies[0];
  tb.replaceChildren();
  for (const s of m.submissions) {
    const tr = el("tr", undefined, "entrant");
    tr.append(el("td", s.id, "num"), el("td", when(s.created)), el("td", s.status, "status-" + s.status));
    tr.addEventListener("click", () => { arena.current = s.id; showCurrent(s); });
    tb.append(tr);
  }
  if (!arena.current && m.submissions.length > 0) {
    arena.current = m.submissions.reduce((a, b) => (a.id > b.id ? a : b)).id;
  }
  const cur = m.submissions.find((s) => s.id === arena.current);
  if (cur) showCurrent(cur);
}

async function signIn(ev) {
  ev.preventDefault();
  arena.token = $("token").value.trim();
  arena.current = 0;
  sessionStorage.setItem("arena-token", arena.token);
  $("whoami").textContent = "";
  try {
    await loadMine();
  } catch (e) {
    $("whoami").textContent = e.status === 401 ? "unknown token" : e.message;
    $("whoami").className = "error";
    $("upload-form").hidden = true;
    return;
  }
  $("whoami").className = "";
}

async function upload(ev) {
  ev.preventDefault();
  $("upload-error").textContent = "";
  const fd = new FormData();
  const f = $("file").files[0];
  const u = $("url").value.trim();
  if (f) fd.append("file", f, f.name);
  else if (u) fd.append("url", u);
  else { $("upload-error").textContent = "choose a file or give a URL"; return; }
  $("upload").disabled = true;
  try {
    const r = await api("/api/submissions", { method: "POST", body: fd });
    arena.current = r.id;
    $("file").value = "";
    $("url").value = "";
    await loadMine();
  } catch (e) {
    $("upload-error").textContent = e.message;
  } finally {
    $("upload").disabled = false;
  }
}

async function tick() {
  const jobs = [loadStandings(), loadMatches()];
  if (arena.name) jobs.push(loadMine());
  const rs = await Promise.allSettled(jobs);
  const bad = rs.find((r) => r.status === "rejected");
  if (bad) $("summary").textContent = "the server does not answer: " + bad.reason.message;
  document.body.dataset.ready = "true";
}

async function poll() {
  await tick();
  setTimeout(poll, 2000);
}

document.addEventListener("DOMContentLoaded", () => {
  $("token").value = arena.token;
  $("token-form").addEventListener("submit", signIn);
  $("upload-form").addEventListener("submit", upload);
  $("all-matches").addEventListener("click", () => { arena.entrant = ""; loadMatches(); });
  if (arena.token) $("token-form").requestSubmit();
  poll();
});

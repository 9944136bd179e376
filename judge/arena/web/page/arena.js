// The arena's page, in the order an entrant needs it: the game and its
// rules, their bot (sign in, upload, its build and test matches), the
// standings, then every match, a page at a time. Polled from the API.
// Every name, reason and log is the bots' or the entrants' text: it is
// put on the page as text (textContent), never as HTML. Seeds come as
// strings (JavaScript's numbers hold 53 bits).
"use strict";

const PAGE = 50; // matches a page

const arena = {
  token: sessionStorage.getItem("arena-token") || "",
  name: "",
  info: null,      // /api/arena
  entrant: "",     // whose matches are shown; "" for all
  before: 0,       // the page of matches shown: older than this id; 0 for the newest
  newer: [],       // the pages before it, to go back
  current: 0,      // the submission followed
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

function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : word.endsWith("ch") ? "es" : "s");
}

// showEmpty shows the words of an empty table in p, or hides them.
function showEmpty(p, text) {
  p.hidden = !text;
  p.textContent = text || "";
}

// The game, its rules, and whether the arena still takes bots.
async function loadArena() {
  const a = await api("/api/arena");
  arena.info = a;
  $("game-name").textContent = a.game;
  document.title = a.game + ": judge arena";
  $("game-describe").textContent = a.describe || "";
  const params = Object.keys(a.params || {}).sort().map((k) => k + "=" + a.params[k]).join(" ");
  $("game-params").textContent = (a.rules !== a.game ? "the game " + a.rules + ", " : "") + (params ? "with " + params : "");
  $("rules-link").hidden = !a.guide;
  if (a.guide) $("rules-link").href = a.guide;
  $("url-field").hidden = !a.web_bots;
  $("frozen-notice").hidden = !a.frozen;
  document.body.dataset.frozen = a.frozen ? "true" : "false";
  // After the final, there is no form to upload with.
  if (a.frozen && $("upload-form")) $("upload-form").remove();
  $("signin-hint").textContent = a.frozen
    ? "Sign in with your token to see your submissions, their builds and their test matches."
    : "Sign in with the token your organiser gave you: then you upload your bot here and follow it, " +
      "from its build to its " + plural(a.test_matches, "test match") + (a.references ? " against the reference bots" : "") + ".";
}

// The columns of the standings: a column is its heading's text and what
// a row shows in it.
const standingColumns = [
  (x) => el("td", x.rank, "num"),
  (x) => el("td", x.name),
  (x) => el("td", fixed(x.rating), "num"),
  (x) => el("td", fixed(x.low) + " – " + fixed(x.high), "num"),
  (x) => el("td", x.played, "num"),
  (x) => el("td", x.wins, "num"),
  (x) => el("td", x.draws, "num"),
  (x) => el("td", x.losses, "num"),
  (x) => el("td", x.failures, "num"),
];

async function loadStandings() {
  const s = await api("/api/standings");
  arena.standings = s;
  $("summary").textContent = s.standings.length === 0 ? ""
    : plural(s.matches, "ladder match") + " played between " + plural(s.standings.length, "active bot") + ".";
  const tb = $("standings").tBodies[0];
  tb.replaceChildren();
  for (const x of s.standings) {
    const tr = el("tr", undefined, "entrant");
    if (x.name === arena.name) tr.classList.add("me");
    tr.dataset.name = x.name;
    tr.append(...standingColumns.map((c) => c(x)));
    tr.addEventListener("click", () => showMatchesOf(x.name));
    tb.append(tr);
  }
  $("standings").hidden = s.standings.length === 0;
  $("standings-empty").hidden = s.standings.length > 0;
  // The filter lists the bots of the standings, and the one shown.
  const names = s.standings.map((x) => x.name).sort();
  if (arena.entrant && !names.includes(arena.entrant)) names.push(arena.entrant);
  const sel = $("match-filter");
  const have = Array.from(sel.options).slice(1).map((o) => o.value);
  if (have.join("\n") !== names.join("\n")) {
    sel.replaceChildren(el("option", "every bot"));
    sel.options[0].value = "";
    for (const n of names) {
      const o = el("option", n);
      o.value = n;
      sel.append(o);
    }
  }
  sel.value = arena.entrant;
}

function showMatchesOf(name) {
  arena.entrant = name;
  arena.before = 0;
  arena.newer = [];
  $("match-filter").value = name;
  loadMatches();
}

async function loadMatches() {
  let q = "?limit=" + PAGE;
  if (arena.entrant) q += "&entrant=" + encodeURIComponent(arena.entrant);
  if (arena.before) q += "&before=" + arena.before;
  const m = await api("/api/matches" + q);
  $("matches-title").textContent = arena.entrant ? "Matches of " + arena.entrant : "Latest matches";
  $("all-matches").hidden = !arena.entrant;
  const tb = $("matches").tBodies[0];
  tb.replaceChildren();
  const ranked = new Set(((arena.standings && arena.standings.standings) || []).map((x) => x.name));
  for (const x of m.matches) {
    const tr = el("tr");
    tr.dataset.id = x.id;
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
      a.addEventListener("click", (ev) => { ev.preventDefault(); showMatchesOf(n); });
      seats.append(a);
    });
    tr.append(el("td", when(x.finished)), el("td", x.test ? "test" : "ladder"),
      seats, el("td", x.result), el("td", x.reason), rp);
    tb.append(tr);
  }
  $("matches").hidden = m.matches.length === 0;
  let empty = "";
  if (m.matches.length === 0) {
    if (arena.before) empty = "No older matches.";
    else if (arena.entrant) empty = "No matches of " + arena.entrant + " yet.";
    else empty = "No matches yet: the ladder starts once two bots are active.";
  }
  showEmpty($("matches-empty"), empty);
  arena.older = m.before || 0;
  $("older").hidden = !m.before;
  $("newer").hidden = arena.newer.length === 0;
  $("page-info").textContent = m.matches.length === 0 || (!m.before && arena.newer.length === 0) ? ""
    : "page " + (arena.newer.length + 1);
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

// What the build said, in words, and its log.
function buildWords(sub) {
  switch (sub.status) {
  case "queued":
  case "building":
    return arena.info && arena.info.frozen ? "Submissions closed before it was built: it plays no more." : "";
  case "compile-error":
  case "benched":
  case "failing":
    return sub.log ? "" : "The judge gave no reason.";
  default:
    return sub.log ? "Built, with these messages from the compiler:" : "Built: the compiler had nothing to say, no error and no warning.";
  }
}

// The result of a test match for the entrant in it.
function outcome(m, name) {
  if (m.winner < 0) return "draw";
  return m.seats[m.winner] === name ? "won" : "lost";
}

function showCurrent(sub) {
  $("current").hidden = false;
  $("sub-id").textContent = "#" + sub.id;
  const st = $("sub-status");
  st.textContent = sub.status;
  st.className = "status-" + sub.status;
  $("current").dataset.status = sub.status;
  let ex = explain[sub.status] || "";
  if (arena.info && arena.info.frozen) {
    if (sub.status === "testing") ex = "built, but submissions closed before its test matches were played: it plays no more";
    if (sub.status === "active") ex = "your bot when submissions closed: it plays the final";
  }
  $("sub-explain").textContent = ex;
  $("sub-build").textContent = buildWords(sub);
  $("sub-build").hidden = !$("sub-build").textContent;
  $("sub-log").textContent = sub.log || "";
  const tests = sub.tests || [];
  const tb = $("sub-tests").tBodies[0];
  tb.replaceChildren();
  for (const m of tests) {
    const tr = el("tr");
    const rp = el("td");
    if (m.replay) rp.append(replayLink(m.replay, "replay"));
    else if (m.replay_dropped) rp.append("dropped");
    const res = outcome(m, sub.entrant);
    tr.append(el("td", m.seats.filter((n) => n !== sub.entrant).join(", ")), el("td", res, "result-" + res), el("td", m.reason), rp);
    tb.append(tr);
  }
  $("sub-tests").hidden = tests.length === 0;
  let empty = "";
  if (tests.length === 0) {
    if (sub.status === "testing" && !(arena.info && arena.info.frozen)) empty = "Its test matches are being played: the first shows here once it ends.";
    else if (sub.status === "active" || sub.status === "retired") empty = "No test matches: this arena has no reference bots.";
    else empty = "None: a submission plays its test matches once it is built.";
  }
  showEmpty($("sub-tests-empty"), empty);
}

async function loadMine() {
  if (!arena.token) return;
  const m = await api("/api/submissions");
  arena.name = m.name;
  arena.submissions = m.submissions;
  $("whoami").textContent = "signed in as " + m.name;
  $("signin-hint").hidden = true;
  if ($("upload-form")) $("upload-form").hidden = false;
  $("mine").hidden = false;
  const tb = $("submissions").tBodies[0];
  tb.replaceChildren();
  for (const s of m.submissions) {
    const tr = el("tr", undefined, "entrant");
    if (s.id === arena.current) tr.classList.add("me");
    tr.append(el("td", s.id, "num"), el("td", when(s.created)), el("td", s.status, "status-" + s.status));
    tr.addEventListener("click", () => { arena.current = s.id; showCurrent(s); loadMine(); });
    tb.append(tr);
  }
  $("submissions").hidden = m.submissions.length === 0;
  $("submissions-empty").hidden = m.submissions.length > 0;
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
    arena.name = "";
    $("whoami").textContent = e.status === 401 ? "unknown token" : e.message;
    $("whoami").className = "error";
    if ($("upload-form")) $("upload-form").hidden = true;
    $("mine").hidden = true;
    $("current").hidden = true;
    $("signin-hint").hidden = false;
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
  else { $("upload-error").textContent = "choose a file" + (arena.info && arena.info.web_bots ? " or give a URL" : ""); return; }
  $("upload").disabled = true;
  try {
    const r = await api("/api/submissions", { method: "POST", body: fd });
    arena.current = r.id;
    $("file").value = "";
    $("url").value = "";
    await loadMine();
  } catch (e) {
    $("upload-error").textContent = e.message;
    if (e.status === 409) loadArena();
  } finally {
    $("upload").disabled = false;
  }
}

async function tick() {
  const jobs = [loadArena(), loadStandings().then(loadMatches)];
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
  $("all-matches").addEventListener("click", () => showMatchesOf(""));
  $("match-filter").addEventListener("change", (ev) => showMatchesOf(ev.target.value));
  $("match-filter-form").addEventListener("submit", (ev) => ev.preventDefault());
  $("older").addEventListener("click", () => {
    if (!arena.older) return;
    arena.newer.push(arena.before);
    arena.before = arena.older;
    loadMatches();
  });
  $("newer").addEventListener("click", () => {
    arena.before = arena.newer.pop() || 0;
    loadMatches();
  });
  if (arena.token) $("token-form").requestSubmit();
  poll();
});

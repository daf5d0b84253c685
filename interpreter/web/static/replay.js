// Replays: open a record (of the records folder, or a file sent from this browser), then
// step, jump or scrub through it decision by decision. Each step is drawn with the game
// page's own table code: the view model of the viewer (the public view unless the record is
// this machine's own and a seat is chosen), the decision asked there and the record's answer.
"use strict";
const $ = id => document.getElementById(id);
const WHERE = {title: $("headline"), order: $("order"), board: $("board"), players: $("players"),
               standings: $("standings"), rows: $("rows"), facts: $("facts"), hand: $("hand")};
const DECISION = {prompt: $("prompt"), shown: $("shown"), options: $("options"),
                  notNow: $("not-now"), range: $("range"), rangeWords: $("range-words"),
                  rangeInput: $("range-input")};
const PLAY_EVERY = 500;  // ms between two steps while playing
let HEAD = null;   // the open replay: {replay, title, game, count, own, seats}
let STATE = null;  // the step drawn
let WANT = null;   // the step asked for while another is on its way
let BUSY = false;
let PLAYING = null;

function problem(text) {
  $("problem").textContent = text || "";
  $("problem").hidden = !text;
}

// ------------------------------------------------------------ choosing a record
async function listRecords() {
  const lobby = await (await fetch("/api/lobby")).json();
  $("records-folder").textContent = "in " + lobby.records;
  const list = clear($("record-list"));
  if (!lobby.saved.length) list.append(el("li", {class: "dim", text: "none yet"}));
  for (const s of lobby.saved) {
    list.append(el("li", {class: "saved"},
      el("button", {class: "replay-open", "data-file": s.file, text: "Replay",
                    onclick: () => open(postJSON("/api/replays", {file: s.file}))}), " ",
      el("span", {text: `${s.ruleset}, ${s.players} players, seed ${s.seed}, ` +
                        `${plural(s.decisions, "decision")}` + (s.over ? ", over" : ", unfinished")}),
      el("span", {class: "dim", text: " · " + s.file})));
  }
}

async function upload(file) {
  const response = await fetch("/api/replays/upload", {method: "POST", body: file,
    headers: {"Content-Type": "application/json", "X-Rulebook-File": file.name.slice(-120)}});
  const body = await response.json();
  if (!response.ok) throw new Error(body.problem || "the server refused");
  return body;
}

async function open(opening) {
  problem("");
  try { HEAD = await opening; } catch (e) { problem(e.message); return; }
  const seat = clear($("seat"));
  seat.append(el("option", {value: "", text: "everyone (the public view)"}));
  if (HEAD.own) HEAD.seats.forEach((name, i) => seat.append(el("option", {value: i + 1, text: name})));
  seat.disabled = !HEAD.own;
  seat.title = HEAD.own ? "this machine's own record: any seat's view" :
    "the public view only: the record is not this machine's own";
  $("scrub").max = HEAD.count + 1;
  $("replay-step").max = HEAD.count + 1;
  $("count").textContent = `of ${HEAD.count} (then the end)`;
  $("choose").hidden = true;
  $("replay-bar").hidden = false;
  $("table").hidden = false;
  $("title").textContent = HEAD.game;
  document.title = `${HEAD.game} · replay · Rulebook`;
  const at = +(location.hash.split("/")[1] || 1);
  history.replaceState(null, "", `#${HEAD.replay}/${at}`);
  go(at);
}

// ------------------------------------------------------------ stepping
function go(number) {
  if (!HEAD) return;
  number = Math.max(1, Math.min(HEAD.count + 1, Math.round(number) || 1));
  WANT = number;
  $("scrub").value = number;
  if (document.activeElement !== $("replay-step")) $("replay-step").value = number;
  if (!BUSY) fetchStep();
}

async function fetchStep() {
  BUSY = true;
  try {
    while (WANT !== null) {
      const number = WANT;
      WANT = null;
      const seat = $("seat").value;
      const state = await postJSON(`/api/replays/${encodeURIComponent(HEAD.replay)}`,
                                   {number, seat: seat === "" ? null : +seat});
      if (WANT === null) draw(state);
    }
  } catch (e) {
    problem(e.message);
    stop();
  } finally {
    BUSY = false;
  }
}

function step(by) { go((STATE ? STATE.number : 1) + by); }

function play() {
  if (PLAYING) return stop();
  if (STATE && STATE.number > HEAD.count) go(1);
  $("play").textContent = "❚❚ pause";
  PLAYING = setInterval(() => {
    if (!STATE || STATE.number > HEAD.count || STATE.problem) return stop();
    if (!BUSY) step(1);
  }, PLAY_EVERY);
}

function stop() {
  if (PLAYING) clearInterval(PLAYING);
  PLAYING = null;
  $("play").textContent = "▶ play";
}

// ------------------------------------------------------------ drawing a step
function draw(state) {
  STATE = state;
  problem(state.problem || "");
  history.replaceState(null, "", `#${state.replay}/${state.number}`);
  $("scrub").value = state.number;
  if (document.activeElement !== $("replay-step")) $("replay-step").value = state.number;
  const end = state.number > state.count;
  $("where").textContent = end ? `· the end, after ${plural(state.count, "decision")}` :
    `· decision ${state.number} of ${state.count}`;
  drawTable(state.view, WHERE, {});
  const d = state.decision;
  $("decision-head").textContent = d ? `Decision ${d.number} · ${d.who}` :
    end ? "The end of the record" : "No decision";
  drawDecision(d, DECISION, {readOnly: true, given: d && !d.hidden ? d.given : undefined});
  const answer = clear($("answer"));
  if (d && d.hidden)
    answer.append(el("div", {class: "dim", text: d.count !== null && d.count !== undefined ?
      `${plural(d.count, "option")}: the question names cards this view may not see, so it ` +
      "and its answer are not shown" :
      "the question names cards this view may not see, so it and its answer are not shown"}));
  else if (d && d.answer !== undefined)
    answer.append(el("span", {class: "dim", text: "The record's answer: "}), el("b", {text: d.answer}));
  const result = clear($("result"));
  if (state.unfinished) result.append(el("div", {class: "dim", text:
    "The record stops here, before the game's end (a game saved while in progress)."}));
  if (state.result) {
    result.append(...scoresOf(state.result));
    if (state.result.same !== undefined)
      result.append(el("div", {class: state.result.same ? "dim" : "problem", text: state.result.same ?
        "The final state is the record's: the replay matches." :
        "The final state differs from the record's."}));
  }
  drawLog($("log"), state.log);
  document.body.dataset.step = String(state.number);
}

// ------------------------------------------------------------ controls
$("first").addEventListener("click", () => go(1));
$("back").addEventListener("click", () => step(-1));
$("next").addEventListener("click", () => step(1));
$("last").addEventListener("click", () => go(HEAD.count + 1));
$("play").addEventListener("click", play);
$("scrub").addEventListener("input", e => go(+e.target.value));
// the field jumps when it is left or Enter is pressed (not while a number is typed)
$("replay-step").addEventListener("change", e => { if (e.target.value !== "") go(+e.target.value); });
$("replay-step").addEventListener("keydown", e => {
  if (e.key === "Enter" && e.target.value !== "") go(+e.target.value);
});
$("seat").addEventListener("change", () => go(STATE ? STATE.number : 1));
$("upload").addEventListener("change", e => {
  if (e.target.files.length) open(upload(e.target.files[0]));
});
document.addEventListener("keydown", event => {
  if (!HEAD || event.target.tagName === "INPUT" || event.target.tagName === "SELECT" ||
      event.ctrlKey || event.metaKey || event.altKey) return;
  const moves = {ArrowRight: () => step(1), ArrowLeft: () => step(-1), Home: () => go(1),
                 End: () => go(HEAD.count + 1), " ": play};
  if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
});

// a replay still open on the server comes back on reload (#ID/N); a record of the folder
// is opened by its name (/replay?record=NAME, as the lobby and a results file link it);
// else the records are listed
const [opened] = location.hash.slice(1).split("/");
const named = new URLSearchParams(location.search).get("record");
(async () => {
  if (opened) {
    await open(postJSON(`/api/replays/${encodeURIComponent(opened)}`, {number: 1, seat: null})
      .then(state => ({replay: state.replay, title: state.title, game: state.game,
                       count: state.count, own: state.own, seats: state.seats})));
    if (HEAD) return;
    history.replaceState(null, "", location.pathname + location.search);
    problem("");
  }
  if (named) {
    await open(postJSON("/api/replays", {file: named}));
    if (HEAD) return;
  }
  listRecords();
})();

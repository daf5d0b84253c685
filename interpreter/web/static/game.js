// A seat's page (or the spectators'): draws what the server sends (the seat's view model and
// its decision), generically; sends answers.
"use strict";
const GAME = location.pathname.split("/").pop();
const TOKEN = location.hash.slice(1);  // the link's fragment: never sent in a request
let STATE = null, SOCKET = null;
// a set being chosen: the options toggled (by index), then the picks still to send
let PICKED = new Set();
let SENDING = null;  // {picks: [short keys…, "done"], next: decision number}
let ANSWERED = 0;  // the decision last answered: not open again until the server says

const $ = id => document.getElementById(id);
const WHERE = {title: $("headline"), order: $("order"), board: $("board"), players: $("players"),
               standings: $("standings"), rows: $("rows"), facts: $("facts"), hand: $("hand"),
               warnings: $("warnings")};
const DECISION = {prompt: $("prompt"), shown: $("shown"), options: $("options"),
                  notNow: $("not-now"), setControls: $("set-controls"), setCount: $("set-count"),
                  range: $("range"), rangeWords: $("range-words"), rangeInput: $("range-input")};

function send(message) {
  if (SOCKET && SOCKET.readyState === WebSocket.OPEN) SOCKET.send(JSON.stringify(message));
}

function sendAnswer(d, choice) {
  $("decision-problem").textContent = "";
  window.__sentAt = performance.now();
  ANSWERED = d.number;
  document.body.dataset.decision = "";
  send({type: "answer", decision: d.number, choice: choice});
}

function asked() {  // the decision open to answer now, if any
  const d = STATE && STATE.decision;
  return d && !SENDING && d.number !== ANSWERED ? d : null;
}

function answer(option) {
  if (!asked()) return;
  const d = STATE.decision;
  sendAnswer(d, d.numbers ? option.key : option.index);
}

function toggle(option) {
  const d = asked();
  if (!d) return;
  $("decision-problem").textContent = "";
  if (PICKED.has(option.index)) PICKED.delete(option.index);
  else if (d.some && PICKED.size >= d.some)
    $("decision-problem").textContent = `at most ${d.some} now: take one back first`;
  else PICKED.add(option.index);
  drawDecisionPanel(STATE);
}

// A set is chosen one pick a question (the engine asks again with the items left and
// 'done' last): the picks go one after another, each to the question that follows, by
// the option's short key (the same from one question to the next), then 'done'.
function confirmSet() {
  const d = asked();
  if (!d || !d.set) return;
  const picks = d.options.filter(o => PICKED.has(o.index)).map(o => o.short);
  const items = d.options.filter(o => o.key !== "done").map(o => o.short);
  SENDING = {picks: picks.concat(["done"]), next: d.number, items};
  PICKED = new Set();
  carryOnSet(d);
}

function carryOnSet(d) {
  if (!SENDING) return false;
  if (!d || d.number !== SENDING.next) return true;  // not yet: the next question will come
  // the same question still: a set of the items left, nothing else
  const items = d.set ? d.options.filter(o => o.key !== "done").map(o => o.short) : null;
  const same = items && items.length === SENDING.items.length &&
               items.every(x => SENDING.items.includes(x));
  const short = SENDING.picks[0];
  const option = same ? d.options.find(o => o.short === short) : null;
  if (!option) {  // the question ended by itself (as many as it takes, or none left)
    const left = SENDING.picks.filter(p => p !== "done").length;
    SENDING = null;
    if (left) $("decision-problem").textContent =
      `${plural(left, "pick")} not taken: the question ended before them`;
    return false;
  }
  SENDING.picks.shift();
  SENDING.items = SENDING.items.filter(x => x !== short);
  SENDING.next = d.number + 1;
  if (!SENDING.picks.length) SENDING = null;
  sendAnswer(d, option.index);
  return true;
}

function drawDecisionPanel(state) {
  const d = state.decision;
  $("waiting").textContent = state.result || state.problem ? "" :
    d ? "" : state.waiting ? `waiting for ${state.waiting}…` : "";
  // what changed since this seat last answered (the others' moves, its own move's effects,
  // the phases), folded as the terminal folds it: effects indented under their headline
  const news = clear($("news"));
  for (const line of state.news || [])
    news.append(el("li", {class: line.startsWith(" ") ? "effect" : "", text: line.trim()}));
  $("news-box").hidden = !(state.news || []).length;
  news.scrollTop = news.scrollHeight;  // a long news scrolls: its newest lines in sight
  // the questions taken for this seat (one possible answer) since its last answer, in place
  const taken = clear($("taken"));
  for (const line of state.taken || []) taken.append(el("li", {text: line}));
  taken.hidden = !(state.taken || []).length;
  $("decision-panel").classList.toggle("yours", !!d);
  $("decision-panel").classList.toggle("sending", !!SENDING);
  drawDecision(d, DECISION, {answer, toggle, picked: PICKED});
}

function drawResult(state) {
  const box = clear($("result"));
  if (state.problem) box.append(el("div", {class: "problem", text: "The game stopped: " + state.problem}));
  if (state.result) box.append(...scoresOf(state.result));
}

function draw(state) {
  const before = STATE && STATE.decision ? STATE.decision.number : null;
  STATE = state;
  const now = state.decision ? state.decision.number : null;
  if (now !== before) PICKED = new Set();
  if (SENDING) carryOnSet(state.decision);
  $("title").textContent = state.game;
  document.title = state.game + " · Rulebook";
  $("who").textContent = state.seat ? `· you are ${state.view.table.title.you}` : "· watching (the public view)";
  $("where").textContent = `decision ${state.number}`;
  const undo = $("undo");
  undo.hidden = state.seat === null;
  undo.disabled = state.undo !== "yes" || !!SENDING;
  undo.title = state.undo === "yes" ? "back to your previous decision" : (state.undo || "");
  $("pace").value = String(state.delay);
  $("pace").disabled = state.seat === null;
  drawTable(state.view, WHERE, {spaces: SENDING ? new Map() : spacesAsked(state.decision), choose: answer,
                                asked: state.decision ? state.decision.number : null,
                                over: !!state.result});
  drawDecisionPanel(state);
  drawLog($("log"), state.log);
  const earlier = (state.log_total || 0) - state.log.length;  // the page keeps the newest only
  $("log-earlier").hidden = earlier <= 0;
  $("log-earlier").textContent = earlier <= 0 ? "" : `${earlier} earlier ${earlier === 1 ? "entry" : "entries"} not ` +
    "shown here: the game's replay (Replays, once the game is saved: at its end, or when " +
    "the server stops) has every entry, move by move.";
  drawResult(state);
  const open = state.decision && !SENDING && state.decision.number !== ANSWERED;
  document.body.dataset.decision = open ? state.decision.number : "";
  document.body.dataset.over = state.result ? "yes" : "";
  if (window.__sentAt !== undefined && open) {
    (window.__latencies = window.__latencies || []).push(performance.now() - window.__sentAt);
    window.__sentAt = undefined;
  }
}

// States come as fast as the agents move: each frame draws the latest one only, and a state
// that asks this seat something is drawn at once.
let LATEST = null;
function drawSoon(state) {
  if (state.decision || state.result || state.problem) {
    LATEST = null;
    return draw(state);
  }
  const waiting = LATEST !== null;
  LATEST = state;
  if (waiting) return;
  requestAnimationFrame(() => { const s = LATEST; LATEST = null; if (s) draw(s); });
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  SOCKET = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(GAME)}`);
  SOCKET.onopen = () => SOCKET.send(JSON.stringify({token: TOKEN}));
  SOCKET.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "state") drawSoon(message);
    else if (message.type === "problem") {
      SENDING = null;
      ANSWERED = 0;
      $("decision-problem").textContent = message.text;
      if (LATEST) drawSoon(LATEST); else if (STATE) draw(STATE);
    } else if (message.type === "refused") {
      const refused = $("refused");
      refused.textContent = message.text; refused.hidden = false;
    }
  };
}

document.addEventListener("keydown", event => {
  if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT" ||
      event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "u") { undo(); return; }
  const d = asked();
  if (!d) return;
  if (d.set && event.key === "Enter") { event.preventDefault(); confirmSet(); return; }
  const shown = d.set ? d.options.filter(o => o.key !== "done") : d.options;
  const o = shown[KEYS.indexOf(event.key.toLowerCase())];
  if (KEYS.indexOf(event.key.toLowerCase()) >= 0 && o) (d.set ? toggle : answer)(o);
});
function undo() {
  if (!STATE || STATE.undo !== "yes" || SENDING) return;
  ANSWERED = 0;
  send({type: "undo"});
}
$("undo").addEventListener("click", undo);
$("pace").addEventListener("change", e => send({type: "pace", delay: +e.target.value}));
$("set-confirm").addEventListener("click", confirmSet);
$("range-send").addEventListener("click", () => {
  if (asked()) sendAnswer(asked(), +$("range-input").value);
});
$("range-input").addEventListener("keydown", event => {
  if (event.key === "Enter" && asked()) sendAnswer(asked(), +$("range-input").value);
});
connect();

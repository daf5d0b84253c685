// A seat's page (or the spectators'): draws what the server sends, generically; sends answers.
"use strict";
const GAME = location.pathname.split("/").pop();
const TOKEN = location.hash.slice(1);  // the link's fragment: never sent in a request
const KEYS = "123456789abcdefghijklmnopqrstvwxy";  // 'u' is undo
let STATE = null, SOCKET = null;

function send(message) {
  if (SOCKET && SOCKET.readyState === WebSocket.OPEN) SOCKET.send(JSON.stringify(message));
}

function answer(choice) {
  if (!STATE || !STATE.decision) return;
  document.getElementById("decision-problem").textContent = "";
  window.__sentAt = performance.now();
  send({type: "answer", decision: STATE.decision.number, choice: choice});
}

function cardBox(card, texts, extra) {
  const text = texts[card.text] || {name: card.name, facts: "", lines: []};
  return el("div", {class: "card"},
    el("div", {class: "card-name", text: card.name}),
    text.facts ? el("div", {class: "card-facts dim", text: text.facts}) : null,
    text.lines.map(line => el("div", {class: "card-line", text: line})),
    card.on ? el("div", {class: "card-on", text: card.on.join(", ")}) : null,
    extra || null);
}

function drawDecision(state) {
  const d = state.decision;
  const options = clear(document.getElementById("options"));
  const notNow = clear(document.getElementById("not-now"));
  const range = document.getElementById("range");
  document.getElementById("prompt").textContent = d ? d.prompt : "";
  document.getElementById("waiting").textContent = state.result ? "" :
    state.problem ? "" : d ? "" : state.waiting ? `waiting for ${state.waiting}…` : "";
  document.getElementById("decision-panel").classList.toggle("yours", !!d);
  range.hidden = !(d && d.range);
  if (!d) return;
  if (d.range) {
    const input = document.getElementById("range-input");
    input.min = d.range[0]; input.max = d.range[1]; input.value = d.range[0];
  }
  d.options.forEach((o, i) => {
    const key = i < KEYS.length ? KEYS[i] : "";
    const button = el("button", {class: "option", "data-key": o.key, "data-index": o.index,
                                 onclick: () => answer(d.numbers ? o.key : o.index)},
      key ? el("kbd", {text: key}) : null, el("span", {class: "label", text: o.label}),
      o.summary && !o.card ? el("span", {class: "dim summary", text: " " + o.summary}) : null);
    const item = el("li", {}, button);
    if (o.card) item.append(cardBox({name: o.card.name, text: "_"}, {_: o.card}));
    options.append(item);
  });
  for (const r of d.refused)
    notNow.append(el("li", {class: "refused"}, el("span", {class: "label", text: r.label}),
                         el("span", {text: " — not now: " + r.reason})));
}

function drawPlayers(view) {
  const box = clear(document.getElementById("players"));
  for (const p of view.players) {
    box.append(el("div", {class: "player" + (p.you ? " you" : "")},
      el("h3", {text: p.name + (p.you ? " (you)" : "")}),
      el("table", {class: "stocks"},
        p.stocks.map(s => el("tr", {}, el("td", {text: s.name}), el("td", {class: "num", text: s.value}),
          el("td", {class: "dim", text: s.production !== undefined ? `+${s.production}` : ""}))),
        p.tracks.map(t => el("tr", {}, el("td", {text: t.name}), el("td", {class: "num", text: t.value}), el("td"))))));
  }
}

function drawShared(view) {
  const tracks = clear(document.getElementById("tracks"));
  tracks.append(el("div", {class: "round", text:
    `${view.rounds_word} ${view.round}${view.phase ? " · " + view.phase : ""} · order: ${view.turn_order.join(", ")}`}));
  for (const t of view.tracks)
    tracks.append(el("div", {class: "track"}, el("span", {text: t.name + ": "}),
                     el("b", {text: `${t.value}${t.unit ? " " + t.unit : ""}`})));
  const zones = clear(document.getElementById("zones"));
  for (const z of view.zones) {
    const title = z.name + (z.owner ? ` (${z.owner})` : "");
    if (z.hidden) {
      if (z.count) zones.append(el("div", {class: "zone hidden-zone"}, el("span", {text: title + ": "}),
                                   el("span", {class: "dim", text: `${z.count} card${z.count === 1 ? "" : "s"}`})));
      continue;
    }
    if (!z.cards.length) continue;
    zones.append(el("div", {class: "zone"}, el("h3", {text: title}),
                    el("div", {class: "cards"}, z.cards.map(c => cardBox(c, view.cards)))));
  }
  const spaces = clear(document.getElementById("spaces"));
  if (view.spaces.length)
    spaces.append(el("h3", {text: "Tiles placed"}), el("ul", {},
      view.spaces.map(s => el("li", {text: `${s.space}: ${s.tile || ""}${s.owner ? " (" + s.owner + ")" : ""}`}))));
}

function drawHand(view) {
  const hand = clear(document.getElementById("hand"));
  document.getElementById("hand-panel").hidden = view.you === null;
  for (const z of view.hand) {
    if (view.hand.length > 1) hand.append(el("h3", {text: z.name}));
    if (!z.cards.length) hand.append(el("div", {class: "dim", text: "no cards"}));
    hand.append(el("div", {class: "cards"}, z.cards.map(c => cardBox(c, view.cards))));
  }
}

function drawLog(lines) {
  const log = clear(document.getElementById("log"));
  for (const line of lines) log.append(el("li", {text: line}));
  log.scrollTop = log.scrollHeight;
}

function drawResult(state) {
  const box = clear(document.getElementById("result"));
  if (state.problem) box.append(el("div", {class: "problem", text: "The game stopped: " + state.problem}));
  if (!state.result) return;
  box.append(el("h2", {text: state.result.finished ? "Final scores" : "Unfinished: nobody wins"}),
    el("table", {class: "scores"}, state.result.scores.map(s =>
      el("tr", {class: s.winner ? "winner" : ""}, el("td", {text: s.name}), el("td", {class: "num", text: s.score}),
         el("td", {text: s.winner ? "winner" : ""})))));
}

function draw(state) {
  STATE = state;
  document.getElementById("title").textContent = state.game;
  document.title = state.game + " · Rulebook";
  document.getElementById("who").textContent = state.seat ? `· you are seat ${state.seat}` : "· watching";
  document.getElementById("where").textContent = `decision ${state.number}`;
  const undo = document.getElementById("undo");
  undo.hidden = state.seat === null;
  undo.disabled = state.undo !== "yes";
  undo.title = state.undo === "yes" ? "back to your previous decision" : (state.undo || "");
  document.getElementById("pace").value = String(state.delay);
  document.getElementById("pace").disabled = state.seat === null;
  drawDecision(state);
  drawHand(state.view);
  drawPlayers(state.view);
  drawShared(state.view);
  drawLog(state.log);
  drawResult(state);
  document.body.dataset.decision = state.decision ? state.decision.number : "";
  document.body.dataset.over = state.result ? "yes" : "";
  if (window.__sentAt !== undefined && state.decision) {
    (window.__latencies = window.__latencies || []).push(performance.now() - window.__sentAt);
    window.__sentAt = undefined;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  SOCKET = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(GAME)}`);
  SOCKET.onopen = () => SOCKET.send(JSON.stringify({token: TOKEN}));
  SOCKET.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "state") draw(message);
    else if (message.type === "problem") document.getElementById("decision-problem").textContent = message.text;
    else if (message.type === "refused") {
      const refused = document.getElementById("refused");
      refused.textContent = message.text; refused.hidden = false;
    }
  };
}

document.addEventListener("keydown", event => {
  if (event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "u") { if (STATE && STATE.undo === "yes") send({type: "undo"}); return; }
  if (!STATE || !STATE.decision) return;
  const i = KEYS.indexOf(event.key.toLowerCase());
  const o = STATE.decision.options[i];
  if (i >= 0 && o) answer(STATE.decision.numbers ? o.key : o.index);
});
document.getElementById("undo").addEventListener("click", () => send({type: "undo"}));
document.getElementById("pace").addEventListener("change", e => send({type: "pace", delay: +e.target.value}));
document.getElementById("range-send").addEventListener("click", () =>
  answer(+document.getElementById("range-input").value));
connect();

// The watch page of a game of agents only: the game page, and a bar that steers the agents
// (pause, resume, one move at a time, the pace). It has its own websocket with the watch
// link's token, so it reads only what it needs (pace, paused, over) of what the server sends.
"use strict";
(function () {
  const game = location.pathname.split("/").pop();
  const secret = location.hash.slice(1);  // the link's fragment: never sent in a request
  let socket = null, paused = false, over = false;
  const send = message => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  const toggle = el("button", {id: "watch-pause", type: "button", text: "Pause (p)"});
  const step = el("button", {id: "watch-step", type: "button", text: "One move (s)",
                             title: "while paused: let the next agent move through"});
  const pace = el("select", {id: "watch-pace"},
    [["0", "instant"], ["0.25", "¼ s a move"], ["0.5", "½ s a move"], ["1", "1 s a move"],
     ["2", "2 s a move"], ["5", "5 s a move"]].map(([v, t]) => el("option", {value: v, text: t})));
  const status = el("span", {id: "watch-status", class: "dim"});
  const bar = el("div", {id: "watch-bar", class: "watch-bar"},
    el("strong", {text: "Watching agents"}), toggle, step,
    el("label", {}, "Pace ", pace), status);
  const header = document.querySelector("header");
  (header || document.body).after(bar);
  // the seat's pace control of the game page does not steer a watched game: this bar does
  const seatPace = document.getElementById("pace");
  if (seatPace && seatPace.closest("label")) seatPace.closest("label").style.display = "none";

  function show(state) {
    paused = !!state.paused;
    over = !!(state.result || state.problem);
    toggle.textContent = paused ? "Resume (p)" : "Pause (p)";
    toggle.disabled = over;
    step.disabled = over || !paused;
    pace.disabled = over;
    const value = String(state.delay);
    if (![...pace.options].some(o => o.value === value))
      pace.append(el("option", {value: value, text: `${value} s a move`}));
    pace.value = value;
    status.textContent = over ? "the game is over" : paused ? "paused" : "playing";
    document.body.dataset.paused = paused ? "yes" : "";
  }

  toggle.addEventListener("click", () => send({type: paused ? "resume" : "pause"}));
  step.addEventListener("click", () => send({type: "step"}));
  pace.addEventListener("change", () => send({type: "pace", delay: +pace.value}));
  document.addEventListener("keydown", event => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT" ||
        event.ctrlKey || event.metaKey || event.altKey || over) return;
    if (event.key === "p") send({type: paused ? "resume" : "pause"});
    else if (event.key === "s" && paused) send({type: "step"});
  });

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(game)}`);
  socket.onopen = () => socket.send(JSON.stringify({token: secret}));
  socket.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "state") show(message);
    else if (message.type === "problem") status.textContent = message.text;
  };
})();

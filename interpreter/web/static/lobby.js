// The lobby: a ruleset, its variants and mods, who plays each seat, a seed; start or resume.
"use strict";
let LOBBY = null;

function current() { return LOBBY.rulesets.find(r => r.key === document.getElementById("ruleset").value); }

function agentSelect(seat) {
  const select = el("select", {class: "seat-kind", "data-seat": seat},
    el("option", {value: "human", text: "a person"}),
    LOBBY.agents.map(a => el("option", {value: a.name, text: a.name})));
  const params = el("input", {class: "seat-params", placeholder: "parameters, e.g. iterations=200",
                              "data-seat": seat});
  select.value = seat === 1 ? "human" : "ismcts";  // as `rulebook play` seats
  const hint = el("span", {class: "dim seat-hint"});
  const showHint = () => {
    const agent = LOBBY.agents.find(a => a.name === select.value);
    params.hidden = !agent || !agent.params.length;
    hint.textContent = agent && agent.params.length
      ? "parameters: " + agent.params.map(p => p.name).join(", ") : "";
  };
  select.addEventListener("change", showHint);
  select.addEventListener("change", nameStart);
  showHint();
  return el("div", {class: "seat"}, el("span", {text: `Seat ${seat}: `}), select, params, hint);
}

function drawRuleset() {
  const rs = current();
  const problem = document.getElementById("ruleset-problem");
  problem.textContent = rs.problem || "";
  const players = document.getElementById("players");
  if (rs.problem) return;
  players.min = rs.min; players.max = rs.max;
  if (+players.value < rs.min || +players.value > rs.max) players.value = Math.max(rs.min, Math.min(2, rs.max));
  const variants = clear(document.getElementById("variants"));
  variants.append(el("legend", {text: "Variants"}));
  if (!rs.variants.length) variants.append(el("span", {class: "dim", text: "none"}));
  for (const v of rs.variants)
    variants.append(el("label", {class: "check", title: v.description},
      el("input", {type: "checkbox", value: v.id, class: "variant"}), v.name,
      el("span", {class: "dim", text: v.description ? " — " + v.description : ""})));
  const mods = clear(document.getElementById("mods"));
  mods.append(el("legend", {text: "House rules (mods)"}));
  if (!rs.mods.length) mods.append(el("span", {class: "dim", text: "none"}));
  for (const m of rs.mods)
    mods.append(el("label", {class: "check"},
      el("input", {type: "checkbox", value: m.number, class: "mod", "data-file": m.file,
                   onchange: cardsLink}), m.name,
      el("div", {class: "dim mod-text", text: [m.description, m.comment].filter(Boolean).join(" · ")})));
  drawSeats();
  cardsLink();
}

// the cards gallery of the game chosen, with the house rules ticked
function cardsLink() {
  const params = new URLSearchParams();
  for (const m of document.querySelectorAll(".mod:checked")) params.append("mod", m.dataset.file);
  const search = params.toString();
  document.getElementById("cards-link").href =
    "/cards/" + encodeURIComponent(document.getElementById("ruleset").value) + (search ? "?" + search : "");
}

function drawSeats() {
  // the seats already chosen stay as they were: only seats added or taken away change
  const before = [...document.querySelectorAll("#seats .seat")];
  const seats = clear(document.getElementById("seats"));
  seats.append(el("legend", {text: "Seats"}));
  const n = +document.getElementById("players").value;
  for (let i = 1; i <= n; i++) seats.append(before[i - 1] || agentSelect(i));
  nameStart();
}

// every seat an agent: the game is watched (paced, paused, a move at a time), not played
function nameStart() {
  const kinds = [...document.querySelectorAll("#seats .seat-kind")].map(s => s.value);
  const watch = kinds.length > 0 && !kinds.includes("human");
  document.getElementById("start").textContent = watch ? "Watch" : "Start";
  document.getElementById("start").title = watch
    ? "every seat is an agent: watch them play, at the pace chosen, with pause and one move at a time" : "";
}

function seatSpecs() {
  return [...document.querySelectorAll("#seats .seat")].map(div => {
    const kind = div.querySelector(".seat-kind").value;
    if (kind === "human") return "human";
    const params = div.querySelector(".seat-params").value.trim();
    return params ? kind + ":" + params.split(/[\s,:]+/).filter(Boolean).join(":") : kind;
  });
}

function showLinks(links) {
  const list = clear(document.getElementById("link-list"));
  for (const s of links.seats)
    list.append(el("li", {}, el("a", {href: s.link, text: s.name, class: "seat-link"})));
  if (links.watch)
    list.append(el("li", {}, el("a", {href: links.watch, class: "watch-link",
                                      text: "Watch and steer the agents (pause, pace, a move at a time)"})));
  list.append(el("li", {}, el("a", {href: links.spectator, text: "Spectators (the public view)",
                                    class: "spectator-link"})));
  document.getElementById("links").hidden = false;
}

async function start(event) {
  event.preventDefault();
  const problem = document.getElementById("start-problem");
  problem.textContent = "";
  const seed = document.getElementById("seed").value.trim();
  const data = {
    ruleset: document.getElementById("ruleset").value,
    players: +document.getElementById("players").value,
    variants: [...document.querySelectorAll(".variant:checked")].map(x => x.value),
    mods: [...document.querySelectorAll(".mod:checked")].map(x => +x.value),
    seats: seatSpecs(),
    seed: seed === "" ? null : +seed,
    delay: +document.getElementById("delay").value,
  };
  try {
    const links = await postJSON("/api/games", data);
    openGame(links);
  } catch (e) { problem.textContent = e.message; }
}

function openGame(links) {
  showLinks(links);
  // one person at this browser: straight to their seat (or to watch, when only agents play)
  if (links.seats.length <= 1)
    location.href = links.seats.length ? links.seats[0].link : (links.watch || links.spectator);
}

function drawSaved() {
  document.getElementById("records-folder").textContent = "in " + LOBBY.records;
  const list = clear(document.getElementById("saved-list"));
  if (!LOBBY.saved.length) list.append(el("li", {class: "dim", text: "none yet"}));
  for (const s of LOBBY.saved) {
    const who = s.agents.every(a => a !== "human") ? ", agents " + [...new Set(s.agents)].join(", ") : "";
    const li = el("li", {class: "saved"},
      el("span", {text: `${s.name}, ${s.players} players, seed ${s.seed}, ${s.decisions} decisions` +
                        who + (s.over ? ", over" : "")}),
      " ", el("a", {href: s.replay, class: "replay-link", text: "Replay"}));
    if (!s.over) {
      const button = el("button", {text: "Resume", class: "resume", "data-file": s.file});
      button.addEventListener("click", async () => {
        try { openGame(await postJSON("/api/resume", {file: s.file, delay: +document.getElementById("delay").value})); }
        catch (e) { li.append(el("div", {class: "problem", text: e.message})); }
      });
      li.append(" ", button);
    }
    list.append(li);
  }
  if (LOBBY.saved_count > LOBBY.saved.length)
    list.append(el("li", {class: "dim", text: `and ${LOBBY.saved_count - LOBBY.saved.length} older records ` +
                                              "in the folder (the newest are listed)"}));
}

async function init() {
  LOBBY = await (await fetch("/api/lobby")).json();
  const select = document.getElementById("ruleset");
  for (const r of LOBBY.rulesets) select.append(el("option", {value: r.key, text: r.name}));
  select.addEventListener("change", drawRuleset);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("start-form").addEventListener("submit", start);
  drawRuleset();
  drawSaved();
}
init();

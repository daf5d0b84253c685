// The cards gallery: a ruleset's cards with their generated text, searchable here, each with
// a stable anchor (#card-…); the mods chosen are layered in and the cards they change marked.
// Every string from a rule file goes in as text (el(), textContent), never as markup.
"use strict";
let GALLERY = null;

function rulesetName() { return decodeURIComponent(location.pathname.split("/")[2] || ""); }
function chosenMods() { return new URLSearchParams(location.search).getAll("mod"); }

function address(ruleset, mods, query) {
  const params = new URLSearchParams();
  for (const m of mods) params.append("mod", m);
  if (query) params.set("q", query);
  const search = params.toString();
  return "/cards/" + encodeURIComponent(ruleset) + (search ? "?" + search : "");
}

// "cost<10", "cost 12", "cost>=20": a test of a card's cost; other words: its name, text, tags
const COST = /\bcost\s*(<=|>=|<|>|=|:)?\s*(-?\d+)/g;
function matcher(query) {
  const tests = [];
  const rest = query.toLowerCase().replace(COST, (_, op, n) => {
    const v = +n;
    const compare = {"<": c => c < v, "<=": c => c <= v, ">": c => c > v, ">=": c => c >= v}[op]
      || (c => c === v);
    tests.push(card => card.cost !== null && card.cost !== undefined && compare(card.cost));
    return " ";
  });
  for (const word of rest.split(/\s+/).filter(Boolean))
    tests.push(card => card._words.includes(word));
  return card => tests.every(t => t(card));
}

function cardBox(card) {
  const box = el("article", {class: "card" + (card.mark ? " marked" : ""), id: card.anchor},
    el("div", {class: "card-name"}, el("a", {href: "#" + card.anchor, text: card.name})),
    card.facts ? el("div", {class: "card-facts dim", text: card.facts}) : null,
    card.lines.map(line => el("div", {class: "card-line", text: line})));
  if (card.mark) {
    const by = card.by && card.by.length ? " by " + card.by.join(", ") : " by the mods";
    box.append(el("div", {class: "card-mark", text: card.mark + by}));
  }
  if (card.before) {  // what the mods changed: the facts and lines that read otherwise before
    const facts = card.before.facts !== card.facts ? card.before.facts : "";
    const lines = card.before.lines.filter(line => !card.lines.includes(line));
    box.append(el("div", {class: "card-before"},
      el("div", {text: "Before the mods: " + (facts || lines.length ? facts : "the same text")}),
      lines.map(line => el("div", {text: line}))));
  }
  return box;
}

function draw() {
  const query = document.getElementById("search").value;
  const tag = document.getElementById("tag").value;
  const onlyChanged = document.getElementById("only-changed").checked;
  const test = matcher(query);
  const shown = GALLERY.cards.filter(c => test(c) && (!tag || c.tags.includes(tag)) &&
                                          (!onlyChanged || c.mark));
  const grid = clear(document.getElementById("gallery"));
  for (const card of shown) grid.append(cardBox(card));
  if (!shown.length) grid.append(el("div", {class: "nothing dim", text: "No card matches."}));
  document.getElementById("count").textContent =
    shown.length === GALLERY.cards.length ? `${shown.length} cards`
      : `${shown.length} of ${GALLERY.cards.length} cards`;
  history.replaceState(null, "", address(rulesetName() || GALLERY.key, chosenMods(), query)
                       + location.hash);
}

function drawMods() {
  const box = clear(document.getElementById("gallery-mods"));
  box.append(el("legend", {text: "House rules (mods)"}));
  box.hidden = !GALLERY.offered.length;
  for (const m of GALLERY.offered) {
    const input = el("input", {type: "checkbox", class: "gallery-mod", value: m.file, checked: m.on});
    input.addEventListener("change", () => {
      const mods = [...document.querySelectorAll(".gallery-mod:checked")].map(x => x.value);
      location.href = address(rulesetName(), mods, document.getElementById("search").value);
    });
    box.append(el("label", {title: m.description || ""}, input, " " + m.name));
  }
  const label = document.getElementById("only-changed-label");
  label.hidden = !GALLERY.mods.length;
}

function showTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  for (const old of document.querySelectorAll(".card.target")) old.classList.remove("target");
  const card = id ? document.getElementById(id) : null;
  if (card) { card.classList.add("target"); card.scrollIntoView({block: "center"}); }
}

async function init() {
  const select = document.getElementById("gallery-ruleset");
  const lobby = await (await fetch("/api/lobby")).json();
  for (const r of lobby.rulesets) select.append(el("option", {value: r.key, text: r.name}));
  select.addEventListener("change", () => { location.href = address(select.value, [], ""); });
  const name = rulesetName() || (lobby.rulesets[0] && lobby.rulesets[0].key);
  if (!name) return;
  const params = new URLSearchParams();
  for (const m of chosenMods()) params.append("mod", m);
  const response = await fetch("/api/cards/" + encodeURIComponent(name) + "?" + params.toString());
  const body = await response.json();
  if (!response.ok) {
    document.getElementById("gallery-problem").textContent = body.problem || "the server refused";
    return;
  }
  GALLERY = body;
  for (const c of GALLERY.cards) c._words = [c.name, c.facts, ...c.lines, ...c.tags].join("\n").toLowerCase();
  select.value = GALLERY.key;
  document.getElementById("title").textContent = "Cards of " + GALLERY.ruleset +
    (GALLERY.mods.length ? " with " + GALLERY.mods.join(", ") : "");
  document.title = "Cards of " + GALLERY.ruleset + " · Rulebook";
  const tags = [...new Set(GALLERY.cards.flatMap(c => c.tags))].sort();
  const tagSelect = document.getElementById("tag");
  for (const t of tags) tagSelect.append(el("option", {value: t, text: t}));
  const search = document.getElementById("search");
  search.value = new URLSearchParams(location.search).get("q") || "";
  search.addEventListener("input", draw);
  tagSelect.addEventListener("change", draw);
  document.getElementById("only-changed").addEventListener("change", draw);
  drawMods();
  const removed = clear(document.getElementById("removed"));
  for (const card of GALLERY.removed) removed.append(cardBox(card));
  document.getElementById("removed-panel").hidden = !GALLERY.removed.length;
  draw();
  showTarget();
  document.body.dataset.ready = "yes";
}
window.addEventListener("hashchange", showTarget);
init();

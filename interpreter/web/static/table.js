// The table one seat sees, drawn from the engine's view model (docs/engine.md, "The view"):
// maps as SVG hexes or squares, boards of frames as a row of boxes, tracks as scales,
// shared rows, piles, players' panels, standings, facts, and the seat's own hidden cards.
// Nothing here knows a game: every word comes from the model, and goes in as text.
// The game page and the replay page both draw with drawTable(view, where, how).
"use strict";

const SEAT_COLOURS = ["#c8553d", "#2e6fb5", "#3c9a5f", "#d9a21b", "#7d5ba6", "#4a4a4a"];
const BONUS_COLOURS = ["#8d6e63", "#ef8c2a", "#4f9d4f", "#6b7b8c", "#a05fb3", "#3f8fb0", "#b5a22b"];
const TILE_COLOURS = ["#4a78b8", "#5f9e4a", "#8a8f98", "#6c6f7d", "#a2703f", "#7a7f88", "#6e9a5b",
                      "#9c5fa8", "#c07a2c"];
const MARK_COLOURS = ["#c98a5a", "#a98cc0", "#c2b25e", "#7fb0a8", "#b8869b"];
const LAND = "#e7c8a3";
const WATER = "#8fc0e3";

// a seat's colour: the ruleset's for its player (view: panels: colour, '#rrggbb' from the
// model), else the seat's own; drawTable sets the ruleset's from the panels first
let GIVEN_COLOURS = new Map();
function seatColour(seat) {
  return GIVEN_COLOURS.get(seat) || SEAT_COLOURS[((seat || 1) - 1) % SEAT_COLOURS.length];
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

// who is who: a player's name → their seat (for colours), from the panels
function seatsOf(t) {
  const out = new Map();
  for (const p of t.panels) out.set(p.name, p.seat);
  return out;
}

function token(seat, name, extra) {
  return el("span", {class: "token", style: `background:${seatColour(seat)}`,
                     title: name + (extra ? " " + extra : ""), text: String(seat || "?")});
}

// ------------------------------------------------------------ cards
// The generated texts of the cards the table shows, by name (the view's 'texts'), set by
// drawTable: a card drawn by its name alone shows its whole text when pointed at or focused.
let TEXTS = {};
let cardPop = null;

function showCardPop(chip, text) {
  if (!cardPop) {
    cardPop = el("div", {class: "card-pop", role: "tooltip", id: "card-pop"});
    document.body.append(cardPop);
  }
  clear(cardPop).append(cardFace(text));
  cardPop.hidden = false;
  const r = chip.getBoundingClientRect();
  const w = cardPop.offsetWidth, h = cardPop.offsetHeight;
  let top = r.bottom + 4;
  if (top + h > window.innerHeight - 4 && r.top - h - 4 > 0) top = r.top - h - 4;  // above, if below has no room
  const left = Math.max(4, Math.min(r.left, window.innerWidth - w - 8));
  cardPop.style.left = `${left + window.scrollX}px`;
  cardPop.style.top = `${top + window.scrollY}px`;
}

function hideCardPop() { if (cardPop) cardPop.hidden = true; }

// A card as the model gives it: name, marks, resources, pieces, used actions, price, text.
function cardChip(card, seats, opts) {
  const o = opts || {};
  const face = !card.text && card.name ? TEXTS[card.name] : null;
  const chip = el("div", {class: "chip" + (card.marks && card.marks.length ? " marked" : "") +
                                 (face ? " has-face" : ""),
                          title: card.text || ""},
    o.price !== undefined && o.price !== null ? el("span", {class: "price", text: o.price}) : null,
    el("span", {class: "chip-name", text: card.name}));
  if (face) {  // its text on pointing, on focus (the keyboard) and on a tap
    chip.tabIndex = 0;
    chip.setAttribute("aria-describedby", "card-pop");
    const show = () => showCardPop(chip, face);
    chip.addEventListener("mouseenter", show);
    chip.addEventListener("focus", show);
    chip.addEventListener("click", show);
    chip.addEventListener("mouseleave", hideCardPop);
    chip.addEventListener("blur", hideCardPop);
  }
  for (const m of card.marks || []) chip.append(el("span", {class: "badge mark", text: m}));
  for (const r of card.resources || [])
    chip.append(el("span", {class: "badge resource", text: `${r.amount} ${r.name}`}));
  for (const p of card.pieces || []) {
    const seat = seats.get(p.player);
    chip.append(el("span", {class: "cubes", title: `${p.player}: ${p.what || p.amount}`},
      el("span", {class: "cube", style: `background:${seatColour(seat)}`}),
      el("span", {text: "×" + p.amount})));
  }
  for (const u of card.used || []) chip.append(el("span", {class: "badge used", text: "used: " + u}));
  return chip;
}

// A card with its whole generated text: {name, facts, lines} (or a line split on ' · ').
function cardFace(text, extra) {
  return el("div", {class: "card"},
    el("div", {class: "card-name", text: text.name}),
    text.facts ? el("div", {class: "card-facts", text: text.facts}) : null,
    (text.lines || []).map(line => el("div", {class: "card-line", text: line})),
    extra || null);
}

function textOf(card, texts) {
  if (texts && texts[card.name]) return texts[card.name];
  const parts = (card.text || "").split(" · ").filter(Boolean);
  return {name: card.name, facts: parts.length > 1 ? parts[0] : "", lines: parts.length > 1 ? parts.slice(1) : parts};
}

// ------------------------------------------------------------ title and facts
// as the terminal's title says it (play/render.py): before the first round (setup) no
// round is counted, the phase says it; a turn that comes round again is counted within
// the round ('turn 2 of 3'), else the game's turn
function titleWords(head) {
  const parts = head.round || !head.phase ?
    [`${head.round_word} ${head.round}` + (head.last_round ? ` of ${head.last_round}` : "")] : [];
  if (head.phase) parts.push(head.phase);
  const whose = head.turn ? ` (${head.turn})` : "";
  if (head.turn_round) parts.push(`turn ${head.turn_round} of ${head.turns_each}` + whose);
  else if (head.turn_number) parts.push(`turn ${head.turn_number}` + whose);
  if (head.variants && head.variants.length) parts.push("variants: " + head.variants.join(", "));
  return parts.join(" · ");
}

function valueWords(item) {
  if (item.hidden) return "hidden";
  if (item.value === undefined || item.value === null) return "";
  return String(item.value);
}

// A fact's words after its label, as the terminal says them: the value, and its text in
// brackets after it ('The Wheel, Writing (no cube is on them, so …)'), or the text alone.
function factWords(f) {
  const value = valueWords(f);
  return [value ? el("b", {text: value}) : null,
          f.text ? el("span", {text: value ? ` (${f.text})` : f.text}) : null];
}

// over: the game has ended, and a warning (a fact with 'when:') about what comes is moot
function drawFacts(t, over) {
  const facts = t.facts.filter(f => !(over && f.warning));
  if (!facts.length) return null;
  return el("dl", {class: "facts"}, facts.flatMap(f => [
    el("dt", {class: f.warning ? "warning" : "", text: f.label}), el("dd", {}, ...factWords(f))]));
}

// The warnings that hold now (the view's facts with 'when:'), beside the question, as the
// terminal shows them before every decision: what a player must not miss.
function drawWarnings(node, t, over) {
  clear(node);
  const warnings = over ? [] : t.facts.filter(f => f.warning);
  for (const f of warnings) node.append(el("li", {}, el("b", {text: f.label + ": "}), ...factWords(f)));
  node.hidden = !warnings.length;
}

// ------------------------------------------------------------ tracks
// A track as a scale: a cell for each step (each integer when there are few, else the steps
// its marks name), the rewards marked (those unlike the most common reward stand out),
// and a token for the value (a shared track) or for each player (a track of each player).
function drawTrack(track, seats) {
  const values = track.values ? track.values.map(v => v.value) : [track.value];
  const marks = track.marks || [];
  const low = track.min !== undefined ? track.min : Math.min(...values, ...marks.map(m => m.at));
  const high = track.max !== undefined ? track.max : Math.max(...values, ...marks.map(m => m.at));
  let steps = [];
  if (high - low <= 24) for (let v = low; v <= high; v++) steps.push(v);
  else steps = [...new Set([low, high, ...marks.map(m => m.at), ...values])].sort((a, b) => a - b);
  const words = marks.map(m => m.reward || "");
  const counts = {};
  for (const w of words) counts[w] = (counts[w] || 0) + 1;
  let common = "";
  for (const [w, n] of Object.entries(counts)) if (w && n * 4 >= words.length * 3) common = w;
  const byStep = new Map(marks.map(m => [m.at, m]));
  const W = 34, H = 46, top = 4;
  const box = svg("svg", {class: "track-svg", viewBox: `0 0 ${steps.length * W + 2} ${H + 18}`,
                          width: steps.length * W + 2, height: H + 18,
                          role: "img", "aria-label": track.name});
  const unit = track.unit ? " " + track.unit : "";
  steps.forEach((v, i) => {
    const x = 1 + i * W;
    const mark = byStep.get(v);
    const special = mark && mark.reward !== common;
    const reached = track.values ? false : v <= track.value;
    const g = svg("g", {class: "step" + (special ? " special" : "") + (mark ? " marked" : "")},
      svg("rect", {x, y: top, width: W - 2, height: H - 8, rx: 4,
                   fill: special ? "#f6e3c5" : reached ? "#dde8f3" : "#f4f3ef",
                   stroke: special ? "#c9892f" : "#c9c7c0"}),
      svg("text", {x: x + W / 2 - 1, y: top + 13, class: "step-number", text: v}));
    if (mark) {
      // a one-time reward someone already has: said, and drawn hollow
      const taken = mark.taken ? " (taken)" : "";
      g.append(svg("title", {text: `${v}${unit}: ${mark.text || mark.reward || "a mark"}${taken}`}));
      g.append(special ? svg("path", {d: `M${x + W / 2 - 1} ${top + 17} l5 5 l-5 5 l-5 -5 z`,
                                      fill: mark.taken ? "none" : "#c9892f", stroke: "#c9892f",
                                      class: mark.taken ? "mark-taken" : "mark-open"})
                       : svg("circle", {cx: x + W / 2 - 1, cy: top + 22, r: 2.5, fill: "#9a968c"}));
    } else g.append(svg("title", {text: `${v}${unit}`}));
    box.append(g);
  });
  const place = v => {
    let i = steps.indexOf(v);
    if (i < 0) i = steps.findIndex(s => s > v) - 0.5;
    if (i < -0.5) i = steps.length - 0.5;
    return 1 + i * W + W / 2 - 1;
  };
  if (track.values) {
    const at = new Map();  // players on the same step stand side by side
    for (const tv of track.values) at.set(tv.value, (at.get(tv.value) || []).concat([tv]));
    for (const [value, here] of at) here.forEach((tv, n) => {
      const seat = seats.get(tv.player);
      const cx = place(value) + (n - (here.length - 1) / 2) * 13;
      const cy = top + H + 1;
      box.append(svg("g", {class: "player-token"},
        svg("circle", {cx, cy, r: 7, fill: seatColour(seat), stroke: "#fff", "stroke-width": 1.5}),
        svg("text", {x: cx, y: cy + 3, class: "token-text", text: seat || "?"}),
        svg("title", {text: `${tv.player}: ${tv.value}${unit}`})));
    });
  } else {
    const cx = place(track.value);
    box.append(svg("g", {class: "track-value"},
      svg("path", {d: `M${cx} ${top + H - 12} l7 10 h-14 z`, fill: "#1d1d1f"}),
      svg("title", {text: `${track.name}: ${track.value}${unit}`})));
  }
  const now = track.values ? track.values.map(v => `${v.player} ${v.value}`).join(", ")
                           : `${track.value}${unit}`;
  const lowest = track.values ? Math.min(...track.values.map(v => v.value)) : track.value;
  const ahead = marks.filter(m => m.at > lowest && (!common || m.reward !== common));
  return el("div", {class: "track"},
    el("div", {class: "track-head"}, el("b", {text: track.name}), " ",
       el("span", {class: "track-now", text: now}),
       el("span", {class: "dim", text: ` (from ${low} to ${high}${unit})`})),
    box,
    common ? el("div", {class: "dim small", text: "each marked step: " + common}) : null,
    ahead.length ? el("div", {class: "dim small", text: "ahead: " + ahead.slice(0, 5).map(m =>
      `at ${m.at}${unit}: ` + (m.text || m.reward || "a mark").replace(/\.$/, "") +
      (m.taken ? " (taken)" : "")).join("; ") +
      (ahead.length > 5 ? " …" : "")}) : null,
    track.text ? el("div", {class: "dim small", text: track.text}) : null);
}

// ------------------------------------------------------------ maps
function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function squarePoints(cx, cy, r) {
  const h = r * 0.92;
  return `${cx - h},${cy - h} ${cx + h},${cy - h} ${cx + h},${cy + h} ${cx - h},${cy + h}`;
}

// The colours of a map: the ruleset's own (view: maps: colours), else a kind of space marked
// with '~' is water and the others take a colour each; tiles and bonuses take one each.
function mapPalette(board) {
  const given = board.colours || {types: {}, tiles: {}, bonuses: {}};
  const types = {}, tiles = {}, bonuses = {};
  (board.marks || []).forEach((m, i) => {
    types[m.type] = given.types[m.type] || (m.mark.includes("~") ? WATER : MARK_COLOURS[i % MARK_COLOURS.length]);
  });
  board.tiles.forEach((tile, i) => { tiles[tile.name] = given.tiles[tile.name] || TILE_COLOURS[i % TILE_COLOURS.length]; });
  (board.bonuses || []).forEach((b, i) => { bonuses[b.name] = given.bonuses[b.name] || BONUS_COLOURS[i % BONUS_COLOURS.length]; });
  return {type: s => given.types[s.type] || types[s.type] || LAND, tile: name => tiles[name] || "#777",
          bonus: name => bonuses[name] || "#888"};
}

function spaceWords(s) {
  const parts = [`${s.label}${s.name ? " " + s.name : ""}: ${s.type}`];
  if (s.bonus && s.bonus.length) parts.push("bonus: " + s.bonus.join(", "));
  if (s.tile) parts.push(s.tile + (s.owner ? ` of ${s.owner}` : "") + (s.card ? ` (${s.card})` : ""));
  if (s.claimed_by) parts.push("claimed by " + s.claimed_by);
  return parts.join("; ");
}

// A card's name under its tile: on two lines of 11 characters at most, cut with '…' past that
function cardLines(name) {
  const width = 11, lines = [""];
  for (const word of name.split(" ")) {
    const line = lines[lines.length - 1];
    if (!line) lines[lines.length - 1] = word;
    else if ((line + " " + word).length <= width) lines[lines.length - 1] = line + " " + word;
    else lines.push(word);
  }
  const cut = x => x.length > width ? x.slice(0, width - 1) + "…" : x;
  if (lines.length > 2) lines.splice(1, lines.length - 1, lines.slice(1).join(" "));
  return lines.map(cut);
}

// how.spaces: label → the option that answers with that space (clickable while asked)
function drawMap(board, seats, how) {
  const on = board.spaces.filter(s => !s.off_board);
  const off = board.spaces.filter(s => s.off_board);
  const hex = board.shape === "hex_rows";
  const R = 30, w = hex ? Math.sqrt(3) * R : 2 * R * 0.96, rowH = hex ? 1.5 * R : 2 * R * 0.96;
  const rows = new Map();
  for (const s of on) {
    const r = s.row || 0;
    if (!rows.has(r)) rows.set(r, []);
    rows.get(r).push(s);
  }
  const widest = Math.max(...[...rows.values()].map(cells => Math.max(...cells.map(s => s.column || 0)) + 1));
  const rowKeys = [...rows.keys()].sort((a, b) => a - b);
  const pad = 8;
  const width = widest * w + 2 * pad + (off.length ? 0 : 0);
  const height = rowKeys.length * rowH + (hex ? R / 2 : 0) + 2 * pad + (off.length ? rowH + 10 : 0);
  const palette = mapPalette(board);
  const asking = how && how.spaces && how.spaces.size;
  const picture = svg("svg", {class: "map-svg" + (asking ? " asking" : ""), viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`,
                              role: "img", "aria-label": board.name});
  const asked = (how && how.spaces) || new Map();
  const place = (s, cx, cy) => {
    const points = hex ? hexPoints(cx, cy, R - 1) : squarePoints(cx, cy, R - 1);
    const option = asked.get(s.label);
    const g = svg("g", {class: "space" + (option ? " askable" : "") + (s.tile ? " tiled" : ""),
                        "data-space": s.label},
      svg("title", {text: spaceWords(s) + (option ? ` — click to choose (${option.label})` : "")}),
      svg("polygon", {points, fill: palette.type(s), stroke: "#fff", "stroke-width": 2}));
    if (s.claimed_by)
      g.append(svg("polygon", {points: hex ? hexPoints(cx, cy, R - 5) : squarePoints(cx, cy, R - 5),
        fill: "none", stroke: seatColour(seats.get(s.claimed_by)), "stroke-width": 3, "stroke-dasharray": "4 3"}));
    if (s.tile) {
      const inner = hex ? hexPoints(cx, cy, R - 5) : squarePoints(cx, cy, R - 5);
      g.append(svg("polygon", {points: inner, fill: palette.tile(s.tile), stroke: "rgba(0,0,0,.25)"}));
      const lines = s.card ? cardLines(s.card) : [];  // the card that placed it, under it
      g.append(svg("text", {x: cx, y: cy + (lines.length > 1 ? 1 : 5), class: "tile-symbol",
                            text: s.symbol || ""}));
      if (s.owner_seat)
        g.append(svg("rect", {x: cx + R * 0.18, y: cy - R * 0.62, width: 11, height: 11, rx: 2,
          fill: seatColour(s.owner_seat), stroke: "#fff", "stroke-width": 1.5, class: "owner-cube"}));
      lines.forEach((line, i) => g.append(svg("text", {x: cx, y: cy + (lines.length > 1 ? 10 : 16) + 7 * i,
                                                        class: "tile-card", text: line})));
    } else {
      g.append(svg("text", {x: cx, y: cy - R * 0.38, class: "space-label", text: s.label}));
      if (s.bonus && s.bonus.length) {
        const n = s.bonus.length, bw = 11, gap = 2;
        const x0 = cx - (n * bw + (n - 1) * gap) / 2;
        s.bonus.forEach((b, i) => {
          const sym = (s.bonus_symbols || "")[i] || b[0];
          g.append(svg("rect", {x: x0 + i * (bw + gap), y: cy + 1, width: bw, height: bw, rx: 2.5,
                                fill: palette.bonus(b), stroke: "rgba(0,0,0,.3)", "stroke-width": 0.5}));
          g.append(svg("text", {x: x0 + i * (bw + gap) + bw / 2, y: cy + 9.5, class: "bonus-symbol", text: sym}));
        });
      }
    }
    if (option) {  // a space you may choose: ringed, clicked or reached by Tab and Enter
      g.append(svg("polygon", {points, fill: "none", class: "ask-halo"}));
      g.append(svg("polygon", {points, fill: "none", class: "ask-ring"}));
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", option.label);
      g.addEventListener("click", () => how.choose(option));
      g.addEventListener("keydown", event => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        event.stopPropagation();
        how.choose(option);
      });
    }
    picture.append(g);
  };
  rowKeys.forEach((r, n) => {
    const cells = rows.get(r);
    const count = Math.max(...cells.map(s => s.column || 0)) + 1;
    const indent = hex ? (widest - count) * w / 2 : 0;
    for (const s of cells) {
      const cx = pad + indent + (s.column || 0) * w + w / 2;
      const cy = pad + (hex ? R : R * 0.96) + n * rowH;
      place(s, cx, cy);
    }
  });
  off.forEach((s, i) => {  // spaces off the map: in a line under it, each with its name
    const cx = pad + w * 1.1 + i * (w * 2.4);
    const cy = height - pad - R;
    place(s, cx, cy);
    picture.append(svg("text", {x: cx, y: cy + R + 1, class: "off-name", text: s.name || s.label}));
  });
  // the key: kinds of space, bonuses, tiles on the map, owners, special cards, named spaces
  const key = el("div", {class: "map-key"});
  for (const m of board.marks || [])
    key.append(el("span", {class: "key-item", title: m.text || ""},
      el("span", {class: "swatch", style: `background:${palette.type({type: m.type})}`}), m.type));
  const present = new Set(on.concat(off).filter(s => s.tile).map(s => s.tile));
  for (const tile of board.tiles.filter(t => present.has(t.name)))
    key.append(el("span", {class: "key-item"},
      el("span", {class: "swatch tile-swatch", style: `background:${palette.tile(tile.name)}`, text: tile.symbol}), tile.name));
  for (const b of board.bonuses || [])
    key.append(el("span", {class: "key-item"},
      el("span", {class: "swatch bonus-swatch", style: `background:${palette.bonus(b.name)}`, text: b.symbol}), b.name));
  const owners = new Map();
  for (const s of board.spaces) if (s.owner_seat) owners.set(s.owner_seat, s.owner);
  for (const [seat, name] of [...owners].sort((a, b) => a[0] - b[0]))
    key.append(el("span", {class: "key-item"},
      el("span", {class: "swatch owner-swatch", style: `background:${seatColour(seat)}`}), name));
  const notes = [];
  for (const s of board.spaces) if (s.card) notes.push(`${s.label}: ${s.card}` + (s.owner ? ` (${s.owner})` : ""));
  const named = board.spaces.filter(s => s.name && !s.off_board).map(s => `${s.label} ${s.name}`);
  return el("div", {class: "map"},
    el("h3", {text: board.name}),
    picture, key,
    notes.length ? el("div", {class: "small", text: "Cards of tiles: " + notes.join("; ")}) : null,
    named.length ? el("div", {class: "dim small", text: "Named: " + named.join(" · ")}) : null,
    board.text ? el("div", {class: "dim small", text: board.text}) : null);
}

// ------------------------------------------------------------ boards of frames
function drawFrames(board, seats) {
  const row = el("div", {class: "frames"});
  board.frames.forEach((f, i) => {
    const label = f.label !== undefined && f.label !== null ? String(f.label) : String(i + 1);
    const here = (f.here || []).map(name => token(seats.get(name), name, "is here"));
    const values = (f.values || []).map(v => el("div", {class: "frame-value"},
      el("span", {class: "dim", text: v.label + " "}), el("b", {text: valueWords(v)})));
    const cards = (f.cards || []).map(c => cardChip(c, seats));
    row.append(el("div", {class: "frame" + (here.length ? " occupied" : "") +
                          ((f.cards || []).length ? "" : " empty")},
      el("div", {class: "frame-head"}, el("span", {class: "frame-label", text: label}),
         el("span", {class: "frame-here"}, here)),
      values, el("div", {class: "frame-cards"}, cards)));
  });
  return el("div", {class: "frame-board"}, el("h3", {text: board.name}), row,
            board.text ? el("div", {class: "dim small", text: board.text}) : null);
}

// ------------------------------------------------------------ rows and piles
function drawRows(t, seats, texts) {
  const out = [];
  for (const row of t.rows) {
    if (row.count !== undefined || !row.cards.length) {  // a line of its own
      out.push(el("div", {class: "row short-row"}, el("b", {text: row.name + ": "}),
        el("span", {class: "dim", text: row.count !== undefined ? plural(row.count, "card") : "empty"}),
        row.text ? el("span", {class: "dim small", text: " · " + row.text}) : null));
      continue;
    }
    const priced = row.cards.some(c => c.price !== undefined);
    const cards = row.cards.map(c => {
      if (!priced && !c.text) return cardChip(c, seats);
      const face = cardFace(textOf(c, texts));
      if (c.price !== undefined && c.price !== null)
        face.prepend(el("div", {class: "card-price", title: "the price to you now", text: String(c.price)}));
      const extra = cardChip(Object.assign({}, c, {name: ""}), seats);
      if (extra.childNodes.length > 1) face.append(extra);
      return face;
    });
    out.push(el("div", {class: "row"}, el("h3", {text: row.name}),
      el("div", {class: priced ? "cards" : "chips"}, cards),
      row.text ? el("div", {class: "dim small", text: row.text}) : null));
  }
  if (t.piles.length)
    out.push(el("div", {class: "piles"}, t.piles.map(p =>
      el("span", {class: "pile"}, el("span", {text: p.name}), " ", el("b", {text: p.count})))));
  return out;
}

// ------------------------------------------------------------ players' panels
// A zone of your own that the others see only as a count (a hand): its cards come with text.
function isHeld(zone, t) {
  if (!zone.cards) return false;
  if (zone.cards.some(c => c.text !== undefined)) return true;
  return t.panels.some(p => !p.you && p.zones.some(z => z.name === zone.name && z.count !== undefined));
}

function drawPanel(p, seats, t) {
  const colour = seatColour(p.seat);
  const box = el("div", {class: "player-panel" + (p.you ? " you" : ""), style: `border-top-color:${colour}`},
    el("h3", {}, token(p.seat, p.name), " ", el("span", {text: p.name}),
       p.you ? el("span", {class: "you-badge", text: "you"}) : null,
       p.score ? el("span", {class: "score", title: "points so far", text:
         `${p.score.total}${p.score.partial ? "+?" : ""} pts`}) : null));
  if (p.stocks.length)
    box.append(el("div", {class: "stocks"}, p.stocks.map(s =>
      el("div", {class: "stock"}, el("div", {class: "stock-name", text: s.name}),
         el("div", {class: "stock-amount", text: s.amount}),
         s.production !== undefined ? el("div", {class: "production", title: "production",
           text: (s.production >= 0 ? "+" : "") + s.production}) : null))));
  const lines = [];
  for (const v of p.values || [])
    lines.push(el("div", {class: "value"}, el("span", {text: v.label + ": "}), el("b", {text: valueWords(v)}),
                  v.text ? el("span", {class: "dim", text: " " + v.text}) : null));
  for (const tr of p.tracks || [])
    lines.push(el("div", {class: "value"}, el("span", {text: tr.name + ": "}), el("b", {text: tr.value})));
  box.append(...lines);
  if (p.tags && p.tags.length)
    box.append(el("div", {class: "tags"}, p.tags.map(tag =>
      el("span", {class: "tag" + (tag.count ? "" : " none"), text: `${tag.name} ${tag.count}`}))));
  if (p.score && p.score.parts.length)
    box.append(el("details", {class: "score-parts"}, el("summary", {text: "points by category"}),
      el("table", {}, p.score.parts.map(x => el("tr", {}, el("td", {text: x.name}),
                                                 el("td", {class: "num", text: x.points}))))));
  for (const z of p.zones) {
    if (z.count !== undefined) {
      box.append(el("div", {class: "zone"}, el("span", {class: "zone-name", text: z.name + ": "}),
                    el("span", {class: "dim", text: plural(z.count, "card")})));
    } else if (p.you && isHeld(z, t)) {
      box.append(el("div", {class: "zone"}, el("span", {class: "zone-name", text: z.name + ": "}),
                    el("span", {class: "dim", text: plural(z.cards.length, "card") + " (your hand, beside)"})));
    } else {
      box.append(el("div", {class: "zone"}, el("div", {class: "zone-name", text: `${z.name} (${z.cards.length})`}),
        z.cards.length ? el("div", {class: "chips"}, z.cards.map(c => cardChip(c, seats)))
                       : el("span", {class: "dim", text: "none"})));
    }
  }
  return box;
}

// ------------------------------------------------------------ standings
function drawStandings(t) {
  return t.standings.map(s => {
    const goals = s.goals || [s];
    const costs = goals.some(g => g.cost !== undefined || g.open !== undefined);
    const status = s.status_label !== undefined || goals.some(g => g.status !== undefined);
    const head = el("tr", {}, el("th", {}), t.panels.map(p =>
      el("th", {class: "num"}, token(p.seat, p.name))),
      costs ? el("th", {class: "num", text: "cost now"}) : null,
      status ? el("th", {text: s.status_label || "now"}) : null);
    const rows = goals.map(g => el("tr", {class: g.open === false ? "closed" : ""},
      el("td", {text: g === s ? "" : g.name}),
      g.values.map(v => el("td", {class: "num", text: v === null || v === undefined ? "" : v})),
      costs ? el("td", {class: "num", text: g.cost !== undefined && g.cost !== null ? g.cost : "—"}) : null,
      status ? el("td", {text: g.status === null || g.status === undefined || g.status === "none" ? "" : g.status}) : null));
    return el("div", {class: "standing"}, el("h3", {text: s.name}),
      el("table", {class: "standing-table"}, head, rows),
      s.text ? el("div", {class: "dim small", text: s.text}) : null);
  });
}

// ------------------------------------------------------------ the seat's hidden cards
function drawHand(view) {
  const me = view.table.panels.find(p => p.you);
  const out = [];
  if (!me) return out;
  for (const z of me.zones) {
    if (!isHeld(z, view.table)) continue;
    out.push(el("h3", {text: `${z.name} (${z.cards.length})`}));
    if (!z.cards.length) out.push(el("div", {class: "dim", text: "no cards"}));
    out.push(el("div", {class: "cards"}, z.cards.map(c => cardFace(textOf(c, view.texts),
      (c.resources || c.marks) ? cardChip(Object.assign({}, c, {name: ""}), seatsOf(view.table)) : null))));
  }
  return out;
}

// ------------------------------------------------------------ the log
// The log's last lines (the server sends a window of them): the lines that came are added,
// those that left the window taken away, the others left as they are.
function drawLog(node, lines) {
  const shown = node.__lines || [];
  let drop = shown.length;  // how many of the lines shown the new window starts after
  for (let s = 0; s <= shown.length; s++) {
    const rest = shown.length - s;
    if (rest > lines.length) continue;
    let same = true;
    for (let i = 0; i < rest && same; i++) same = shown[s + i] === lines[i];
    if (same) { drop = s; break; }
  }
  const kept = shown.length - drop;
  if (kept === 0) {  // nothing in common (a replay gone back): the window anew
    clear(node);
    node.__start = 1;
  } else {
    for (let i = 0; i < drop; i++) node.removeChild(node.firstChild);
    node.__start = (node.__start || 1) + drop;
  }
  node.start = node.__start;
  for (const line of lines.slice(kept)) node.append(el("li", {text: line}));
  node.__lines = lines.slice();
}

// ------------------------------------------------------------ the end
function scoresOf(r) {
  const cats = r.breakdown && r.breakdown.length ? Object.keys(r.breakdown[0]) : [];
  return [el("h2", {text: r.finished ? "Final scores" : "Unfinished: nobody wins"}),
    el("table", {class: "scores"},
      el("tr", {}, el("th"), r.scores.map(s => el("th", {class: "num", text: s.name}))),
      cats.map(c => el("tr", {class: "dim"}, el("td", {text: c}),
        r.breakdown.map(b => el("td", {class: "num", text: b[c]})))),
      el("tr", {class: "total"}, el("td", {text: "total"}), r.scores.map(s =>
        el("td", {class: "num" + (s.winner ? " winner" : ""), text: s.score}))),
      (r.tie_breaks || []).map(t => el("tr", {}, el("td", {text: "tie-break: " + t.name}),
        t.values.map(v => el("td", {class: "num", text: v})))),
      el("tr", {}, el("td"), r.scores.map(s => el("td", {class: "num winner", text: s.winner ? "winner" : ""}))))];
}

// ------------------------------------------------------------ all of it
// Whether a part's data differs from what its element shows (a part is drawn again only then:
// most parts stay the same from one move to the next).
function changed(node, ...data) {
  const key = JSON.stringify(data);
  if (node.__drawn === key) return false;
  node.__drawn = key;
  return true;
}

// where: {title, order, board, rows, players, standings, facts, warnings, hand}: elements to
// fill (any may be missing; a panel holding nothing is hidden); how: {spaces: Map(label →
// option), choose(option), asked: the decision's number} for a map asked about, and over:
// the game has ended (its warnings of what comes are left out).
function drawTable(view, where, how) {
  const t = view.table;
  const seats = seatsOf(t);
  TEXTS = view.texts || {};
  hideCardPop();  // (its chip may be drawn again, or gone)
  const colours = t.panels.filter(p => p.colour).map(p => [p.seat, p.colour]);
  GIVEN_COLOURS = new Map(colours);
  if (where.title) where.title.textContent = titleWords(t.title);
  if (where.order && changed(where.order, t.title.turn_order, t.title.turn, t.panels.map(p => p.seat),
                             colours)) {
    clear(where.order);
    where.order.append(el("span", {class: "dim", text: "order: "}),
      ...t.title.turn_order.map(name => el("span", {class: "order-item" + (name === t.title.turn ? " now" : "")},
        token(seats.get(name), name), " ", name)));
  }
  const asked = how && how.spaces ? [...how.spaces.entries()].map(([k, o]) => [k, o.index]) : [];
  if (where.board && changed(where.board, t.boards, t.tracks, t.problems, asked,
                             asked.length ? how.asked : null, colours)) {
    const board = clear(where.board);
    for (const b of t.boards) {
      if (b.spaces && (b.shape === "hex_rows" || b.shape === "grid") && b.spaces.length)
        board.append(drawMap(b, seats, how));
      else if (b.frames) board.append(drawFrames(b, seats));
    }
    if (t.tracks.length) board.append(el("div", {class: "tracks"}, t.tracks.map(tr => drawTrack(tr, seats))));
    if (t.problems) board.append(...t.problems.map(p => el("div", {class: "problem small", text: "not shown: " + p})));
  }
  if (where.rows && changed(where.rows, t.rows, t.piles, view.texts, colours))
    clear(where.rows).append(...drawRows(t, seats, view.texts));
  if (where.players && changed(where.players, t.panels))
    clear(where.players).append(...t.panels.map(p => drawPanel(p, seats, t)));
  if (where.standings && changed(where.standings, t.standings, t.panels.map(p => [p.name, p.seat]))) {
    clear(where.standings).append(...drawStandings(t));
    where.standings.parentElement.hidden = !t.standings.length;
  }
  if (where.warnings && changed(where.warnings, t.facts, !!how.over))
    drawWarnings(where.warnings, t, how.over);
  if (where.facts && changed(where.facts, t.facts, !!how.over)) {
    const facts = drawFacts(t, how.over);
    clear(where.facts);
    if (facts) where.facts.append(facts);
    where.facts.parentElement.hidden = !facts;
  }
  if (where.hand && changed(where.hand, t.panels.filter(p => p.you).map(p => p.zones), view.texts)) {
    const hand = drawHand(view);
    clear(where.hand).append(...hand);
    where.hand.parentElement.hidden = !hand.length;
  }
}

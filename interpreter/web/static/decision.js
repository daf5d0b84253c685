// A decision as the page shows it (web/view.py, decision_data): the question, the cards it
// is about (shown with it), each option with its key, the options not allowed now
// with their reasons (folded when there are many), a number's range, and a set chosen as
// a set (toggles and a confirm button). The game page answers through how.answer; the
// replay page draws the same read-only, the answer of the record marked.
"use strict";
const KEYS = "123456789abcdefghijklmnopqrstvwxyz";  // 'u' is undo
const FOLD_REFUSED = 3;  // more not-allowed options than this are folded, as at the terminal

function keyOf(i) { return i < KEYS.length ? KEYS[i] : ""; }

// how: {answer(option), toggle(option), picked: Set of option indexes, readOnly, given: index}
function drawDecision(d, where, how) {
  const h = how || {};
  const options = clear(where.options);
  const notNow = clear(where.notNow);
  clear(where.shown);
  where.prompt.textContent = d ? d.prompt : "";
  if (where.range) where.range.hidden = !(d && d.range);
  if (where.setControls) where.setControls.hidden = !(d && d.set && !h.readOnly);
  if (!d) return;
  for (const group of d.shown || [])  // after the options: what to look at while choosing
    where.shown.append(el("details", {class: "shown", open: true},
      el("summary", {text: (group.label || "Shown with the question") + ` (${group.cards.length})`}),
      el("div", {class: "cards"}, group.cards.map(c => cardFace(c)))));
  if (d.range && where.range) {
    where.rangeWords.textContent = `a number from ${d.range[0]} to ${d.range[1]}: `;
    const input = where.rangeInput;
    input.min = d.range[0]; input.max = d.range[1];
    input.value = h.given !== undefined && h.given !== null ? h.given : d.range[0];
    input.disabled = !!h.readOnly;
  }
  const shown = d.set ? d.options.filter(o => o.key !== "done") : d.options;
  shown.forEach((o, i) => {
    const key = keyOf(i);
    const picked = h.picked && h.picked.has(o.index);
    const given = h.given === o.index;
    const classes = "option" + (d.set ? " toggle" : "") + (picked ? " picked" : "") +
                    (given ? " given" : "") + (o.card ? " with-card" : "");
    const click = h.readOnly ? null : () => (d.set ? h.toggle(o) : h.answer(o));
    const button = el("button", {class: classes, "data-key": o.key, "data-short": o.short,
                                 "data-index": o.index, "aria-pressed": d.set ? String(!!picked) : null,
                                 disabled: !!h.readOnly && !given, onclick: click},
      key ? el("kbd", {text: key}) : null,
      d.set ? el("span", {class: "tick", text: picked ? "✓" : ""}) : null,
      el("span", {class: "label", text: o.label}),
      o.state ? el("span", {class: "state", text: ` (${o.state})`}) : null,
      o.short ? el("span", {class: "short dim", text: o.short}) : null,
      o.summary && !o.card ? el("span", {class: "dim summary", text: o.summary}) : null,
      given ? el("span", {class: "given-mark", text: "← the answer"}) : null);
    const item = el("li", {}, button);
    if (o.card) item.append(cardFace(o.card, (o.with || []).map(w =>
      el("div", {class: "card-with"}, el("div", {class: "dim small", text: "with"}), cardFace(w)))));
    options.append(item);
  });
  if (where.setCount && d.set) {
    const n = h.picked ? h.picked.size : 0;
    where.setCount.textContent = (n ? `${n} chosen` : "none chosen yet") +
      (d.some ? ` (up to ${d.some})` : "");
  }
  const refused = d.refused || [];
  const items = refused.map(r => el("li", {class: "refused"}, el("span", {class: "label", text: r.label}),
                                    el("span", {class: "reason", text: " — not now: " + r.reason})));
  if (refused.length > FOLD_REFUSED) {
    notNow.append(el("details", {class: "not-now"},
      el("summary", {text: `${refused.length} not available now: ` +
        refused.map(r => r.label).join(", ")}), el("ul", {}, items)));
  } else if (refused.length) notNow.append(el("ul", {class: "not-now"}, items));
}

// the spaces a decision names (a map's labels) → the options that answer with them
function spacesAsked(d) {
  const out = new Map();
  if (!d) return out;
  for (const o of d.options) if (o.space) out.set(o.space, o);
  return out;
}

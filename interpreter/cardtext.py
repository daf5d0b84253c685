"""Card text generated from a card's effects, for people and the catalogue.

:func:`card_text` turns one card's ``requires``, ``play``, ``actions``,
``triggers``, ``modifiers`` and ``vp`` into sentences with the ruleset's
renderer (:mod:`interpreter.lang.words`). A card's hand-written ``text:``,
or an action's, trigger's or modifier's ``text:``, replaces the generated
words for that part: authors use it where generated words read poorly.
:func:`catalogue_entry` adds the printed facts (name, cost, tags, type) and is
what ``rulebook cards`` prints and what players see next to a card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .lang import ast
from .lang.words import Ctx, join_and, lower_name, sentence, words_of_id


@dataclass
class CardText:
    requirement: str = ""
    effect: str = ""
    actions: list[str] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    vp: str = ""

    def lines(self) -> list[str]:
        out = []
        if self.requirement:
            out.append(self.requirement)
        out += self.modifiers + self.triggers + self.actions
        if self.effect:
            out.append(self.effect)
        if self.vp:
            out.append(self.vp)
        return out

    def text(self) -> str:
        return " ".join(self.lines())


def card_text(rs, card_id: str) -> CardText:
    """The rendered text of one card of a checked ruleset."""
    entry = rs.cards[card_id]
    data = entry.data
    w = rs.words
    out = CardText()
    ctx = Ctx(this_card=card_id)
    if data.get("text"):
        out.effect = sentence(str(data["text"]))
        tree = rs.asts.get(("card", card_id, "requires"))
        if tree is not None:
            out.requirement = sentence("requires " + w.cond(tree, ctx.bind()))
        out.vp = _vp(rs, card_id, ctx)
        return out
    tree = rs.asts.get(("card", card_id, "requires"))
    if tree is not None:
        out.requirement = sentence("requires " + w.cond(tree, ctx.bind()))
    tree = rs.asts.get(("card", card_id, "play"))
    if tree is not None:
        out.effect = sentence(w.block(tree.body, ctx.bind()))
    for i, action in enumerate(data.get("actions", []) or []):
        out.actions.append(_action(rs, card_id, i, action, ctx))
    for i, trig in enumerate(data.get("triggers", []) or []):
        out.triggers.append(_trigger(rs, card_id, i, trig, ctx))
    for i, mod in enumerate(data.get("modifiers", []) or []):
        out.modifiers.append(_modifier(rs, card_id, i, mod, ctx))
    out.vp = _vp(rs, card_id, ctx)
    return out


def _action(rs, card_id: str, i: int, action: dict, ctx: Ctx) -> str:
    w = rs.words
    name = action.get("name")
    lead = f"Action ({name})" if name else "Action"
    once = action.get("once_per")
    if once and once != "any":
        lead += f", once per {w.rounds if once == 'round' else words_of_id(once)}"
    if action.get("text"):
        return f"{lead}: {sentence(str(action['text']))}"
    body = rs.asts.get(("card", card_id, "action", i, "do"))
    text = w.block(body.body, ctx.bind()) if body is not None else ""
    cond = rs.asts.get(("card", card_id, "action", i, "if"))
    if cond is not None:
        text += f" (only if {w.cond(cond, ctx.bind())})"
    return f"{lead}: {sentence(text)}"


def _trigger(rs, card_id: str, i: int, trig: dict, ctx: Ctx) -> str:
    w = rs.words
    if trig.get("text"):
        return sentence(str(trig["text"]))
    event = trig.get("on", "")
    scope = trig.get("scope", "you")
    who = {"you": "you", "anyone": "anyone", "others": "another player",
           "opponents": "an opponent"}.get(scope, words_of_id(scope))
    ev = rs.sections.get("events", {}).get(event)
    phrase = (ev.data.get("phrase") if ev is not None and isinstance(ev.data, dict) else None)
    if phrase:
        when = str(phrase).replace("{player}", who)
    else:
        when = f"{words_of_id(event)} ({who})"
    cond = rs.asts.get(("card", card_id, "trigger", i, "if"))
    if cond is not None:
        when += f", if {w.cond(cond, ctx.bind())}"
    body = rs.asts.get(("card", card_id, "trigger", i, "do"))
    text = w.block(body.body, ctx.bind()) if body is not None else ""
    return f"Whenever {when}: {sentence(text)}"


def _modifier(rs, card_id: str, i: int, mod: dict, ctx: Ctx) -> str:
    w = rs.words
    if mod.get("text"):
        return sentence(str(mod["text"]))
    kind = mod.get("modifier", "")
    decl = rs.sections.get("modifiers", {}).get(kind)
    data = decl.data if decl is not None and isinstance(decl.data, dict) else {}
    amount_tree = rs.asts.get(("card", card_id, "modifier", i, "amount"))
    amount = w.expr(amount_tree, ctx.bind()) if amount_tree is not None else "?"
    cond = rs.asts.get(("card", card_id, "modifier", i, "if"))
    where = f" for {w.cond(cond, ctx.bind(card=_it()))}" if cond is not None else ""
    phrase = data.get("phrase")
    if phrase:
        n = _number(amount)
        text = str(phrase).replace("{amount}", amount)
        if n is not None:
            text = text.replace("{size}", str(abs(n)))
        return sentence(text + where)
    name = lower_name(str(data.get("name") or words_of_id(kind)))
    return sentence(f"{name} {amount}{where}")


def _it():
    from .lang.words import _Words
    return _Words("it")


def _number(text: str):
    try:
        return int(text)
    except ValueError:
        return None


def _vp(rs, card_id: str, ctx: Ctx) -> str:
    tree = rs.asts.get(("card", card_id, "vp"))
    if tree is None:
        return ""
    w = rs.words
    if isinstance(tree, ast.Literal) and isinstance(tree.value, int):
        n = tree.value
        return f"{n} VP." if n >= 0 else f"Minus {-n} VP."
    if isinstance(tree, ast.Binary) and tree.op == "//" and isinstance(tree.right, ast.Literal):
        per = w.amount(tree.left, str(tree.right.value), tree.right.value, ctx.bind())
        if per is not None:
            return f"1 VP per {per}."
    if isinstance(tree, ast.Conditional) and isinstance(tree.then, ast.Literal) \
            and isinstance(tree.other, ast.Literal) and tree.other.value == 0:
        return sentence(f"{tree.then.value} VP if {w.cond(tree.cond, ctx.bind())}")
    return sentence(f"VP: {w.expr(tree, ctx.bind())}")


def catalogue_entry(rs, card_id: str) -> dict:
    """Name, printed facts and rendered text of a card, as ``rulebook cards`` shows it."""
    data = rs.cards[card_id].data
    text = card_text(rs, card_id)
    w = rs.words
    tags = [w.thing("tag", t) for t in data.get("tags", []) or []]
    ctype = data.get("type")
    return {
        "id": card_id,
        "name": data.get("name") or words_of_id(card_id),
        "number": data.get("number"),
        "type": w.thing("card_type", ctype) if ctype else None,
        "cost": data.get("cost"),
        "tags": tags,
        "requirement": text.requirement,
        "text": " ".join(text.modifiers + text.triggers + text.actions
                         + ([text.effect] if text.effect else [])),
        "vp": text.vp,
        "lines": text.lines(),
    }


def facts_line(entry: dict) -> str:
    """'cost 12 · event · Building, Space' for a catalogue entry."""
    parts = []
    if entry.get("cost") is not None:
        parts.append(f"cost {entry['cost']}")
    if entry.get("type"):
        parts.append(str(entry["type"]))
    if entry.get("tags"):
        parts.append(join_and(entry["tags"]))
    return " · ".join(parts)

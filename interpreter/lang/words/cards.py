"""Card text generated from a card's effects, for people and the catalogue.

:func:`card_text` turns one card's ``requires``, ``play``, ``actions``,
``triggers``, ``modifiers`` and ``vp`` into sentences with the ruleset's
renderer (:class:`.renderer.Words`). A card's hand-written ``text:``,
or an action's, trigger's or modifier's ``text:``, replaces the generated
words for that part: authors use it where generated words read poorly.
:func:`catalogue_entry` adds the printed facts (name, cost, tags, type) and is
what ``rulebook cards`` prints and what players see next to a card.

May import: :mod:`..ast` and the package's :mod:`.context` and
:mod:`.english`; it renders through the ruleset's own renderer (``rs.words``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ast
from .context import Ctx, _Words
from .english import event_phrase, join_and, lower_name, needs, sentence, there_is, words_of_id


@dataclass
class CardText:
    requirement: str = ""
    facts: list[str] = field(default_factory=list)  # printed fields ('Needs Writing.')
    effect: str = ""
    blocks: list[str] = field(default_factory=list)  # named blocks ('Visit: gain 2 coins.')""
    actions: list[str] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    vp: str = ""

    def lines(self) -> list[str]:
        out = []
        if self.requirement:
            out.append(self.requirement)
        out += self.facts
        out += self.modifiers + self.triggers + self.actions
        if self.effect:
            out.append(self.effect)
        out += self.blocks
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
    tree = rs.asts.get(("card", card_id, "requires"))
    if tree is not None:
        out.requirement = f"{_requirement_lead(rs, data)} {w.cond(tree, ctx.bind())}"
        out.requirement = sentence(out.requirement)
    out.facts = _facts(rs, data)
    if data.get("text"):
        out.effect = sentence(str(data["text"]))
        out.vp = _vp(rs, card_id, ctx)
        return out
    tree = rs.asts.get(("card", card_id, "play"))
    if tree is not None:
        out.effect = sentence(w.block(tree.body, ctx.bind()))
    out.blocks = _blocks(rs, card_id, data, ctx)
    for i, action in enumerate(data.get("actions", []) or []):
        out.actions.append(_action(rs, card_id, i, action, ctx))
    for i, trig in enumerate(data.get("triggers", []) or []):
        out.triggers.append(_trigger(rs, card_id, i, trig, ctx))
    lasting: list[str | None] = []  # the 'while' of each modifier's text, if any
    for i, mod in enumerate(data.get("modifiers", []) or []):
        text, during = _modifier(rs, card_id, i, mod, ctx)
        if during is not None and lasting and lasting[-1] == during:
            # two effects that last while the same holds: the condition said once ('While
            # this card is face up: room for 2 more gold; room for 1 more gem.')
            head = sentence(f"while {during}")[:-1]
            last = out.modifiers[-1]
            if not last.startswith(head + ": "):
                last = f"{head}: {last[len(head) + 2:]}"
            out.modifiers[-1] = f"{last[:-1]}; {text[len(head) + 2:]}"
            continue
        out.modifiers.append(text)
        lasting.append(during)
    out.vp = _vp(rs, card_id, ctx)
    return out


def _requirement_lead(rs, data: dict) -> str:
    entry = rs.sections.get("card_types", {}).get(data.get("type"))
    if entry is not None and isinstance(entry.data, dict) and entry.data.get("requirement"):
        return str(entry.data["requirement"]).rstrip(":") + ":"
    return "requires"


def field_fact(rs, card_id: str, fid: str) -> str | None:
    """The sentence one printed field of a card gives ('Discard it from your hand for 1
    wood + 1 stone.'), or None when the card gives none."""
    facts = _facts(rs, rs.cards[card_id].data, only=fid)
    return facts[0] if facts else None


def _facts(rs, data: dict, only: str | None = None) -> list[str]:
    """Sentences for the printed fields a card gives (declared with a phrase)."""
    out = []
    given = data.get("fields") or {}
    for fid, entry in rs.sections.get("card_fields", {}).items():
        if only is not None and fid != only:
            continue
        decl = entry.data if isinstance(entry.data, dict) else {}
        phrase = decl.get("phrase")
        if not phrase or fid not in given or given[fid] == decl.get("default"):
            continue
        value = given[fid]
        if value is False or value is None or value == []:
            continue
        out.append(sentence(_fill_value(rs, str(phrase), value, decl.get("type", ""))))
    return out


def _fill_value(rs, phrase: str, value, type_name: str) -> str:
    import re
    w = rs.words
    elem = type_name[5:-1] if type_name.startswith("list[") else type_name

    def one(v) -> str:
        if elem in ("card_id", "card"):
            entry = rs.cards.get(v)
            return entry.data.get("name", v) if entry is not None else words_of_id(v)
        if elem in ("resource", "card_resource", "tag", "tile", "zone", "track", "marker",
                    "card_type"):
            return w.thing(elem, v)
        return words_of_id(v) if isinstance(v, str) else str(v)

    def words(v) -> str:
        if isinstance(v, list):
            if elem in ("resource", "card_resource", "track"):
                counts: dict = {}
                for x in v:
                    counts[x] = counts.get(x, 0) + 1
                return " + ".join(f"{n} {w.thing(elem, x, n)}" for x, n in counts.items())
            if elem == "number":
                return "/".join(str(x) for x in v)
            return join_and([one(x) for x in v])
        return one(v)

    def sub(m) -> str:
        spec = m.group(1)
        if spec.startswith("value#"):
            noun = spec[6:]
            n = value if isinstance(value, int) else len(value) if isinstance(value, list) else 0
            return f"{n} {noun}{'' if n == 1 else 's'}"
        if spec == "value":
            return words(value)
        return m.group(0)
    return re.sub(r"\{([^{}]+)\}", sub, phrase)


def _runs_blocks(rs, card_id: str) -> set[str]:
    """The card's own blocks that its other effects run ('run production of this')."""
    out = set()
    for key, tree in rs.asts.items():
        if key[:2] != ("card", card_id) or (len(key) > 2 and key[2] == "block"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Run) and isinstance(node.card, ast.Name) \
                    and node.card.id == "this":
                out.add(rs.table.canonical(node.block))
    return out


def _blocks(rs, card_id: str, data: dict, ctx: Ctx) -> list[str]:
    """Named blocks that nothing on the card runs itself: led by their declared words."""
    w = rs.words
    out = []
    inlined = _runs_blocks(rs, card_id)
    for name in data.get("blocks") or {}:
        if name in inlined:
            continue
        tree = rs.asts.get(("card", card_id, "block", name))
        if tree is None:
            continue
        text = w.block(tree.body, ctx.bind())
        if not text:
            continue
        entry = rs.sections.get("blocks", {}).get(name)
        decl = entry.data if entry is not None and isinstance(entry.data, dict) else {}
        if decl.get("phrase"):
            out.append(sentence(str(decl["phrase"]).replace("{effect}", text)))
        else:
            lead = decl.get("name") or words_of_id(name)
            lead = lead[:1].upper() + lead[1:]
            out.append(f"{lead}: {sentence(text)}")
    return out


def _effect_words(rs, key: tuple, ctx: Ctx) -> str:
    tree = rs.asts.get(key)
    return rs.words.block(tree.body, ctx.bind()) if tree is not None else ""


def _action(rs, card_id: str, i: int, action: dict, ctx: Ctx) -> str:
    w = rs.words
    name = action.get("name")
    lead = f"Action ({name})" if name else "Action"
    once = action.get("once_per")
    if once and once != "any":
        lead += f", once per {w.rounds if once == 'round' else words_of_id(once)}"
    if action.get("text"):
        return f"{lead}: {sentence(str(action['text']))}"
    text = _effect_words(rs, ("card", card_id, "action", i, "do"), ctx)
    cond = rs.asts.get(("card", card_id, "action", i, "if"))
    if cond is not None:  # the whole action's condition: before its effect, where it
        lead += f" ({needs(w.cond(cond, ctx.bind()))})"  # cannot read as its last clause's
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
        when = event_phrase(str(phrase), who)
    else:
        when = f"{words_of_id(event)} ({who})"
    cond = rs.asts.get(("card", card_id, "trigger", i, "if"))
    if cond is not None:
        when += f", if {there_is(w.cond(cond, ctx.bind()))}"
    text = _effect_words(rs, ("card", card_id, "trigger", i, "do"), ctx)
    return f"Whenever {when}: {sentence(text)}"


def _modifier(rs, card_id: str, i: int, mod: dict, ctx: Ctx) -> tuple[str, str | None]:
    """A modifier's sentence, and the condition it lasts 'while' (None: it has none)."""
    w = rs.words
    if mod.get("text"):
        return sentence(str(mod["text"])), None
    kind = mod.get("modifier", "")
    decl = rs.sections.get("modifiers", {}).get(kind)
    data = decl.data if decl is not None and isinstance(decl.data, dict) else {}
    amount_tree = rs.asts.get(("card", card_id, "modifier", i, "amount"))
    amount = w.expr(amount_tree, ctx.bind()) if amount_tree is not None else "?"
    cond = rs.asts.get(("card", card_id, "modifier", i, "if"))
    params = [n for n, _ in rs.table.modifier_params.get(kind, [])]
    cond_text, lasting = "", False
    if cond is not None:
        names = {n.id for n in ast.walk(cond) if isinstance(n, ast.Name)}
        lasting = not (names & set(params))  # about the card itself: 'while …'
        cond_text = w.cond(cond, ctx.bind(**{p: _Words("it") for p in params}))
    phrase = data.get("phrase")
    if phrase:
        n = _number(amount)
        text = str(phrase).replace("{amount}", amount)
        if n is not None:
            text = text.replace("{size}", str(abs(n)))
    else:
        text = f"{lower_name(str(data.get('name') or words_of_id(kind)))} {amount}"
    if cond is None:
        return sentence(text.replace("{where}", "").strip()), None
    if "{where}" in text:
        return sentence(text.replace("{where}", cond_text)), None
    if lasting:
        return sentence(f"while {cond_text}, {text}"), cond_text
    return sentence(f"{text} if {cond_text}"), None


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
    each, q = 1, tree  # 'N * amount' or the amount alone: 'N VP per …'
    if isinstance(tree, ast.Binary) and tree.op == "*":
        for lit, other in ((tree.left, tree.right), (tree.right, tree.left)):
            if isinstance(lit, ast.Literal) and isinstance(lit.value, int):
                each, q = lit.value, other
    if not isinstance(q, ast.Literal):
        per = w.amount(q, "1", 1, ctx.bind())
        if per is not None and per.startswith("1 of "):  # a count of a list
            return f"{each} VP for each of {per[5:]}."
        if per is not None:
            return f"{each} VP per {per[2:] if per.startswith('1 ') else per}."
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
        "facts": text.facts,
        "text": " ".join(text.modifiers + text.triggers + text.actions
                         + ([text.effect] if text.effect else []) + text.blocks),
        "vp": text.vp,
        "lines": text.lines(),
    }


def facts_line(entry: dict, price: int | None = None) -> str:
    """'cost 12 · event · Building, Space' for a catalogue entry ('cost 12, 9 for you'
    with the price a player pays now, when it differs)."""
    parts = []
    if entry.get("cost") is not None:
        parts.append(f"cost {entry['cost']}" + (
            f", {price} for you" if price is not None and price != entry["cost"] else ""))
    if entry.get("type"):
        parts.append(str(entry["type"]))
    # a tag that is the type's own word is said once ('event', not 'event · event')
    tags = [t for t in entry.get("tags") or []
            if str(t).lower() != str(entry.get("type") or "").lower()]
    if tags:
        parts.append(join_and(tags))
    return " · ".join(parts)

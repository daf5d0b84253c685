"""English for people, knowing no tree: sentences, names, lists and clauses.

The small rules of running text that every part of the renderer shares: a
declared name in running text (:func:`lower_name`), an id as words, a
sentence, a possessive, "a" or "an", lists joined with "and" or "or", a
condition as a reason (:func:`needs`: "needs at least 8 heat") or as a
relative clause (:func:`relative`: " that is playable"), "there is" before an
amount, and an option's words told to everyone in the third person
(:func:`told`). Nothing here reads an effect tree or a ruleset.

May import: the standard library only.
"""

from __future__ import annotations

import re


def lower_name(name: str) -> str:
    """'Gold' → 'gold' in running text; 'VP' and 'TR' stay; 'Gold mine' → 'gold mine'."""
    if len(name) > 1 and name[0].isupper() and name[1].islower():
        return name[0].lower() + name[1:]
    return name


def words_of_id(ident: str) -> str:
    """The last resort for a thing with no name: its id as words."""
    return str(ident).replace("_", " ")


def plural_of(name: str) -> str:
    """A name for more than one, by its last word: 'card' → 'cards', 'city' → 'cities'."""
    head, sep, last = name.rpartition(" ")
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        last = last[:-1] + "ies"
    elif last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    else:
        last += "s"
    return head + sep + last


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _int_or_none(text: str) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


_SECOND_PERSON = re.compile(r"\b(your|yours|yourself)\b", re.IGNORECASE)
_THIRD = {"your": "their", "yours": "theirs", "yourself": "themselves"}


def told(label: str) -> str:
    """An option's words, said to the chooser ('Move your token'), as the log tells
    everyone what a player did ('Player 2: Move their token')."""
    def swap(m: re.Match) -> str:
        word = _THIRD[m.group(1).lower()]
        return word[0].upper() + word[1:] if m.group(1)[0].isupper() else word
    return _SECOND_PERSON.sub(swap, label)


def needs(cond: str) -> str:
    """A failed condition as a reason: 'needs at least 8 heat', 'only when it has a tile'."""
    if cond.startswith("at least one "):  # 'needs one of your pieces on Oak Mill': one is
        return "needs " + cond[len("at least "):]  # the least there is
    if cond.startswith(("at least ", "at most ", "exactly ", "more than ", "fewer than ",
                        "none of ", "no ")):
        return "needs " + cond  # an amount
    if cond.startswith(("a ", "an ", "the ")) and not any(
            v in f" {cond} " for v in (" is ", " has ", " can ", " does ")):
        return "needs " + cond  # a thing
    return "only when " + cond  # a clause: 'only when your token does not have …'


def relative(cond: str) -> str:
    """'it is playable' → ' that is playable'; 'its cost is 3' → ' whose cost is 3'."""
    def once(rest: str) -> bool:  # the element is named once: a relative clause holds it
        return " it " not in f" {rest} " and " its " not in f" {rest} "
    if cond.startswith(("at least ", "at most ", "exactly ", "more than ", "fewer than ",
                        "none of ", "no ")):
        return " with " + cond  # 'your opponents with at least 1 cube on it'
    if cond.startswith("it ") and once(cond[3:]):
        return " that " + cond[3:]
    if cond.startswith("its ") and once(cond[4:]):
        return " whose " + cond[4:]
    return f" where {cond}"


def _to_be(need: str) -> str:
    """'your marker is at least 2' → 'your marker to be at least 2' (after 'needs')."""
    if " is " in need:  # the comparison's own verb is the last one
        head, tail = need.rsplit(" is ", 1)
        return f"{head} to be {tail}"
    return need


def possessive(who: str) -> str:
    if who == "you":
        return "your"
    if who in ("it", "this card"):
        return "its" if who == "it" else "this card's"
    return who + ("'" if who.endswith("s") else "'s")


def _the(name: str) -> str:
    return name if name[:1].isupper() or name.startswith("the ") else f"the {name}"


def _a(noun: str) -> str:
    if noun[:1].isupper() or noun.startswith(("the ", "a ", "an ")) or noun == "one":
        return noun
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _bare(text: str) -> str:
    return text[4:] if text.startswith("the ") else text


def event_phrase(phrase: str, who: str) -> str:
    """An event's phrase with the one it happens to: {player} and {player:poss}."""
    return phrase.replace("{player:poss}", possessive(who)).replace("{player}", who)


def join_with(items: list[str], word: str) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def there_is(cond: str) -> str:
    """'if at least 2 towers' → 'if there are at least 2 towers'."""
    for lead in ("at least ", "at most ", "exactly ", "more than ", "fewer than ",
                 "none of ", "at least one of "):
        if cond.startswith(lead):
            rest = cond[len(lead):]
            number = rest.split(" ", 1)[0]
            verb = "is" if number in ("1", "one") or lead in ("at least one of ", "none of ") \
                else "are"
            return f"there {verb} {cond}"
    return cond


def join_and(items: list[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def join_clauses(parts: list[str]) -> str:
    """Clauses of one effect: 'gain 2 gold; raise the humidity 1 step'."""
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return "; ".join(parts)

"""A ruleset's learned evaluation: which weights file goes with it, read and checked.

``rulebook train`` writes the weights an evaluation learned from a ruleset's
own games as JSON (``schemas/learned.schema.json``): data only, never code,
never pickled. A ruleset's file is ``learned.json`` in its folder; a mod's
is ``NAME.learned.json`` beside the mod ``NAME.yaml``. A ruleset loaded with
one mod uses the mod's file when there is one, else the base ruleset's with a
note saying so (the agents then play the house rule with values learned
without it); with several mods, the base's, with the note.

:func:`read_learned` checks a file before anything uses it: the schema (every
number finite and within bounds, every list as long as the features), and
that it was trained for this ruleset (a file of another ruleset is refused,
at its ``ruleset`` field). A file trained on an earlier version of the
ruleset (another content hash) is used, with a note. Every problem is a
positioned :class:`~rulebook_games.errors.RulebookError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostics, RulebookError
from ..span import Span

FILE = "learned.json"
MOD_SUFFIX = ".learned.json"
FORMAT = 1
SCHEMA = "learned.schema.json"
# ismcts's settings a weights file may carry beside ``shrink`` (``rulebook train --search``)
SEARCH_SETTINGS = ("free", "backup", "turn_end")
MAX_BYTES = 50_000_000


@dataclass
class Learned:
    """A checked weights file (see the schema for each field)."""

    path: str
    data: dict
    notes: list = field(default_factory=list)  # things a person should know, in words
    sha256: str = ""  # of the file's bytes: which weights these are, for a results file


def learned_path(rs) -> tuple[Path | None, list[str]]:
    """The weights file that goes with ``rs`` (None when there is none), and notes."""
    notes: list[str] = []
    base = Path(rs.root) / FILE
    if rs.mods:
        if len(rs.mods) == 1:
            mod = Path(rs.mods[0])
            own = mod.with_name(mod.name[:-len(mod.suffix)] + MOD_SUFFIX) if mod.suffix \
                else mod.with_name(mod.name + MOD_SUFFIX)
            if own.is_file():
                return own, notes
            which = f"the mod {mod.name}"
        else:
            which = "these mods together"
        if base.is_file():
            notes.append(f"no evaluation was trained for {which}: the agents use the one "
                         f"learned for the base ruleset (rulebook train {rs.id} --mod … "
                         "trains one)")
            return base, notes
        return None, notes
    return (base if base.is_file() else None), notes


def read_learned(path, rs) -> Learned:
    """Read and check a weights file for ``rs``; a RulebookError, positioned, if unusable."""
    from .schema import validate_with
    from .yamlload import load_yaml
    diags = Diagnostics()
    shown = str(path)
    try:
        size = Path(path).stat().st_size
    except OSError as exc:
        diags.error("RB101", f"cannot read the learned evaluation '{shown}': "
                    f"{exc.strerror or exc}", Span(shown, 1, 1))
        raise RulebookError(diags) from None
    if size > MAX_BYTES:
        diags.error("RB103", f"the learned evaluation '{shown}' is {size:,} bytes, more "
                    f"than {MAX_BYTES:,}", Span(shown, 1, 1))
        raise RulebookError(diags)
    import json
    try:
        raw = Path(path).read_bytes()
        text = raw.decode("utf-8")
        data = json.loads(text, parse_constant=_not_a_number)
    except UnicodeDecodeError as exc:
        diags.error("RB101", f"the learned evaluation is not UTF-8 text ({exc.reason})",
                    Span(shown, 1, 1))
        raise RulebookError(diags) from None
    except json.JSONDecodeError as exc:
        diags.error("RB104", f"the learned evaluation is not JSON: {exc.msg}",
                    Span(shown, exc.lineno, exc.colno))
        raise RulebookError(diags) from None
    except ValueError as exc:  # NaN, Infinity: JSON has no such numbers
        diags.error("RB204", f"the learned evaluation holds {exc}, which is no number a "
                    "weights file may hold", Span(shown, *_where(text, str(exc))))
        raise RulebookError(diags) from None
    except OSError as exc:
        diags.error("RB101", f"cannot read the learned evaluation '{shown}': "
                    f"{exc.strerror or exc}", Span(shown, 1, 1))
        raise RulebookError(diags) from None
    from .schema import surely_valid
    if surely_valid(data, SCHEMA) and _consistent(data):
        doc = None  # the usual case, checked by hand (no jsonschema), without places
    else:  # read again, as YAML (JSON is YAML), to say where each problem is
        doc = load_yaml(path, diags, text=text)
        if doc is None:
            raise RulebookError(diags)
        if not isinstance(doc.data, dict):
            diags.error("RB203", "a learned evaluation is a JSON object", doc.span(()))
            raise RulebookError(diags)
        if not validate_with(doc, SCHEMA, diags):
            raise RulebookError(diags)
        data = doc.data
    if data["ruleset"] != rs.id:
        diags.error("RB404", f"this learned evaluation was trained for the ruleset "
                    f"'{data['ruleset']}', not '{rs.id}': train one for this ruleset "
                    f"with 'rulebook train {rs.id}'", _span(doc, shown, text, ("ruleset",)))
        raise RulebookError(diags)
    _check_fit(data, (), diags, doc, shown, text)
    counts = {data.get("players")}
    for i, fit in enumerate(data.get("fits") or ()):
        _check_fit(fit, ("fits", i), diags, doc, shown, text)
        if fit["players"] in counts:
            diags.error("RB400", f"a fit for {fit['players']} players is there twice",
                        _span(doc, shown, text, ("fits", i, "players")))
        counts.add(fit["players"])
    if diags:
        raise RulebookError(diags)
    notes = []
    mods = [m.get("id") for m in rs.mod_info]
    if data["mods"] != mods and data["mods"]:
        notes.append(f"{shown} was trained with the mods "
                     f"{', '.join(str(m) for m in data['mods'])}")
    elif data["ruleset_hash"] != rs.content_hash and data["mods"] == mods:
        notes.append(f"the weights in {shown} predate a change to {rs.name}'s rule files "
                     "(they were trained on other rules, and know nothing of what changed "
                     "since): the agents play with them, but their values may be off; "
                     f"'{train_command(data)}' trains them again on the rules as they are")
    import hashlib
    return Learned(shown, data, notes, hashlib.sha256(raw).hexdigest())


def rounds_of_play(data: dict) -> int:
    """How many rounds of self-play trained a fit (its 'agent' lists them)."""
    return str(data.get("agent") or "").count(", then ") + 1


def train_command(data: dict, extra_players: int | None = None) -> str:
    """The command line that trains the file ``data`` again, from its own fields: the
    same ruleset, mods, games, rounds of play, seed and player counts (byte for byte,
    with the same Rulebook); with ``extra_players``, the command that trains the same
    file with a fit for that count too."""
    import shlex
    words = ["rulebook", "train", str(data.get("ruleset"))]
    for mod in data.get("mods") or ():
        words += ["--mod", str(mod)]
    words += ["-n", str(data.get("games")), "--rounds", str(rounds_of_play(data)),
              "--seed", str(data.get("seed"))]
    counts = [data.get("players")] + [f.get("players") for f in data.get("fits") or ()]
    if extra_players is not None:  # the same file with a fit for one more count
        counts.append(extra_players)
    if any(c is not None for c in counts):
        words += ["-p", ",".join(str(c) for c in counts if c is not None)]
    if data.get("target", "margin") != "margin":
        words += ["--target", str(data["target"])]
    if data.get("positions", "decisions") != "decisions":
        words += ["--positions", str(data["positions"])]
    played = str(data.get("agent") or "").split(", then ")
    if len(played) > 1 and played[-1].endswith(" games of ismcts"):
        words += ["--agent", "ismcts"]
    if data.get("prior", "zero") != "zero":
        words += ["--prior", str(data["prior"])]
    cards = data.get("card_prior")
    if cards:
        zones = ",".join(str(z) for z in cards.get("zones") or ())
        words += ["--card-prior", f"{zones}:{cards.get('cost') or ''}".rstrip(":")]
        words += [f"--card-{option}" for option in ("uses", "requirements")
                  if cards.get(option)]
    search = data.get("search") or {}
    shrink = search.get("shrink")
    if shrink:
        words += ["--shrink", f"{shrink:g}"]
    for setting in SEARCH_SETTINGS:  # (in this order: the command is the same every time)
        if setting in search:
            words += ["--search", f"{setting}={search[setting]}"]
    return shlex.join(words)


def _check_fit(data: dict, at: tuple, diags, doc, shown: str, text: str) -> None:
    """A fit's lists as long as its features, and no feature listed twice."""
    n = len(data["features"])
    for name in ("weights", "late_weights", "mean", "scale", "late_mean", "late_scale"):
        if name in data and len(data[name]) != n:
            diags.error("RB204", f"'{name}' has {len(data[name]):,} numbers for "
                        f"{n:,} features", _span(doc, shown, text, at + (name,)))
    if len(set(data["features"])) != n:
        seen: set = set()
        for i, f in enumerate(data["features"]):
            if f in seen:
                diags.error("RB400", f"the feature '{f}' is listed twice",
                            _span(doc, shown, text, at + ("features", i)))
                break
            seen.add(f)


def _not_a_number(name: str):
    raise ValueError(name)


def _consistent(data: dict) -> bool:
    fits = [data] + list(data.get("fits") or ())
    counts = [f.get("players") for f in fits]
    return data["ruleset"] is not None and len(set(counts)) == len(counts) and all(
        _fit_consistent(f) for f in fits)


def _fit_consistent(data: dict) -> bool:
    n = len(data["features"])
    return all(len(data.get(k, data["features"])) == n
               for k in ("weights", "late_weights", "mean", "scale", "late_mean", "late_scale")) \
        and len(set(data["features"])) == n


def _where(text: str, needle: str) -> tuple[int, int]:
    """The line and column of the first ``needle`` in ``text`` (1, 1 if absent)."""
    at = text.find(needle)
    if at < 0:
        return 1, 1
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def _span(doc, shown: str, text: str, path: tuple) -> Span:
    """Where the value at ``path`` is: from the YAML reading when there is one, else the
    place of its key in the text."""
    if doc is not None:
        return doc.span(path)
    return Span(shown, *_where(text, f'"{path[0]}"'))

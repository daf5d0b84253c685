"""What the lobby offers: rulesets, their variants and mods, agents, saved games.

The page chooses by names this module hands out (a ruleset's key, a mod's
number, a record's file name inside the records folder), never by a path:
the files the server opens are the shipped rulesets, the RULESET and
``--mod`` files given on the command line, the ``mods/`` folder beside a
ruleset, and records in ``--records DIR``. Rulesets are loaded by the same
loader, with the same confinement, as on the command line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from ..agents.specs import PARAMS, SpecError, check, parse, record_problem
from ..errors import RulebookError
from ..load.ruleset import load_ruleset
from ..paths import RULESET_FILE, find_ruleset, shipped_rulesets, shipped_rulesets_dir
from ..play.record import Record, RecordError

RECORD_NAME = re.compile(r"[A-Za-z0-9_.-]{1,120}\.json\Z")
MOD_COMMENT_LINES = 12
SAVED_LISTED = 200  # records the lobby lists, the newest first (simulate may keep thousands)


class LobbyProblem(Exception):
    """Something the lobby cannot do, said in words for the page."""


@dataclass
class Choice:
    key: str  # what the page sends back
    path: Path  # the ruleset's folder
    arg: str | None  # how a record names where it is (None: a shipped ruleset)
    mods: list[Path] = field(default_factory=list)


def fresh_comment(comment: str, name: str, description: str) -> str:
    """A mod's comment without what the lobby already prints beside it: its heading
    ('House rule: <name>.') and the sentences its description says (once is enough)."""
    said = {_sentence(x) for x in _SENTENCE_END.split(description) if x.strip()}
    heading = _sentence(f"House rule: {name}")
    kept = [x for x in _SENTENCE_END.split(comment)
            if x.strip() and _sentence(x) not in said and _sentence(x) != heading]
    return " ".join(x.strip() for x in kept)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _sentence(text: str) -> str:
    """A sentence as compared: its words, any case, its end stop left out."""
    return " ".join(text.split()).rstrip(".!?").casefold()


def mod_comment(path: Path) -> str:
    """A mod's opening comment (its house rule in the author's words), schema line left out."""
    lines = []
    try:
        with path.open(encoding="utf-8") as fh:
            for raw in fh:
                text = raw.strip()
                if not text.startswith("#"):
                    break
                text = text.lstrip("#").strip()
                if text.startswith("yaml-language-server"):
                    continue
                lines.append(text)
                if len(lines) >= MOD_COMMENT_LINES:
                    break
    except (OSError, UnicodeDecodeError):
        return ""
    return " ".join(line for line in lines if line).strip()


class Lobby:
    """The rulesets on offer (the shipped ones and the one given), loaded when chosen."""

    def __init__(self, ruleset: str | None = None, mods: tuple = (),
                 records: Path | None = None):
        self.records = records
        self.choices: dict[str, Choice] = {}
        given_mods = [Path(m).resolve() for m in mods]
        if ruleset is not None:
            manifest = find_ruleset(ruleset)
            if manifest is None:
                raise LobbyProblem(f"'{ruleset}' is neither a ruleset folder nor a shipped "
                                   "ruleset")
            folder = manifest.parent
            shipped = ruleset in shipped_rulesets()
            self.choices["given"] = Choice("given", folder, None if shipped else str(folder),
                                           self._mods_in(folder) + given_mods)
        for name in shipped_rulesets():
            if ruleset in (name,):
                continue
            folder = shipped_rulesets_dir() / name
            self.choices[name] = Choice(name, folder, None, self._mods_in(folder))
        self._loaded: dict = {}
        self._records: dict = {}  # file name → ((mtime, size), what the lobby says of it)

    @staticmethod
    def _mods_in(folder: Path) -> list[Path]:
        mods = folder / "mods"
        return sorted(p for p in mods.glob("*.yaml") if p.is_file()) if mods.is_dir() else []

    def ruleset(self, key: str, mods: tuple[int, ...] = ()):
        """The ruleset of a choice with the chosen mods (numbers into its list), loaded."""
        choice = self.choices.get(key) if isinstance(key, str) else None
        if choice is None:
            raise LobbyProblem("there is no such ruleset here")
        paths = []
        for m in mods:
            if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m < len(choice.mods):
                raise LobbyProblem("there is no such mod here")
            paths.append(str(choice.mods[m]))
        cache_key = (key, tuple(paths))
        if cache_key not in self._loaded:
            try:
                self._loaded[cache_key] = load_ruleset(str(choice.path), paths)
            except RulebookError as exc:
                raise LobbyProblem("the ruleset does not load: "
                                   + exc.diagnostics[0].headline()) from None
        return self._loaded[cache_key]

    def describe(self) -> list[dict]:
        """What the lobby page lists: each ruleset with its players, variants and mods."""
        out = []
        for key, choice in self.choices.items():
            try:
                rs = self.ruleset(key)
            except LobbyProblem as exc:
                out.append({"key": key, "name": choice.path.name, "problem": str(exc)})
                continue
            mods = []
            for i, path in enumerate(choice.mods):
                name, description = _mod_head(path)
                mods.append({"number": i, "name": name, "description": description,
                             "comment": fresh_comment(mod_comment(path), name, description),
                             "file": path.stem})
            out.append({
                "key": key, "name": rs.name, "min": rs.min_players, "max": rs.max_players,
                "variants": [{"id": vid, "name": e.data.get("name") or vid,
                              "description": e.data.get("description") or ""}
                             for vid, e in rs.sections["variants"].items()],
                "mods": mods,
            })
        return out

    # ------------------------------------------------------------ the cards gallery
    def choice_named(self, name) -> tuple[str, Choice]:
        """A choice by its key, else by its folder's name (as a report's link names it)."""
        if isinstance(name, str):
            if name in self.choices:
                return name, self.choices[name]
            for key, choice in self.choices.items():
                if choice.path.name == name:
                    return key, choice
        raise LobbyProblem("there is no such ruleset here")

    def gallery(self, name, mod_names=()) -> dict:
        """The cards gallery of a ruleset with mods the server offers, chosen by file name.

        A mod is named by its file's name without ``.yaml`` (``rich_start``), and
        only the mods this ruleset is offered with are found: never a path."""
        key, choice = self.choice_named(name)
        if len(mod_names) > 50:
            raise LobbyProblem("that is too many mods")
        stems = [p.stem for p in choice.mods]
        numbers = []
        for m in mod_names:
            if not isinstance(m, str) or m not in stems:
                raise LobbyProblem("there is no such mod here: the mods of this ruleset are "
                                   + (", ".join(stems) or "none"))
            if stems.index(m) not in numbers:
                numbers.append(stems.index(m))
        cache_key = ("gallery", key, tuple(numbers))
        if cache_key not in self._loaded:
            from .gallery import gallery
            rs = self.ruleset(key, tuple(numbers))
            base = self.ruleset(key) if numbers else rs
            applied = [(choice.mods[i], _mod_head(choice.mods[i])[0]) for i in numbers]
            offered = [{"file": p.stem, "name": _mod_head(p)[0],
                        "description": _mod_head(p)[1], "on": i in numbers}
                       for i, p in enumerate(choice.mods)]
            self._loaded[cache_key] = gallery(rs, base, applied, key, offered)
        return self._loaded[cache_key]

    # ------------------------------------------------------------ saved games
    def saved_games(self) -> list[dict]:
        """The records in the records folder, newest first: what each is and how far it went.

        Saved games and the records of ``simulate --records`` alike, each with the
        link to its replay (``/replay?record=NAME``: a name in the folder, never a
        path). At most :data:`SAVED_LISTED`; a record is read again only when its
        file changed."""
        return self.saved_listing()["games"]

    def saved_listing(self) -> dict:
        """:meth:`saved_games`, and how many records the folder holds in all."""
        if self.records is None or not self.records.is_dir():
            return {"games": [], "count": 0}
        files = []
        for path in self.records.glob("*.json"):
            if not RECORD_NAME.match(path.name) or path.name.startswith("."):
                continue  # a name the page could not open it by
            try:
                st = path.stat()
            except OSError:
                continue
            if path.is_file():
                files.append((st.st_mtime, st.st_size, path))
        files.sort(key=lambda f: (-f[0], f[2].name))
        out = []
        for mtime, size, path in files[:SAVED_LISTED]:
            known = self._records.get(path.name)
            if known is None or known[0] != (mtime, size):
                known = ((mtime, size), self._describe_record(path))
                self._records[path.name] = known
            if known[1] is not None:
                out.append(known[1])
        return {"games": out, "count": len(files)}

    def _describe_record(self, path: Path) -> dict | None:
        try:
            rec = Record.load(path)
        except RecordError:
            return None
        return {"file": path.name, "ruleset": rec.ruleset, "name": self._ruleset_name(rec),
                "players": rec.players, "seed": rec.seed, "decisions": len(rec.decisions),
                "over": rec.final_hash is not None, "agents": list(rec.agents),
                "replay": "/replay?" + urlencode({"record": path.name})}

    def _ruleset_name(self, rec: Record) -> str:
        """The name of a record's ruleset, when this server offers it; else its id in words."""
        for key, choice in self.choices.items():
            if choice.path.name == rec.ruleset:
                try:
                    return self.ruleset(key).name
                except LobbyProblem:
                    break
        return rec.ruleset.replace("_", " ")

    def record_path(self, name) -> Path:
        """A record of the records folder by its file name (never a path)."""
        if self.records is None:
            raise LobbyProblem("this server keeps no records")
        if not isinstance(name, str) or not RECORD_NAME.match(name) or name.startswith("."):
            raise LobbyProblem("there is no such saved game")
        path = self.records / name
        if not path.is_file():
            raise LobbyProblem("there is no such saved game")
        return path

    def choice_for_record(self, rec: Record) -> Choice:
        for choice in self.choices.values():
            if choice.path.name == rec.ruleset or \
                    (choice.arg is None and choice.path.name == rec.ruleset):
                return choice
        raise LobbyProblem(f"the saved game is for a ruleset this server does not offer")


def agent_list() -> list[dict]:
    """The agents a lobby seats, each with its parameters (the built-in ones only)."""
    out = []
    for name, params in PARAMS.items():
        if name == "human":
            continue
        out.append({"name": name, "params": [
            {"name": p, "choices": list(param.choices),
             "low": param.low, "high": param.high} for p, param in params.items()]})
    return out


def seat_spec(text) -> str:
    """An agent spec from the page: a built-in agent within a record's budget, or refused.

    A page never makes the server import code (no MODULE:CLASS), nor think for
    longer than a record may ask (``agents.specs.RECORD_BUDGET``)."""
    if not isinstance(text, str) or len(text) > 200:
        raise LobbyProblem("an agent is a name such as greedy, with parameters as :KEY=VALUE")
    try:
        spec = parse(text)
        if not spec.builtin or spec.name == "human":
            raise LobbyProblem(f"'{spec.name}' is not an agent here; agents are "
                               + ", ".join(a["name"] for a in agent_list()))
        check(text)
        problem = record_problem(text)
    except SpecError as exc:
        raise LobbyProblem(str(exc)) from None
    if problem:
        raise LobbyProblem(f"'{text}' is {problem}")
    return spec.text


def _mod_head(path: Path) -> tuple[str, str]:
    """A mod's name and its description (what it changes), as its file says them."""
    name, description = path.stem.replace("_", " "), ""
    try:
        import yaml
        with path.open(encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except Exception:  # a mod that does not read: its file name (loading it says why)
        return name, description
    if isinstance(data, dict):
        if isinstance(data.get("name"), str):
            name = data["name"]
        if isinstance(data.get("description"), str):
            description = data["description"]
    return name, description

"""Rulebook: play board games written as data (imported as ``rulebook_games``).

The rooms, each a package that opens with its job and what it may import:

- ``load``: rule files in, a checked Ruleset out (YAML with positions,
  schemas, includes, mods, the warm-load cache);
- ``lang``: the effect language (parse, check, compile to Python, words);
- ``engine``: the runtime of one game (state, flow, decisions, rules running);
- ``agents``: who answers decisions when no person does;
- ``scenarios``: a ruleset's rules tests, as data;
- ``play``: games for people (sessions, records, saves, the terminal seat);
- ``sim``: many games into results files, locally or on Ray;
- ``lab``: results read, measured and compared; ``lsp``: the language server;
  ``env``: a learning environment; ``api``: the Python API; ``cli``: the
  ``rulebook`` command.

The modules at the top are the base every room may use: ``span`` and
``errors`` (positions and diagnostics), ``paths`` (the shipped data),
``cache`` (the per-user cache), ``numtext`` and ``safe_text`` (numbers read
from people, text shown to them), ``outfiles`` (files written where a person
said: checked first, written whole, never replacing what they had).

The package itself is the Python API (``api``, docs/api.md):
``load_ruleset``, ``new_game``, ``play_game``, ``simulate``, ``to_frame``,
``card_text`` and the objects they hand out, each imported when first used.
"""

from .version import __version__  # noqa: E402

from .errors import Diagnostic, RulebookError  # noqa: E402

# The Python API (docs/api.md): each name and the module of ``api`` it comes from.
# They are imported when first used, so 'rulebook --help' and 'import rulebook_games'
# stay quick and load no engine.
_API = {
    "load_ruleset": "rulesets", "shipped_rulesets": "rulesets", "card_text": "rulesets",
    "new_game": "games", "play_game": "games", "Game": "games",
    "Decision": "decisions", "Option": "decisions", "Result": "results",
    "simulate": "rows", "to_frame": "rows",
}


def __getattr__(name):
    if name in _API:
        import importlib
        return getattr(importlib.import_module(f".api.{_API[name]}", __name__), name)
    if name == "Ruleset":
        from .load.ruleset import Ruleset
        return Ruleset
    if name == "GameError":
        from .play.session import GameError
        return GameError
    raise AttributeError(f"module 'rulebook_games' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))


__all__ = ["Decision", "Diagnostic", "Game", "GameError", "Option", "Result", "RulebookError",
           "Ruleset", "__version__", "card_text", "load_ruleset", "new_game", "play_game",
           "shipped_rulesets", "simulate", "to_frame"]

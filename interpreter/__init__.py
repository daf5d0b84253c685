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
  ``env``: a learning environment; ``cli``: the ``rulebook`` command.

The modules at the top are the base every room may use: ``span`` and
``errors`` (positions and diagnostics), ``paths`` (the shipped data),
``cache`` (the per-user cache), ``numtext`` and ``safe_text`` (numbers read
from people, text shown to them), ``outfiles`` (files written where a person
said: checked first, written whole, never replacing what they had).
"""

from .version import __version__  # noqa: E402

from .errors import Diagnostic, RulebookError  # noqa: E402


def __getattr__(name):
    # loading rulesets needs the schema checker and the parser; import them only
    # when a ruleset is loaded, so 'rulebook --help' starts quickly
    if name in ("Ruleset", "load_ruleset"):
        from .load import ruleset
        return getattr(ruleset, name)
    raise AttributeError(f"module 'rulebook_games' has no attribute {name!r}")


__all__ = ["Diagnostic", "RulebookError", "Ruleset", "load_ruleset", "__version__"]

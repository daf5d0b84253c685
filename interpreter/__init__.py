"""Rulebook: play board games written as data.

The pipeline, one module per stage:

- :mod:`interpreter.assemble`: a ruleset's files, following its includes, and its hash;
- :mod:`interpreter.yamlload`: YAML files to plain data with positions;
- :mod:`interpreter.schema`: JSON Schema checks with positioned errors;
- :mod:`interpreter.lang.parser`: effect text to a typed AST (Lark);
- :mod:`interpreter.lang.checker`: names and types;
- :mod:`interpreter.lang.compiler`: AST to closures;
- :mod:`interpreter.ruleset`: the front door that assembles a checked Ruleset;
- :mod:`interpreter.mods`: overlays layered on a ruleset;
- :mod:`interpreter.cache`, :mod:`interpreter.loadcache`: warm loads from a per-user cache;
- :mod:`interpreter.report`: diagnostics as text, JSON, GitHub annotations or SARIF.
"""

__version__ = "0.1.0"

from .errors import Diagnostic, RulebookError  # noqa: E402


def __getattr__(name):
    # loading rulesets needs the schema checker and the parser; import them only
    # when a ruleset is loaded, so 'rulebook --help' starts quickly
    if name in ("Ruleset", "load_ruleset"):
        from . import ruleset
        return getattr(ruleset, name)
    raise AttributeError(f"module 'interpreter' has no attribute {name!r}")


__all__ = ["Diagnostic", "RulebookError", "Ruleset", "load_ruleset", "__version__"]

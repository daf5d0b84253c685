"""Where Rulebook's own data lives: the shipped rulesets, the JSON Schemas, the grammar.

In the source repository these are the top-level trees ``rulesets/``,
``schemas/`` and ``grammar/``. An installed package (a wheel, an sdist built
into a wheel, the environment pre-commit makes) carries a copy of them inside
the package, in ``rulebook_games/_data/``, put there at build time by
``setup.py``. This module chooses one of the two places, once per process:
the packaged copy when the package has one, otherwise the checkout the
package was imported from (an editable install or running from source).
Every caller asks this module, so a process never reads its schemas from
one place and its rulesets or grammar from another.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

# The trees the build copies into the package, and a file each must hold for a
# place to count as complete (an empty or half-copied folder is not enough).
DATA_TREES = ("rulesets", "schemas", "grammar")
PACKAGED_DIR = "_data"
_MARKERS = ("schemas/common.schema.json", "grammar/effects.lark")


class DataMissing(RuntimeError):
    """The installation has lost its data files: a broken install, not a rule error."""


def _complete(root: Path) -> bool:
    return (root / "rulesets").is_dir() and all((root / m).is_file() for m in _MARKERS)


@functools.lru_cache(maxsize=1)
def data_root() -> Path:
    """The one folder that holds ``rulesets/``, ``schemas/`` and ``grammar/`` for this process."""
    package = Path(__file__).resolve().parent
    for candidate in (package / PACKAGED_DIR, package.parent):
        if _complete(candidate):
            return candidate
    raise DataMissing(f"Rulebook's data files ({', '.join(t + '/' for t in DATA_TREES)}) are "
                      f"neither in {package / PACKAGED_DIR} nor beside the package; "
                      "reinstall rulebook-games")


def rulesets_dir() -> Path:
    return data_root() / "rulesets"


def schemas_dir() -> Path:
    return data_root() / "schemas"


def grammar_file() -> Path:
    return data_root() / "grammar" / "effects.lark"


# ------------------------------------------------ finding a ruleset by path or name
RULESET_FILE = "ruleset.yaml"


def find_ruleset(path: str | os.PathLike) -> Path | None:
    """The manifest for a path: a file, a directory, or the name of a shipped ruleset."""
    p = Path(path)
    if p.is_file():
        return p
    if p.is_dir():
        return p / RULESET_FILE if (p / RULESET_FILE).is_file() else None
    name = str(path).rstrip("/" + os.sep)  # 'NAME/' names it too
    if name in shipped_rulesets():  # a name, never a path into the shipped folder
        return shipped_rulesets_dir() / name / RULESET_FILE
    return None


def shipped_rulesets_dir() -> Path:
    """The folder of the rulesets that come with Rulebook (see :mod:`rulebook_games.paths`)."""
    return rulesets_dir()


def shipped_rulesets() -> list[str]:
    """The names of the shipped rulesets: each folder there that holds a manifest."""
    base = shipped_rulesets_dir()
    return sorted(p.parent.name for p in base.glob(f"*/{RULESET_FILE}"))

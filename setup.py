"""Build step that puts Rulebook's data into the package it builds.

The shipped rulesets, the JSON Schemas and the effect grammar stay at the top
of the repository (``rulesets/``, ``schemas/``, ``grammar/``), where authors
edit them. A wheel must carry them too, so ``build_py`` copies the three
trees into ``rulebook_games/_data/`` of the built package, where
``rulebook_games/paths.py`` finds them once installed. An editable install gets
no copy: it reads the checkout directly. ``MANIFEST.in`` puts the same trees
into the sdist, so a wheel built from the sdist has them as well. Everything
else about the project is declared in ``pyproject.toml``.

The package is imported as ``rulebook_games`` and its source is the folder
``interpreter/``: ``package_dir`` maps the one to the other, and every
package below it is listed here. ``py.typed`` (PEP 561) goes into the wheel
as package data, so type checkers read the package's own annotations.
"""

import shutil
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

NAME = "rulebook_games"  # the import name
SOURCE = "interpreter"  # the folder it is built from

TREES = ("rulesets", "schemas", "grammar")
SKIPPED = ("__pycache__", "*.pyc", "*.pyo", ".*")


class build_py_with_data(build_py):
    """``build_py`` that also copies the data trees into ``rulebook_games/_data``."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        source = Path(__file__).resolve().parent
        target = Path(self.build_lib) / NAME / "_data"
        # a build folder left from an earlier build must not keep deleted files
        shutil.rmtree(target, ignore_errors=True)
        for tree in TREES:
            if not (source / tree).is_dir():
                raise SystemExit(f"cannot build rulebook: the '{tree}/' folder is missing")
            shutil.copytree(source / tree, target / tree,
                            ignore=shutil.ignore_patterns(*SKIPPED))


setup(cmdclass={"build_py": build_py_with_data},
      package_dir={NAME: SOURCE},
      package_data={NAME: ["py.typed"], f"{NAME}.web": ["static/*"]},
      packages=[NAME] + [f"{NAME}.{p}" for p in find_packages(SOURCE, exclude=["_data*"])])

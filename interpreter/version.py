"""Rulebook's version, read by the package, the command line, the language server and SARIF.

It imports nothing. The build reads the same number from ``pyproject.toml``, and
``tests/test_install.py`` holds the two equal, and the README's snippets and
CHANGELOG.md to it, so a release bumps both files and the rest follows or fails.
"""

__version__ = "0.2.0"

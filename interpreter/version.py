"""Rulebook's version, read by the package, the command line, the language server and SARIF.

It imports nothing. The build reads the same number from ``pyproject.toml``;
``tests/test_install.py`` holds the two equal and CHANGELOG.md's latest release
to them, and the install tests hold the README's snippets to the tag ``v`` +
this number, so a release that bumps one place and not another fails.
"""

__version__ = "0.2.0"

"""Load: rule files in, a checked :class:`~.ruleset.Ruleset` out.

A ruleset's files are read with positions (:mod:`.yamlload`), following its
includes inside its own folder (:mod:`.assemble`, confined by :mod:`.tree`,
every file opened through :mod:`.userfiles`), checked against the JSON
Schemas (:mod:`.schema`), overlaid with mods (:mod:`.mods`) and turned into
declarations (:mod:`.entries`). :mod:`.ruleset` is the front door: it hands
every effect to the language (parse, check, compile) and returns the
immutable Ruleset; :mod:`.loadcache` keeps a load's results for the next run.
:mod:`.walk` finds what ``validate`` checks in a folder.

May import: the base modules at the top of the package (``span``,
``errors``, ``paths``, ``cache``, ``numtext``, ``safe_text``) and ``lang``.
Nothing else: the runtime and everything above it build on this room.
"""

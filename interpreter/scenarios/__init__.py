"""Scenarios: a ruleset's rules tests, written as data and played by the engine.

:mod:`.files` reads and checks a ruleset's scenario files into
:mod:`.data` (a start, a position, steps and expectations, each with its
place in the file); :mod:`.position` writes a position straight into a
game's state; :mod:`.run` plays a scenario and says which expectation failed,
where, and with what numbers. :mod:`.pytest_plugin` is the pytest plugin the package
registers (entry point ``rulebook``): a repository's own pytest plays its
scenario files.

May import: the base modules, ``load``, ``lang``, ``engine`` and ``agents``
(the agents a scenario seats).
"""

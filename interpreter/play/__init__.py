"""Play: games for people, and the records that keep them.

:mod:`.session` sets a game up with its agents and runs it, saving and
resuming through :mod:`.record` (the record format, read without trusting
it, with positions from :mod:`.jsonplaces`) and :mod:`.saves` (where a
record goes, written atomically); :mod:`.stopping` saves a game that Ctrl-C,
a closed terminal or a kill stops. :mod:`.terminal` is a person's seat at a
terminal (:mod:`.screen` lays its screen out, :mod:`.thinking` says who plays
while the agents do), :mod:`.render` draws a seat's view and the scores there, and
:mod:`.transcript` writes decisions out as their player saw them.
:mod:`.stream` hands a game's decisions out one at a time, to a caller that
answers them when it likes (the Python API and the learning environment).

May import: the base modules, ``load``, ``lang``, ``engine`` and ``agents``.
"""

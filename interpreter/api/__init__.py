"""The Python API: what a script or a notebook uses to load, play and simulate games.

Its names are at the top of the package (``import rulebook_games as rb``;
``rb.load_ruleset``, ``rb.new_game``, ``rb.simulate``…), imported from here
only when first used; docs/api.md is its reference. :mod:`.rulesets` loads
rulesets and writes card text, :mod:`.seats` reads who plays each seat,
:mod:`.decisions` shows a decision and its options in words, :mod:`.games`
steps a game on the play room's decision stream and plays it to the end,
:mod:`.results` is a finished game's result, and :mod:`.rows` simulates many
games into rows and a pandas DataFrame. What these modules name is the
stable surface; the rooms they drive may change.

May import: the base modules, ``lang``, ``load``, ``engine``, ``agents``,
``play`` and ``sim``.
"""

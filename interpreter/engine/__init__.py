"""The runtime: a game's state, its flow, its decisions, and the rules running on them.

:class:`~.game.Game` holds the state (:mod:`.state`) of one game of a loaded
Ruleset and the mixins that change it (stocks, tracks, cards, the board,
modifiers, events, the log); :mod:`.flow` walks the ruleset's rounds, phases
and turns; every question to a player is a :class:`~.decisions.Decision`
(:mod:`.asking`, with :mod:`.refusals` keeping what a position refused and
:mod:`.prompts` its words); :mod:`.infosets` says what each seat may see, and
:mod:`.invariants` checks a game as it runs.

May import: the base modules, ``load`` (the Ruleset) and ``lang`` (the
compiled rules and their words). Never ``agents``, ``scenarios``, ``play`` or
``sim``: they drive the runtime through decisions, not the other way round.
"""

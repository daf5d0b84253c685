"""The balance lab: read simulated games, measure them, and compare a ruleset with its mods.

``rulebook report`` reads a results file that ``simulate --out`` wrote and
shows win rates, per-card figures, score distributions and game lengths,
each with a confidence interval; ``rulebook compare`` plays the same seeds
on a ruleset and on the ruleset with mods layered in, and says what changed.
The modules are small and each has one job: reading results
(:mod:`.results`), the statistics (:mod:`.stats`, all on scipy), names for
people (:mod:`.names`), the report's measures (:mod:`.measures`), the
paired comparison (:mod:`.paired`), and the three ways of showing a set of
tables (:mod:`.terminal`, :mod:`.plots`, :mod:`.page`). scipy and
matplotlib are optional (the ``report`` extra) and are imported only by the
modules that need them, so ordinary play never loads them.
"""

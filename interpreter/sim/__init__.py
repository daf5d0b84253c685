"""Simulation: many games at once, locally or on Ray, into a results file.

:mod:`.simulate` plays seeds on a backend (:mod:`.backends`: local worker
processes, or :mod:`.ray_backend`), in chunks put back in seed order
(:mod:`.batches`); :mod:`.results` says what a finished game tells a results
file, :mod:`.results_file` reads one back without trusting it, :mod:`.resume`
carries a cut-short file on, :mod:`.stats` sums games up one at a time, and
:mod:`.run` is the whole run behind ``rulebook simulate``.

May import: the base modules, ``load``, ``lang``, ``engine``, ``agents`` and
``play`` (a game is set up and played as a session is).
"""

"""The effect language: text to trees, trees checked, trees to Python, trees to words.

:mod:`.parser` reads effect text with the Lark grammar into the typed trees
of :mod:`.ast`; :mod:`.checker` resolves every name and type against the
ruleset's :mod:`.symbols` and the :mod:`.builtins` registry; :mod:`.compiler`
writes each checked tree as Python (:mod:`.codegen`, checked by
:mod:`.pycheck` before it runs, with the support of :mod:`.gensupport` and
the limits of :mod:`.runtime`); the package :mod:`.words` turns trees into
the game's own words, card text among them; :mod:`.astjson` and
:mod:`.tables` keep trees and parser tables in the per-user cache.

May import: the base modules at the top of the package (``span``,
``errors``, ``paths``, ``cache``) and nothing else of Rulebook.
"""

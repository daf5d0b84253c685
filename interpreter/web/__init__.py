"""The web room: ``rulebook serve``, games played, watched and shared in a browser.

:mod:`.app` is the ASGI app (Starlette) and its :class:`~.app.Server` of
games; :mod:`.tables` is one game at the table (seats, secret links, agents
answering on a worker thread, undo by the terminal's rule); :mod:`.lobby`
is what a new game may be (rulesets, variants, mods, agents) and the saved
games; :mod:`.view` is the one adapter from the engine's view of a seat to
the data the page draws; :mod:`.gallery` is the cards gallery's data (every
card's generated text, what the mods changed). ``static/`` holds the pages: plain HTML, CSS and
JavaScript, served from the package, no build step. It needs the ``web``
extra (Starlette, uvicorn).

May import: the base modules, ``lang``, ``load``, ``engine``, ``agents``,
``play``, ``sim`` and ``api``.
"""

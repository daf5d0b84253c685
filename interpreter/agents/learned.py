"""The learned evaluation: a linear value over a seat's features, weights from the ruleset's games.

``rulebook train`` fits, over positions of self-play games, a value of the
features :class:`~.features.Features` reads for one seat, predicting the
seat's final margin (its score minus the best other seat's; its score in a
solo game). Each feature has two weights: one, and one times the game's
progress (the round over the rounds a game lasted in training, at most 1),
so a card in hand can be worth more early than late. The weights are data
(:mod:`rulebook_games.load.learned` reads and checks the file).

:func:`learned_value` gives the value for a game's ruleset (None when it has
no weights file): what ``greedy`` and ``ismcts`` maximise by default
(``eval=learned``), the hand-written ``evaluation`` remaining as the fallback
(no file) and, inside the learned value, as a feature (the prior).
"""

from __future__ import annotations

from .features import Features

PREFIXES = ("stock", "production", "track", "global", "size", "card", "resources", "tile",
            "tiles", "space", "declared")
PLAIN = ("round", "evaluation", "evaluation of the best other", "score",
         "score of the best other", "last round", "turn ahead")
EVALUATIONS = ("learned", "written")


class _Fit:
    """One fit of a weights file (one player count): scaling folded into the weights."""

    def __init__(self, data: dict, rs, unknown: list):
        self.players = int(data["players"]) if data.get("players") else None
        self.rounds = float(data["rounds"])
        # what the file says about this fit's training (who played, how many games, the fit)
        self.info = {k: data.get(k) for k in ("games", "seed", "agent", "players", "fit")}
        const = float(data["intercept"])
        late_mean = data.get("late_mean") or data["mean"]
        late_scale = data.get("late_scale") or data["scale"]
        self.pairs: dict = {}
        for i, name in enumerate(data["features"]):
            w, v = float(data["weights"][i]), float(data["late_weights"][i])
            s, ls = float(data["scale"][i]), float(late_scale[i])
            const -= w * float(data["mean"][i]) / s + v * float(late_mean[i]) / ls
            if not known(rs, name):
                if name not in unknown:
                    unknown.append(name)
                continue
            self.pairs[name] = (w / s, v / ls)
        self.const = const
        self._at: dict = {}  # the game's progress t -> each feature's weight at t

    def weights_at(self, t: float) -> dict:
        """Each feature's weight at progress ``t`` (``w + v * t``, worked out as the sum
        of the value does: the same number), kept per ``t`` (a game has few)."""
        found = self._at.get(t)
        if found is None:
            found = self._at[t] = {name: w + v * t for name, (w, v) in self.pairs.items()}
        return found


class LearnedValue:
    """A weights file made ready to evaluate: scaling folded into the weights.

    A file holds one fit (its top level) and, in ``fits``, fits trained at other
    player counts: a game uses the fit of its player count, else the one of the
    nearest count (the fewer players when two are as near)."""

    def __init__(self, learned, rs):
        self.path = learned.path
        self.sha256 = getattr(learned, "sha256", "")
        self.notes = list(learned.notes)
        self.features = Features(rs)
        data = learned.data
        unknown: list = []
        main = _Fit(data, rs, unknown)
        self.main = main
        self.data = data
        self.fits = [main] + [_Fit(f, rs, unknown) for f in data.get("fits") or ()]
        # the scores are read only for weights that have them (they cost)
        self.features.scores = any("score" in f.pairs or "score of the best other" in f.pairs
                                   for f in self.fits)
        self.features.tempo = any("turn ahead" in f.pairs for f in self.fits)
        self._for: dict = {}  # player count -> the fit used
        # the main fit's, as before files had several (and what the lab shows)
        self.info = dict(main.info, mods=data.get("mods"))
        self.pairs, self.const, self.rounds = main.pairs, main.const, main.rounds
        if unknown:
            shown = ", ".join(unknown[:3]) + (" …" if len(unknown) > 3 else "")
            self.notes.append(f"{learned.path}: {len(unknown):,} of its features are not "
                              f"in this ruleset and are left out ({shown}): it was trained "
                              "on another version of the rules")

    def fit_for(self, players: int) -> _Fit:
        """The fit a game of ``players`` plays with: its own count's, else the nearest."""
        fit = self._for.get(players)
        if fit is None:
            fit = min(self.fits, key=lambda f: (abs((f.players or 2) - players),
                                                f.players or 2))
            self._for[players] = fit
        return fit

    def note_for(self, players: int) -> str | None:
        """Words for a person when no fit was trained at ``players`` (None when one was)."""
        fit = self.fit_for(players)
        if fit.players is None or fit.players == players:
            return None
        from ..load.learned import train_command
        counts = sorted(f.players for f in self.fits if f.players is not None)
        trained = ", ".join(str(c) for c in counts)
        again = train_command(self.data, extra_players=players)
        return (f"{self.path} was trained for {trained} player{'s' if counts != [1] else ''}: "
                f"at {players} the agents use the values learned at {fit.players} "
                f"('{again}' trains a fit for {players} too)")

    def identity(self, players: int) -> dict:
        """Which weights a seat of a ``players`` game plays with, for a results file: the
        file (its sha256), and the player count, games and seed its fit was trained on."""
        fit = self.fit_for(players)
        return {"evaluation": "learned", "file": self.path, "sha256": self.sha256,
                "players": fit.players, "games": fit.info.get("games"),
                "seed": fit.info.get("seed")}

    def values(self, runner, seats) -> list[float]:
        """The learned value of each of ``seats`` in the game ``runner`` plays."""
        reader = self.features
        game = runner.game
        fit = self._for.get(game.n) or self.fit_for(game.n)
        priors, scores = reader.base(runner, seats)
        t = min(1.0, game.state.round / fit.rounds)
        weights = fit.weights_at(t)
        get = weights.get
        out = []
        for seat in seats:
            total = fit.const
            for name, x in reader.of(runner, seat, priors, scores).items():
                w = get(name)
                if w is not None:
                    total += x * w
            out.append(total)
        return out


def uses_learned(spec: str) -> bool:
    """Whether an agent spec plays with the learned evaluation (when there is one)."""
    name = spec.split(":")[0]
    return name in ("greedy", "ismcts", "trained") and "eval=written" not in spec


def seat_evaluation(rs, kind: str, players: int) -> dict | None:
    """What a seat of agent ``kind`` judges positions by, for a results file: None for
    an agent that judges none (random, a Python agent…); ``{"evaluation": "written"}``;
    or the learned weights it plays with (:meth:`LearnedValue.identity`), their file
    named from the ruleset's folder with '/' separators."""
    name = kind.split(":")[0]
    if name not in ("greedy", "ismcts", "trained"):
        return None
    value = learned_value(rs) if uses_learned(kind) else None
    if value is None:
        return {"evaluation": "written"}
    out = value.identity(players)
    import os
    from pathlib import Path
    try:
        rel = os.path.relpath(os.path.abspath(value.path), os.path.abspath(rs.root))
    except ValueError:  # pragma: no cover - another drive on Windows
        rel = os.path.abspath(value.path)
    out["file"] = Path(rel).as_posix()
    return out


def known(rs, name: str) -> bool:
    """Whether a feature's name is one this ruleset can have (its zone and card exist)."""
    if name in PLAIN:
        return True
    if name.startswith("last round:"):  # a feature again, in the game's last round
        return known(rs, name[len("last round:"):])
    if name.startswith("vs:"):  # a public feature against the other seats'
        return known(rs, name[3:])
    head, _, rest = name.partition(":")
    if head not in PREFIXES or not rest:
        return False
    if head in ("card", "resources"):
        zone, _, item = rest.partition(":")
        if zone not in rs.sections["zones"]:
            return False
        return head == "resources" or item in rs.sections["cards"]
    if head == "size":
        return rest in rs.sections["zones"]
    if head == "declared":
        ident = rest.split(":")[0].split("=")[0]
        return ident in rs.sections["features"]
    return True


def learned_value(rs) -> LearnedValue | None:
    """The learned value for a ruleset (None without a weights file), kept with the
    ruleset once read. A file that cannot be used is a RulebookError (the commands
    check it with :func:`check_learned` before any game starts)."""
    cached = rs.__dict__.get("_learned_value", False)
    if cached is not False:
        return cached
    from ..load.learned import learned_path, read_learned
    path, notes = learned_path(rs)
    value = None
    if path is not None:
        learned = read_learned(path, rs)
        learned.notes[:0] = notes
        value = LearnedValue(learned, rs)
    rs.__dict__["_learned_value"] = value
    return value


def check_learned(rs, players: int | None = None) -> list[str]:
    """Read the ruleset's weights file now (a RulebookError if it cannot be used) and
    return the notes about it (a mod using the base's file, rules changed since, no fit
    trained at ``players``…)."""
    value = learned_value(rs)
    if value is None:
        return []
    notes = list(value.notes)
    other = value.note_for(players) if players else None
    return notes + ([other] if other else [])

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
PLAIN = ("round", "evaluation", "evaluation of the best other")
EVALUATIONS = ("learned", "written")


class LearnedValue:
    """A weights file made ready to evaluate: scaling folded into the weights."""

    def __init__(self, learned, rs):
        self.path = learned.path
        self.notes = list(learned.notes)
        self.features = Features(rs)
        data = learned.data
        # what the file says about its training (who played, how many games, the fit)
        self.info = {k: data.get(k) for k in ("games", "seed", "agent", "players", "fit",
                                               "mods")}
        self.rounds = float(data["rounds"])
        const = float(data["intercept"])
        late_mean = data.get("late_mean") or data["mean"]
        late_scale = data.get("late_scale") or data["scale"]
        self.pairs: dict = {}
        unknown = []
        for i, name in enumerate(data["features"]):
            w, v = float(data["weights"][i]), float(data["late_weights"][i])
            s, ls = float(data["scale"][i]), float(late_scale[i])
            const -= w * float(data["mean"][i]) / s + v * float(late_mean[i]) / ls
            if not known(rs, name):
                unknown.append(name)
                continue
            self.pairs[name] = (w / s, v / ls)
        self.const = const
        if unknown:
            shown = ", ".join(unknown[:3]) + (" …" if len(unknown) > 3 else "")
            self.notes.append(f"{learned.path}: {len(unknown):,} of its features are not "
                              f"in this ruleset and are left out ({shown}): it was trained "
                              "on another version of the rules")

    def values(self, runner, seats) -> list[float]:
        """The learned value of each of ``seats`` in the game ``runner`` plays."""
        reader = self.features
        priors, scores = reader.base(runner, seats)
        t = min(1.0, runner.game.state.round / self.rounds)
        pairs = self.pairs
        out = []
        for seat in seats:
            total = self.const
            for name, x in reader.of(runner, seat, priors, scores).items():
                pair = pairs.get(name)
                if pair is not None:
                    total += x * (pair[0] + pair[1] * t)
            out.append(total)
        return out


def uses_learned(spec: str) -> bool:
    """Whether an agent spec plays with the learned evaluation (when there is one)."""
    name = spec.split(":")[0]
    return name in ("greedy", "ismcts", "trained") and "eval=written" not in spec


def known(rs, name: str) -> bool:
    """Whether a feature's name is one this ruleset can have (its zone and card exist)."""
    if name in PLAIN:
        return True
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


def learned_value(rs, players: int | None = None) -> LearnedValue | None:
    """The learned value for a ruleset (None without a weights file) in games of
    ``players`` (a file trained for that count first, see
    :func:`~rulebook_games.load.learned.learned_path`), kept with the ruleset once
    read. A file that cannot be used is a RulebookError (the commands check it with
    :func:`check_learned` before any game starts). ``rulebook train`` sets the values
    its later rounds play with as ``_learned_value``, whatever the count."""
    forced = rs.__dict__.get("_learned_value", False)
    if forced is not False:
        return forced
    cache = rs.__dict__.get("_learned_values")
    if cache is None:
        cache = rs.__dict__["_learned_values"] = {}
    if players in cache:
        return cache[players]
    from ..load.learned import learned_path, read_learned
    path, notes = learned_path(rs, players)
    value = None
    if path is not None:
        same = [v for v in cache.values() if v is not None and v.path == str(path)]
        if same:
            value = same[0]
        else:
            learned = read_learned(path, rs)
            learned.notes[:0] = notes
            value = LearnedValue(learned, rs)
    cache[players] = value
    return value


def check_learned(rs, players: int | None = None) -> list[str]:
    """Read the ruleset's weights file for games of ``players`` now (a RulebookError if it
    cannot be used) and return the notes about it (a mod using the base's file, rules
    changed since…)."""
    value = learned_value(rs, players)
    return list(value.notes) if value is not None else []

"""``rulebook train``: an evaluation learned from a ruleset's own games.

Self-play games in rounds: the first round's games are played by ``greedy``
with the ruleset's hand-written evaluation (``greedy:eval=written``), each
later round's by ``greedy`` with the values fitted on every round before it.
During each game, positions are sampled (a share of the decisions with two
or more answers, drawn from the training seed); at each, every seat's
features are read (:class:`~rulebook_games.agents.features.Features`) on a
copy of the game dealt for that seat as its agent's searches deal it (what
it cannot see dealt again), so a seat's features are what it may know. When
the game ends each sample is labelled with the seat's final margin (its
score minus the best other seat's; a solo seat's score), or with
``target="evaluation"`` the same of the ruleset's hand-written evaluation of
the final position (a solo seat's own): where a ruleset says what its solo
seat aims at beyond the score (a goal reached or not).

The fit is ridge regression (numpy and scipy: ``lsqr`` with a damping term
on the sparse, scaled features, centred as it goes): each feature has a
weight, and a second weight on the feature times the game's progress (the
round over the rounds a training game lasted on average). A fifth of the
games (the last ones of every round) is held out: the damping is the one
that predicts their margins best, and the report gives how well (R², and how
often the sign of the predicted margin named the seat that won). The final
weights are then fitted on every game.

Same ruleset, mods, players, games and seed: the same weights, number for
number.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

MIN_ROWS = 3  # a feature seen in fewer samples than this is left out
FIRST_RATE = 0.15  # the share of decisions sampled in the first game
POSITIONS = 30  # about how many positions are sampled per game after it
DAMPING = (1.0, 10.0, 100.0, 1000.0, 10000.0)
CARD_FACTORS = (0.0, 0.03, 0.1, 0.3, 1.0)


@dataclass
class Sample:
    game: int  # index of the game in the training run
    round: int
    features: dict  # name -> number
    target: float = 0.0
    # with prior="evaluation": what one more point is worth to the seat's hand-written
    # evaluation here (its units a point; None: not read)
    point_price: float | None = None
    # with a card prior: what playing each card the seat holds in the prior's zones
    # would do now, in points, by card (:func:`card_worths`; None: not read)
    worths: dict | None = None
    # with a card prior that counts uses: what each card's actions and triggers would
    # bring in one round once it is played, in points, by card (:func:`card_uses`)
    uses: dict | None = None


@dataclass
class TrainRun:
    games: int = 0
    samples: list = field(default_factory=list)
    rounds_played: list = field(default_factory=list)  # final round of each game
    errors: list = field(default_factory=list)
    seconds: float = 0.0
    agents: list = field(default_factory=list)  # (spec, games) per training round


def _targets(scores: list, lowest: bool) -> list[float]:
    sign = -1 if lowest else 1
    if len(scores) == 1:
        return [float(scores[0])]
    return [float(sign * (s - max(o for q, o in enumerate(scores) if q != p)))
            for p, s in enumerate(scores)]


def play_and_sample(rs, players: int, seed: int, kind: str, game_index: int,
                    sample_rate: float, variants=(), target: str = "margin",
                    positions: str = "decisions", prior: str = "",
                    card_prior: dict | None = None) -> tuple[list, int]:
    """One self-play game of agent ``kind`` in every seat: its samples, labelled, its
    last round and how many decisions the agents were asked.

    ``positions="decisions"`` samples a share of the decisions, every seat at each;
    ``"turn-ends"`` samples a share of the turns' ends, the seat whose turn just ended
    (read at the next decision, before the next turn asks anything), and the final
    position for every seat: the positions a search's horizon ends at.

    ``prior="evaluation"`` also reads, at each sampled position, what one more point is
    worth to the seat's hand-written evaluation (:func:`point_price`).

    ``card_prior`` (``{"zones": [...], "cost": RESOURCE}``): also what playing each
    card the seat holds in those zones would do (:func:`card_worths`)."""
    from ..agents.base import RandomAgent
    from ..agents.features import Features
    from ..agents.lookahead import Dealing, determinise
    from ..engine.flow import FlowRunner
    from ..lang.gensupport import reading
    from ..lang.runtime import SearchBudget
    from ..play.session import build_game, run
    game = build_game(rs, players, seed, [kind] * players, tuple(variants))
    game.keep_log = False
    if card_prior and card_prior.get("uses"):
        _watch_events(game)
    reader = Features(rs)
    reader.scores = True  # (the score features: the fit decides what they are worth)
    reader.tempo = positions == "turn-ends"  # (which seat moved first: see Features)
    picker = random.Random(seed * 7 + 3)
    dealer = random.Random(seed * 11 + 5)
    prober = random.Random(seed * 13 + 7)  # (the card probes' own draws: the rest unchanged)
    taken: list[Sample] = []
    seats_of: list[int] = []
    asked = [0]

    def sample(real, seats=None) -> None:
        for seat in (range(real.n) if seats is None else seats):
            copy = determinise(real, seat, dealer, SearchBudget(), Dealing(real, seat))
            copy.budget.trial()
            if seats is not None and not real.state.over:
                copy.state.turn_seat = seat  # (read as at its turn's end, before the next)
            runner = FlowRunner(copy)
            with reading(copy):
                priors, scores = reader.base(runner, range(real.n))
                feats = reader.of(runner, seat, priors, scores)
                price = point_price(runner, seat, priors[seat]) if prior else None
                worths = uses = None
                if card_prior:
                    copy.agents = [RandomAgent(prober.randrange(1 << 30))] * real.n
                    if card_prior.get("uses"):
                        uses = {}
                    worths = card_worths(copy, seat, priors[seat], card_prior, uses,
                                         real.__dict__.get(SEEN_EVENTS))
            taken.append(Sample(game_index, real.state.round, feats, point_price=price,
                                worths=worths, uses=uses or None))
            seats_of.append(seat)

    turn = [None]  # (turn number, seat) of the last decision seen

    for agent in game.agents:
        inner = agent.decide

        def decide(decision, view, g, inner=inner):
            asked[0] += 1
            if positions == "turn-ends":
                now = (g.state.turn_number, g.state.turn_seat)
                ended = turn[0]
                turn[0] = now
                if ended is not None and ended != now and 0 <= ended[1] < g.n \
                        and picker.random() < sample_rate:
                    sample(g, [ended[1]])
            elif picker.random() < sample_rate:
                sample(g)
            return inner(decision, view, g)
        agent.decide = decide
    result = run(game)
    if positions == "turn-ends":
        sample(game)  # the final position: what is left in hand is worth nothing now
    if target == "evaluation":  # the hand-written evaluation of the final position
        runner = FlowRunner(game)
        with reading(game):
            targets = _targets([runner.evaluate(p) for p in range(game.n)], False)
    else:
        targets = _targets(result.scores, _lowest(rs))
    for s, seat in zip(taken, seats_of):
        s.target = targets[seat]
    return taken, game.state.round, asked[0]


STEP = 5  # the points added to a seat's score to read what its evaluation pays for one


def point_price(runner, seat: int, now: float) -> float:
    """What one point of ``seat``'s score is worth to the ruleset's hand-written
    evaluation in this position (``now``, its evaluation as it is): the evaluation read
    again with :data:`STEP` points added to what ``score()`` gives for the seat, the
    difference over the step. 0 for a ruleset without an evaluation (its score is its
    value) or one that does not read the score."""
    game = runner.game
    if ("flow", "evaluation") not in game.rs.code:
        return 0.0
    plain = game.score

    def more(player, plain=plain):
        return plain(player) + (STEP if player == seat else 0)
    game.score = more  # (the evaluation's score(): read through the game)
    try:
        return (float(runner.evaluate(seat)) - now) / STEP
    finally:
        del game.score


RESOURCE_STEP = 10  # the units of the cost's resource added to read what one is worth


SEEN_EVENTS = "_training_events"  # (the watched game's events: see _watch_events)


def _watch_events(game) -> None:
    """Keep the events of ``game`` itself as they happen, (event, player, payload), in
    its ``SEEN_EVENTS`` list: its class becomes one whose ``emit`` also records. The
    agents' copies of it are plain games (``Game.__copy__``): what their searches try
    is not recorded, and the game plays as before."""
    from ..engine.game import Game

    class Watched(Game):
        def emit(self, event, payload):
            self.__dict__[SEEN_EVENTS].append((event, payload.get("player"), dict(payload)))
            return Game.emit(self, event, payload)
    game.__dict__[SEEN_EVENTS] = []
    game.__class__ = Watched


def card_worths(game, seat: int, now: float, card_prior: dict, uses: dict | None = None,
                events: list | None = None) -> dict:
    """What playing each card ``seat`` holds in the card prior's zones would do now, in
    points, by card: the hand-written evaluation's gain when the card's ``play`` effect
    runs on a copy of the position (its cost and requirements ignored; the choices it
    asks answered by the copy's agents), over the evaluation's price of a point
    (:func:`point_price`), plus the card's ``vp``, less its printed ``cost`` in the
    prior's resource at the evaluation's price of one. At least 0: a card not worth
    playing can be left unplayed. A card whose effect fails on the copy counts 0; a
    position where a point is worth nothing to the evaluation gives no worths (None).

    With ``card_prior["requirements"]``: a card whose requirements do not hold for the
    seat now (``meets_requirements``) is worth 0 here, so that a card's mean worth over
    the positions it was held at counts what it does only where it could be played.

    ``uses`` (a dict, filled with ``card_prior["uses"]``): what the card's actions and
    triggers would bring in one round once it is played, in points, by card
    (:func:`card_uses`; ``events`` the game's events so far, for the triggers).

    Nothing here knows a game: the zones and the resource are the training's option."""
    from ..engine.flow import FlowRunner
    from ..lang.gensupport import reading
    from ..lang.runtime import RequirementFailed, RuleRuntimeError
    from ..engine.decisions import ActionRefused
    runner = FlowRunner(game)
    with reading(game):
        price = point_price(runner, seat, now)
    if price <= 0:
        return None
    st = game.state
    resource = card_prior.get("cost")
    per_unit = 0.0
    if resource:
        probe = game.__copy__()
        probe.state = st.clone()
        probe.state.players[seat].stock[resource] = \
            probe.state.players[seat].stock.get(resource, 0) + RESOURCE_STEP
        with reading(probe):
            per_unit = (float(FlowRunner(probe).evaluate(seat)) - now) / RESOURCE_STEP
    out: dict = {}
    failed = (RequirementFailed, ActionRefused, RuleRuntimeError)
    for zone in card_prior.get("zones") or ():
        for c in st.zones.get((zone, seat), ()):
            ident = st.cards[c].def_id
            if ident in out:
                continue
            if card_prior.get("requirements"):
                try:
                    with reading(game):
                        met = game.meets_requirements(c, seat)
                except failed:
                    met = False
                if not met:
                    out[ident] = 0.0
                    if uses is not None:
                        uses[ident] = 0.0
                    continue
            data = game.card_data(c)
            if uses is not None:
                uses[ident] = card_uses(game, seat, c, now, price, events or ())
            probe = game.__copy__()
            probe.state = st.clone()
            gain = 0.0
            if data.get("play") is not None:
                try:
                    probe.run_block(c, "play", seat)
                    with reading(probe):
                        gain = float(FlowRunner(probe).evaluate(seat)) - now
                except failed:
                    out[ident] = 0.0
                    continue
            try:
                vp = float(game.vp_of(c) or 0)
            except failed:
                vp = 0.0
            cost = float(data.get("cost") or 0) * per_unit
            out[ident] = max(0.0, (gain - cost) / price + vp)
    return out


def card_uses(game, seat: int, card: int, now: float, price: float, events) -> float:
    """What ``card``'s actions and triggers would bring ``seat`` in one round once it is
    played, in points (at least 0):

    - an action: its ``do`` run on a copy of the position (when its ``if`` holds), the
      hand-written evaluation's gain over its price of a point plus what the card's own
      ``vp`` gains; the best of the card's actions, as one is taken a round;
    - a trigger: its ``do`` run on a copy the same way, times how often it would have
      fired a round in this game so far: the game's ``events`` of its kind and scope
      (the seat's own, the others', anyone's) whose ``if`` holds (read with the card
      as ``this``), over the rounds played. The ``do`` is run with the latest event
      that held.

    The card stays where it is (its cost and requirements aside); an effect that fails
    on the copy brings 0. Nothing here knows a game."""
    from ..engine.flow import FlowRunner
    from ..lang.gensupport import reading
    from ..lang.runtime import RequirementFailed, RuleRuntimeError
    from ..engine.decisions import ActionRefused
    failed = (RequirementFailed, ActionRefused, RuleRuntimeError)
    st = game.state
    data = game.card_data(card)

    def gain_of(code, frame_extra) -> float:
        probe = game.__copy__()
        probe.state = st.clone()
        try:
            with reading(probe):
                before = float(probe.vp_of(card) or 0)
            probe.about_card(card, code, probe.frame(seat, this=card, **frame_extra))
            with reading(probe):
                after = float(probe.vp_of(card) or 0)
                value = float(FlowRunner(probe).evaluate(seat))
        except failed:
            return 0.0
        return (value - now) / price + after - before

    best = 0.0
    for i, _ in enumerate(data.get("actions") or ()):
        code = game.card_code(card, "action", i, "do")
        if code is None:
            continue
        cond = game.card_code(card, "action", i, "if")
        try:
            with reading(game):
                if cond is not None and not cond(game.frame(seat, this=card)):
                    continue
        except failed:
            continue
        best = max(best, gain_of(code, {}))
    total = best
    rounds = max(1, st.round)
    for i, trig in enumerate(data.get("triggers") or ()):
        code = game.card_code(card, "trigger", i, "do")
        if code is None:
            continue
        scope = trig.get("scope", "you")
        kind = [(who, payload) for event, who, payload in events
                if event == trig.get("on")
                and not (scope == "you" and who != seat or scope == "opponents" and who == seat)]
        if not kind:
            continue
        cond = game.card_code(card, "trigger", i, "if")
        held = []
        for who, payload in kind:
            try:
                with reading(game):
                    if cond is None or cond(game.frame(seat, this=card, event=payload)):
                        held.append(payload)
            except failed:
                continue
        if not held:
            continue
        total += len(held) / rounds * gain_of(code, {"event": held[-1]})
    return max(0.0, total)


def card_prior_weights(samples: list, rounds: float = 0.0) -> dict:
    """What each card measured (:func:`card_worths`) is worth played, in points: the mean
    of its worths at the positions it was measured at, by card. With uses measured
    (:func:`card_uses`), each position's worth also counts the card's uses a round for
    the rounds left after it (``rounds``, the training games' mean length, less the
    position's round)."""
    seen: dict = {}
    for s in samples:
        left = max(0.0, rounds - s.round)
        for ident, w in (s.worths or {}).items():
            seen.setdefault(ident, []).append(w + left * (s.uses or {}).get(ident, 0.0))
    return {ident: sum(ws) / len(ws) for ident, ws in sorted(seen.items())}


def prior_lines(samples: list, rounds: float) -> dict | None:
    """The prior of ``--prior evaluation``: the hand-written evaluation of what is not
    yet scored, in points at the evaluation's own price of a point. At each position
    that price (:func:`point_price`) is p, so the evaluation is p times the score plus
    what it makes of the rest, and the value ``score + (evaluation - p * score) / p``
    counts a point as a point and the rest as the evaluation prices it. As the value's
    weights are straight lines in the game's progress ``t``, this is
    ``c(t) * evaluation + (1 - c(t) * p) * score``: ``c`` the line nearest to 1 / p
    over the positions, the score's weight the line nearest to 1 - c * p (about 0).
    None when no position has a price (no evaluation, or one that reads no score)."""
    import numpy as np
    rows = [s for s in samples if s.point_price and s.point_price > 0]
    if len(rows) < 10:
        return None
    t = np.array([min(1.0, s.round / rounds) for s in rows])
    p = np.array([s.point_price for s in rows])
    line = np.column_stack([np.ones_like(t), t])
    (c0, c1), *_ = np.linalg.lstsq(line, 1.0 / p, rcond=None)
    (s0, s1), *_ = np.linalg.lstsq(line, 1.0 - (c0 + c1 * t) * p, rcond=None)
    return {"evaluation": (float(c0), float(c1)), "score": (float(s0), float(s1))}


def _card_lines(worths: dict, zones) -> dict:
    """The card prior as the fit takes it: each card's feature in each of ``zones`` ->
    the card's worth."""
    return {f"card:{zone}:{ident}": w for zone in zones for ident, w in worths.items()}


def _lowest(rs) -> bool:
    end = rs.singles.get("end")  # (the flow's 'end:', as the engine reads it)
    data = end.data if end is not None and isinstance(end.data, dict) else {}
    return data.get("winner") == "lowest"


# the features that carry most of what a position is worth to any ruleset: fitted
# first, so that with few games the value stays near the hand-written evaluation (the
# prior) and what the other features add is learned on top of what they leave
CORE = ("evaluation", "evaluation of the best other", "round")
# the points already scored are not fitted: a position is worth its score margin now plus
# what the fit expects still to come (see fit)
SCORE, BEST_OTHER = "score", "score of the best other"
OTHER_OF = {SCORE: BEST_OTHER, "evaluation": "evaluation of the best other"}
CORE_DAMPING = 1.0
SPARSE = ("card:", "resources:", "space:")
# with a card prior, the worth of the cards held (see fit): fitted, then folded away
CARD_PRIOR = "worth of the cards held"  # one per card or space: many, each seen rarely


def sparse(name: str) -> bool:
    """Whether a feature is one of the many that each name one card or space (or one
    value of a declared feature): they identify a game more than they explain it, and
    are held back harder by the fit."""
    return name.startswith(SPARSE) or "=" in name


def fit(samples: list[Sample], rounds: float, damping: float, card_factor: float = 1.0,
        lowest: bool = False, prior: dict | None = None, card_prior: dict | None = None):
    """Ridge regression of the targets on the samples' features (and their late copies):
    (names, weights, late weights, intercept, mean, scale, late mean, late scale).

    When the samples have the score features, the points already scored are not
    fitted: the fit predicts what the final margin adds to the score margin now
    (its score minus the best other seat's; a solo seat's score), and the value is
    that margin, with a weight of exactly 1, plus the prediction. So a point
    scored now is worth a point, and stock is worth only the points it was seen to
    bring later: fitted freely, the score (inside the evaluation) and the stock
    share the credit as the games happen to mix them, and a linear value fitted
    so on greedy's games priced a stock above the points it buys (issue 29):
    its agents kept the stock and passed.

    The :data:`CORE` features are fitted first, lightly held back; the others then
    fit what those leave unexplained, with ``damping``. Every feature is scaled to a
    standard deviation of 1, the card and space features (:func:`sparse`) to
    ``card_factor`` (0 leaves them out): their penalty is that much heavier. Every
    position of a game has the game's margin, and a game's cards tell the games
    apart: fitted as freely as the few plain features, they learn the training games
    by heart.

    ``prior`` (:func:`prior_lines`): the evaluation's and the score's weights are fixed
    at the prior's, so that the value is the score margin plus the hand-written
    evaluation of what is not yet scored, in points, plus what the other features
    add to it: each of them held back toward adding nothing (a unit of money, a card
    in hand then keeps the evaluation's price where the games say little).

    ``card_prior`` (card feature name -> the card's worth played, in points:
    :func:`card_prior_weights`): one more feature, :data:`CARD_PRIOR`, the worth of
    the cards the seat holds (the sum over those features of the count times the
    worth), fitted with the :data:`CORE` features (its weight a straight line in the
    game's progress: how much of what the cards held would do the games were seen
    to turn into points); it is then folded into the card features' weights (each
    card's gets that line times its worth, on top of what the card features are
    fitted, if at all) and left out of the weights: the value reads the same
    features as without the prior, the cards held valued by what they do."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.linalg import LinearOperator, lsqr
    counts: dict = {}
    held: list | None = None  # with a card prior: each sample's worth of its cards held
    if card_prior:
        held = [sum(x * card_prior[n] for n, x in s.features.items() if n in card_prior)
                for s in samples]
        counts[CARD_PRIOR] = sum(1 for h in held if h)
    for s in samples:
        for name in s.features:
            counts[name] = counts.get(name, 0) + 1
    names = sorted(n for n, c in counts.items()
                   if c >= MIN_ROWS or card_prior and n in card_prior)
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    rows, cols, vals = [], [], []
    y = np.empty(len(samples))
    for r, s in enumerate(samples):
        t = min(1.0, s.round / rounds)
        for name, x in s.features.items():
            i = index.get(name)
            if i is None or not x:
                continue
            rows += [r, r]
            cols += [i, k + i]
            vals += [float(x), float(x) * t]
        if held is not None and held[r] and CARD_PRIOR in index:
            i = index[CARD_PRIOR]
            rows += [r, r]
            cols += [i, k + i]
            vals += [float(held[r]), float(held[r]) * t]
        y[r] = s.target
    X = csr_matrix((vals, (rows, cols)), shape=(len(samples), 2 * k))
    mean = np.asarray(X.mean(axis=0)).ravel()
    sq = np.asarray(X.multiply(X).mean(axis=0)).ravel()
    std = np.sqrt(np.maximum(sq - mean * mean, 0.0))
    # (the worth of the cards held is the hand-written evaluation's reading of what they
    # would do, one number as dense as the evaluation: fitted with it, lightly held back;
    # held back as the many other features are, the fit kept about 2 % of it)
    core = np.array([n in CORE or n == CARD_PRIOR for n in names] * 2)
    factor = np.array([card_factor if sparse(n) else 1.0 for n in names] * 2)
    y_mean = float(y.mean())
    n = X.shape[0]
    # the score margin now: a fixed part of the value, weight 1 (see above); with the
    # prior, the score's and the evaluation's weights are the prior's (fixed too)
    fixed = np.zeros(2 * k, dtype=bool)
    fixed_w = np.zeros(2 * k)
    multi = BEST_OTHER in index
    if SCORE in index:
        sign = -1.0 if lowest and multi else 1.0
        lines = {SCORE: (sign, 0.0)}  # (a point is a point at any time)
        if prior and "evaluation" in index and not lowest:
            lines = {SCORE: prior["score"], "evaluation": prior["evaluation"]}
        for name, (w0, v0) in lines.items():
            for ident, side in ((name, 1.0), (OTHER_OF[name], -1.0)):
                i = index.get(ident)
                if i is None or (ident != name and not multi):
                    continue
                fixed[i] = fixed[k + i] = True
                fixed_w[i], fixed_w[k + i] = side * w0, side * v0
        y = y - X @ fixed_w

    def solve(live, scale, target, damp):
        def matvec(v):
            v = np.ravel(v) * live / scale
            return X @ v - float(mean @ v)

        def rmatvec(u):
            u = np.ravel(u)
            return (X.T @ u - mean * u.sum()) * live / scale
        op = LinearOperator((n, 2 * k), matvec=matvec, rmatvec=rmatvec, dtype=float)
        w = lsqr(op, target, damp=math.sqrt(damp), atol=1e-8, btol=1e-8, iter_lim=2000)[0]
        return w * live, matvec
    # first the few features every ruleset has (its evaluation, the best other's, the round),
    # held back lightly; then every other feature, on what those leave unexplained
    live1 = core & (std > 1e-9) & ~fixed
    live2 = ~core & (std > 1e-9) & (factor > 0) & ~fixed
    scale = np.where(live1, std, np.where(live2, std / np.where(factor > 0, factor, 1.0), 1.0))
    rest = float(y.mean())  # (the intercept stays the mean of the margins: y_mean)
    w1, predict1 = solve(live1, scale, y - rest, CORE_DAMPING * n / 100)
    w2, _ = solve(live2, scale, y - rest - predict1(w1), damping) if live2.any() \
        else (np.zeros(2 * k), None)
    w = w1 + w2 + fixed_w  # (a fixed feature's scale is 1: its weight is per point)
    if CARD_PRIOR in index:  # folded into the cards' weights (exactly: see above)
        i = index[CARD_PRIOR]
        early, late = w[i] / scale[i], w[k + i] / scale[k + i]
        for name, worth in card_prior.items():
            j = index.get(name)
            if j is not None:
                w[j] += early * worth * scale[j]
                w[k + j] += late * worth * scale[k + j]
        keep = np.array([n != CARD_PRIOR for n in names] * 2)
        names = [n for n in names if n != CARD_PRIOR]
        k = len(names)
        w, mean, scale = w[keep], mean[keep], scale[keep]
    return (names, w[:k], w[k:], y_mean, mean[:k], scale[:k], mean[k:], scale[k:])


def predict(model, samples: list[Sample], rounds: float):
    import numpy as np
    names, w, v, b, m, s, lm, ls = model
    index = {n: i for i, n in enumerate(names)}
    a = w / s
    c = v / ls
    const = b - float(w @ (m / s)) - float(v @ (lm / ls))
    out = np.empty(len(samples))
    for r, smp in enumerate(samples):
        t = min(1.0, smp.round / rounds)
        total = const
        for name, x in smp.features.items():
            i = index.get(name)
            if i is not None:
                total += x * (a[i] + c[i] * t)
        out[r] = total
    return out


def quality(pred, samples: list[Sample]) -> dict:
    import numpy as np
    y = np.array([s.target for s in samples])
    if len(y) == 0:
        return {"r2": 0.0, "sign": 0.0, "samples": 0}
    ss = float(((y - y.mean()) ** 2).sum()) or 1.0
    r2 = 1.0 - float(((y - pred) ** 2).sum()) / ss
    decided = y != 0
    sign = float(((pred > 0) == (y > 0))[decided].mean()) if decided.any() else 0.0
    return {"r2": r2, "sign": sign, "samples": int(len(y))}


def train(rs, players: int, games: int, seed: int, rounds_of_play: int = 2,
          sample_rate: float | None = None, variants=(), progress=None,
          target: str = "margin", positions: str = "decisions", prior: str = "",
          agent: str = "greedy", card_prior: dict | None = None) -> dict:
    """Play the training games and fit: the weights file's data (see the schema).

    ``agent`` plays every round after the first, with the values fitted so far
    (``greedy``, or ``ismcts``: its own games, about fifteen times greedy's CPU).
    ``prior="evaluation"``: the value is the score margin plus the hand-written
    evaluation of what is not yet scored, in points at its own price of a point
    (:func:`prior_lines`), plus what the other features add (held back toward
    nothing); "" (the default): the score margin plus what the features add.
    ``card_prior`` (``{"zones": [ZONE...], "cost": RESOURCE}``, None by default): each
    card's feature in those zones held back toward what playing the card does
    (:func:`card_worths`, :func:`card_prior_weights`) instead of toward 0."""
    from ..agents.learned import LearnedValue
    from ..load.learned import FORMAT, Learned
    say = progress or (lambda text: None)
    start = time.process_time()
    per_round = [games // rounds_of_play + (1 if r < games % rounds_of_play else 0)
                 for r in range(rounds_of_play)]
    runs = TrainRun()
    lowest = _lowest(rs)
    held: set = set()
    kept = rs.__dict__.get("_learned_value", False)
    model, rounds, damping = None, 1.0, DAMPING[2]
    worth = None  # the card prior's weights (card_prior_weights), once fitted
    # a share of the decisions: about POSITIONS of each game (from the first game's
    # length), since a game's positions share its margin and tell little more each
    rate = sample_rate if sample_rate is not None else FIRST_RATE
    if positions == "turn-ends" and sample_rate is None:
        rate = 1.0  # (a game has few turns: every turn's end)
    try:
        index = 0
        for r, count in enumerate(per_round):
            if not count:
                continue
            if model is None:
                rs.__dict__["_learned_value"] = None
                kind = "greedy:eval=written"
            else:
                rs.__dict__["_learned_value"] = LearnedValue(
                    Learned(f"round {r} of training", _data(rs, model, rounds, 0, seed, "",
                                                            players, {}, target, positions,
                                                            prior, card_prior, worth)),
                    rs)
                kind = agent
            runs.agents.append((kind if model is not None else "greedy:eval=written", count))
            for i in range(count):
                game_seed = seed * 100_003 + index
                try:
                    taken, last, asked = play_and_sample(rs, players, game_seed, kind, index,
                                                         rate, variants, target,
                                                         positions, prior, card_prior)
                except Exception as exc:  # a game that fails is counted and left out
                    runs.errors.append(f"game {index + 1}: {str(exc).splitlines()[0][:200]}")
                    index += 1
                    continue
                runs.samples += taken
                runs.rounds_played.append(last)
                if sample_rate is None and runs.games == 0 and asked \
                        and positions == "decisions":
                    rate = min(FIRST_RATE, POSITIONS / asked)
                if i >= count - max(1, count // 5):
                    held.add(index)
                index += 1
                runs.games += 1
                if runs.games % 10 == 0:
                    say(f"{runs.games} of {games} games played, {len(runs.samples):,} "
                        "positions sampled")
            rounds = max(1.0, sum(runs.rounds_played) / max(1, len(runs.rounds_played)))
            train_set = [s for s in runs.samples if s.game not in held]
            test_set = [s for s in runs.samples if s.game in held]
            held_prior = prior_lines(train_set, rounds) if prior else None
            zones = (card_prior or {}).get("zones") or ()
            held_worth = _card_lines(card_prior_weights(train_set, rounds), zones) if card_prior \
                else None
            best = None
            for d in DAMPING:
                for g in CARD_FACTORS:
                    m = fit(train_set, rounds, d * len(train_set) / 100, g, lowest,
                            held_prior, held_worth)
                    q = quality(predict(m, test_set, rounds), test_set)
                    if best is None or q["r2"] > best[0]["r2"]:
                        best = (q, d, g)
            fit_quality, damping, card_factor = best
            worth = _card_lines(card_prior_weights(runs.samples, rounds), zones) if card_prior \
                else None
            model = fit(runs.samples, rounds, damping * len(runs.samples) / 100, card_factor,
                        lowest, prior_lines(runs.samples, rounds) if prior else None, worth)
            say(f"round {r + 1} ({kind}, {count} games): held-out R² "
                f"{fit_quality['r2']:.2f}, the predicted margin's sign right in "
                f"{100 * fit_quality['sign']:.0f} % of {fit_quality['samples']:,} positions")
    finally:
        if kept is False:
            rs.__dict__.pop("_learned_value", None)
        else:
            rs.__dict__["_learned_value"] = kept
    if model is None:
        raise ValueError("no training game ended: nothing to learn from")
    runs.seconds = time.process_time() - start
    agent = ", then ".join(f"{n} games of {k}" for k, n in runs.agents)
    fit_info = {"held_out_games": len(held), "held_out_positions": fit_quality["samples"],
                "r2": round(fit_quality["r2"], 4), "sign_right": round(fit_quality["sign"], 4),
                "damping": damping, "card_factor": card_factor, "positions": len(runs.samples),
                "failed_games": len(runs.errors)}
    if progress:
        say(f"{runs.seconds:.0f} CPU-s of play and fitting")
    return _data(rs, model, rounds, runs.games, seed, agent, players, fit_info, target,
                 positions, prior, card_prior, worth)


def _data(rs, model, rounds: float, games: int, seed: int, agent: str, players: int,
          fit_info: dict, target: str = "margin", positions: str = "decisions",
          prior: str = "", card_prior: dict | None = None, worth: dict | None = None) -> dict:
    from ..load.learned import FORMAT
    names, w, v, b, m, s, lm, ls = model

    def nums(a):
        return [float(f"{float(x):.6g}") for x in a]
    out = {"format": FORMAT, "ruleset": rs.id, "ruleset_name": rs.name,
           "ruleset_hash": rs.content_hash,
           "mods": [x.get("id") for x in rs.mod_info], "target": target}
    if positions != "decisions":  # (a file of the default has no such field, as before)
        out["positions"] = positions
    if prior:  # (nor of the default prior, 0)
        out["prior"] = prior
    if card_prior:  # (nor of no card prior): the option, and each card's worth played
        zones = list(card_prior.get("zones") or ())
        per_card = {}
        for name, each in (worth or {}).items():
            per_card[name.split(":", 2)[2]] = float(f"{each:.4g}")
        out["card_prior"] = {"zones": zones, "cost": card_prior.get("cost") or "",
                             "worth": per_card}
        for option in ("uses", "requirements"):  # (a file without them: neither counted)
            if card_prior.get(option):
                out["card_prior"][option] = True
    return out | {
        "players": players, "games": games, "seed": seed, "agent": agent,
        "rounds": round(float(rounds), 4), "intercept": float(f"{float(b):.6g}"),
        "fit": fit_info, "features": list(names), "weights": nums(w),
        "late_weights": nums(v), "mean": nums(m), "scale": nums(s),
        "late_mean": nums(lm), "late_scale": nums(ls)}

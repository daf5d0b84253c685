"""``rulebook train``: learn a ruleset's evaluation from its own self-play games.

The games and the fit are ``lab.train``; this module checks the options and
the output before anything is played, and writes the weights file whole
(:mod:`rulebook_games.outfiles`). Imports ``options`` and ``loading`` at the
top; the lab only inside the command.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .loading import load_named, named_mods
from .options import SEED, Decimal, UsageProblem, Whole
from ..outfiles import Replace, check_file, write_file
from ..numtext import clipped
from ..safe_text import visible


def _is_weights(path: str, head: bytes) -> bool:
    text = head.lstrip()
    return text.startswith(b"{") and b'"format"' in text and b'"ruleset"' in text


# a weights file 'rulebook train' wrote may be written again; nothing else is replaced
WEIGHTS = Replace(_is_weights, "a learned evaluation 'rulebook train' wrote",
                  "give another path with --out, or remove the file first")


# the fields of one fit (one player count); the others are the file's, shared
FIT_FIELDS = ("players", "games", "seed", "agent", "rounds", "intercept", "fit", "features",
              "weights", "late_weights", "mean", "scale", "late_mean", "late_scale")


class Counts(click.ParamType):
    """Player counts: one whole number, or several separated by commas (2,3), each once."""

    name = "counts"

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        counts = []
        for part in str(value).split(","):
            count = Whole(1, 100).convert(part, param, ctx)
            if count in counts:
                self.fail(f"{count} players is given twice", param, ctx)
            counts.append(count)
        return counts


@click.command("train")
@click.argument("ruleset")
@click.option("--mod", "mods", multiple=True,
              help="A mod file, or the name of one in the ruleset's mods/ folder: train "
                   "the agents for the house rule (repeatable; layered in order).")
@click.option("-n", "--games", type=Whole(2, 100_000), default=200, show_default=True,
              help="Self-play games, over all rounds.")
@click.option("--rounds", type=Whole(1, 10), default=2, show_default=True,
              help="Rounds of play: the first by greedy with the hand-written evaluation, "
                   "each next one by greedy with the values fitted so far.")
@click.option("--players", "-p", type=Counts(), default=None,
              help="Players per game (default: 2, or the ruleset's least); several counts "
                   "(2,3) train a fit for each, in one file: a game uses its own count's "
                   "fit, else the nearest count's.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Seed of the training: the same seed trains the same weights.")
@click.option("--target", type=click.Choice(["margin", "evaluation"]), default="margin",
              show_default=True,
              help="What the value learns to predict: the final margin (a solo game: the "
                   "score), or the same of the hand-written evaluation of the final "
                   "position (what a solo seat aims at beyond the score).")
@click.option("--positions", type=click.Choice(["decisions", "turn-ends"]),
              default="decisions", show_default=True,
              help="Which positions of the games are fitted: a share of the decisions, "
                   "every seat at each; or the end of each turn, for the seat whose turn "
                   "it was, and the final position (where a search's horizon ends).")
@click.option("--prior", type=click.Choice(["zero", "evaluation"]), default="zero",
              show_default=True,
              help="What each stock's and production's weight is held back toward: 0, or "
                   "the price of one unit to the hand-written evaluation, in points at the "
                   "rate that evaluation predicts the final margin (docs/agents.md, "
                   "'Training').")
@click.option("--card-prior", "card_prior", default=None, metavar="ZONE:RESOURCE",
              help="Value the cards held in ZONE by what they do: at each training "
                   "position each card's 'play' effect is run on a copy (its cost in "
                   "RESOURCE and its requirements aside), the hand-written evaluation's "
                   "gain plus its 'vp' less its cost is its worth, and the fit weighs the "
                   "worth of the cards held (docs/agents.md, 'Training').")
@click.option("--card-uses", "card_uses", is_flag=True, default=False,
              help="With --card-prior: a card's worth also counts what its actions and "
                   "triggers bring a round once it is played (each run on a copy; a "
                   "trigger times how often its event came a round in the game so far), "
                   "for the rounds the training games had left (docs/agents.md, "
                   "'Training').")
@click.option("--card-requirements", "card_requirements", is_flag=True, default=False,
              help="With --card-prior: a card held whose requirements do not hold now is "
                   "worth 0 at that position, so a card's worth counts what it does only "
                   "where it could be played (docs/agents.md, 'Training').")
@click.option("--shrink", type=Decimal(0, 1_000_000, "--shrink"), default=0,
              show_default=True,
              help="Written into the file for ismcts: with it, an option's worth in the "
                   "search is weighed against the mean of its node as if it had this many "
                   "more tries at that mean (docs/agents.md, 'Search settings in a weights "
                   "file'); 0 writes nothing.")
@click.option("--search", "search", multiple=True, metavar="SETTING=VALUE",
              help="Written into the file for ismcts, as --shrink is: free=count|extra "
                   "(whether a free action counts as one of the further actions of its "
                   "horizon), backup=mean|max|offered or turn_end=past|stop (whether its "
                   "further actions run past the real turn's end) (docs/agents.md, 'Search "
                   "settings in a weights file'); may be given once for each setting.")
@click.option("--agent", type=click.Choice(["greedy", "ismcts"]), default="greedy",
              show_default=True,
              help="Who plays the rounds after the first, with the values fitted so far: "
                   "greedy, or ismcts (the default agent's own games; about fifteen times "
                   "greedy's CPU).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Where to write the weights (default: learned.json in the ruleset's "
                   "folder, or NAME.learned.json beside the mod NAME.yaml).")
def train_cmd(ruleset, mods, games, rounds, players, seed, target, positions, prior,
              card_prior, card_uses, card_requirements, shrink, search, agent, out):
    """Learn an evaluation from the ruleset's own games, for greedy and ismcts."""
    from ..lab.commands import need_scipy
    need_scipy()
    base = load_named(ruleset, ())
    files = named_mods(base, mods)
    rs = load_named(ruleset, tuple(files)) if files else base
    if players is None:
        players = [2 if rs.min_players <= 2 <= rs.max_players else rs.min_players]
    for count in players:
        if not rs.min_players <= count <= rs.max_players:
            raise UsageProblem(f"{rs.name} is for {rs.players_words}, not {count}")
    if games < 2 * rounds:
        raise UsageProblem(f"--games {games} is too few for {rounds} rounds: give at least "
                           f"{2 * rounds}")
    cards = None
    if card_prior is not None:
        zone, _, resource = card_prior.partition(":")
        if zone not in rs.sections["zones"]:
            raise UsageProblem(f"--card-prior: {rs.name} has no zone '{zone}' (give "
                               "ZONE:RESOURCE, the zone of the cards held)")
        if resource and resource not in rs.sections["resources"]:
            raise UsageProblem(f"--card-prior: {rs.name} has no resource '{resource}' (give "
                               "ZONE:RESOURCE, the resource a card's cost is paid in)")
        cards = {"zones": [zone], "cost": resource}
        if card_uses:
            cards["uses"] = True
        if card_requirements:
            cards["requirements"] = True
    elif card_uses or card_requirements:
        raise UsageProblem(f"{'--card-uses' if card_uses else '--card-requirements'} "
                           "measures the cards of --card-prior: give --card-prior "
                           "ZONE:RESOURCE too")
    settings = search_settings(search)
    if out is None:
        out = default_out(rs, files)
    check_file(out, "--out", WEIGHTS)  # before any game is played (one line, exit 2)
    from ..lab.train import train

    def say(text):
        click.echo(visible(text), err=True)
    fits = []
    for count in players:
        say(f"training {rs.name}: {games} games of {count} players in {rounds} rounds, "
            f"seed {seed}")
        try:
            fits.append(train(rs, count, games, seed, rounds, progress=say, target=target,
                              positions=positions, agent=agent,
                              prior="" if prior == "zero" else prior, card_prior=cards))
        except ValueError as exc:
            raise UsageProblem(str(exc)) from None
    data = fits[0]
    if len(fits) > 1:  # the first count's fit at the top, the others' in 'fits'
        data["fits"] = [{k: f[k] for k in FIT_FIELDS if k in f} for f in fits[1:]]
    if shrink:
        data["search"] = {"shrink": shrink}
    if settings:
        from ..load.learned import SEARCH_SETTINGS  # (in the order the command gives them)
        data.setdefault("search", {}).update(
            {k: settings[k] for k in SEARCH_SETTINGS if k in settings})
    text = json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    write_file(out, text, "--out", WEIGHTS)
    for each in fits:
        fit = each["fit"]
        which = "" if len(fits) == 1 else f" ({each['players']} players)"
        click.echo(visible(
            f"wrote {out}{which}: "
            f"{len(each['features']):,} features from {fit['positions']:,} "
            f"positions of {each['games']} games ({each['agent']}); on "
            f"{fit['held_out_games']} held-out games the value explained "
            f"{100 * max(0.0, fit['r2']):.0f} % of the variance of the final "
            f"{'margin' if target == 'margin' else 'evaluation margin'} "
            f"(R² {fit['r2']:.2f}) and its sign named the leader in "
            f"{100 * fit['sign_right']:.0f} % of positions"))
        if fit["failed_games"]:
            click.echo(f"{fit['failed_games']} games stopped on an error and were left out",
                       err=True)
    sys.exit(0)


def search_settings(given: tuple[str, ...]) -> dict:
    """``--search SETTING=VALUE`` read: ismcts's settings a weights file may carry, each
    value checked as the agent's spec checks it."""
    from ..agents.specs import PARAMS, SpecError
    from ..load.learned import SEARCH_SETTINGS
    settings: dict = {}
    for text in given:
        name, eq, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or name not in SEARCH_SETTINGS:
            raise UsageProblem(f"--search '{clipped(text)}': give SETTING=VALUE, the setting "
                               f"one of {', '.join(SEARCH_SETTINGS)} (shrink has --shrink)")
        if name in settings:
            raise UsageProblem(f"--search: '{name}' is given twice")
        try:
            settings[name] = PARAMS["ismcts"][name].read("ismcts", name, value)
        except SpecError as exc:
            raise UsageProblem(f"--search: {exc}") from None
    return settings


def default_out(rs, mod_files: list[str]) -> str:
    """The file the agents read for this ruleset and its mods (see load.learned)."""
    from ..load.learned import FILE, MOD_SUFFIX
    if not mod_files:
        return str(Path(rs.root) / FILE)
    if len(mod_files) > 1:
        raise UsageProblem("with several mods, say where to write the weights with --out "
                           "(the agents read a mod's own file only when it is the one mod)")
    mod = Path(mod_files[0])
    return str(mod.with_name(mod.stem + MOD_SUFFIX))

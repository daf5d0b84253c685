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
from .options import SEED, UsageProblem, Whole
from ..outfiles import Replace, check_file, write_file
from ..safe_text import visible


def _is_weights(path: str, head: bytes) -> bool:
    text = head.lstrip()
    return text.startswith(b"{") and b'"format"' in text and b'"ruleset"' in text


# a weights file 'rulebook train' wrote may be written again; nothing else is replaced
WEIGHTS = Replace(_is_weights, "a learned evaluation 'rulebook train' wrote",
                  "give another path with --out, or remove the file first")


@click.command("train")
@click.argument("ruleset")
@click.option("--mod", "mods", multiple=True,
              help="A mod file, or the name of one in the ruleset's mods/ folder: train "
                   "the agents for the house rule (repeatable; layered in order).")
@click.option("-n", "--games", type=Whole(2, 100_000), default=200, show_default=True,
              help="Self-play games, over all rounds (2 to 100,000).")
@click.option("--rounds", type=Whole(1, 10), default=2, show_default=True,
              help="Rounds of play: the first by greedy with the hand-written evaluation, "
                   "each next one by greedy with the values fitted so far.")
@click.option("--players", "-p", type=Whole(min=1), default=None,
              help="Players per game (default: 2, or the ruleset's least). Another count "
                   "writes the file of that count (learned.1p.json for -p 1), which the "
                   "agents read in games of that count.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Seed of the training: the same seed trains the same weights.")
@click.option("--target", type=click.Choice(["margin", "evaluation"]), default="margin",
              show_default=True,
              help="What the value learns to predict: the final margin (a solo game: the "
                   "score), or the same of the hand-written evaluation of the final "
                   "position (what a solo seat aims at beyond the score).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Where to write the weights (default: learned.json in the ruleset's "
                   "folder, or NAME.learned.json beside the mod NAME.yaml).")
def train_cmd(ruleset, mods, games, rounds, players, seed, target, out):
    """Learn an evaluation from the ruleset's own games, for greedy and ismcts."""
    from ..lab.commands import need_scipy
    need_scipy()
    base = load_named(ruleset, ())
    files = named_mods(base, mods)
    rs = load_named(ruleset, tuple(files)) if files else base
    usual = 2 if rs.min_players <= 2 <= rs.max_players else rs.min_players
    if players is None:
        players = usual
    if not rs.min_players <= players <= rs.max_players:
        raise UsageProblem(f"{rs.name} is for {rs.min_players}–{rs.max_players} players")
    if games < 2 * rounds:
        raise UsageProblem(f"--games {games} is too few for {rounds} rounds: give at least "
                           f"{2 * rounds}")
    if out is None:
        out = default_out(rs, files, None if players == usual else players)
    check_file(out, "--out", WEIGHTS)  # before any game is played (one line, exit 2)
    from ..lab.train import train

    def say(text):
        click.echo(visible(text), err=True)
    say(f"training {rs.name}: {games} games of {players} players in {rounds} rounds, "
        f"seed {seed}")
    try:
        data = train(rs, players, games, seed, rounds, progress=say, target=target)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    text = json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    write_file(out, text, "--out", WEIGHTS)
    fit = data["fit"]
    click.echo(visible(
        f"wrote {out}: {len(data['features']):,} features from {fit['positions']:,} "
        f"positions of {data['games']} games ({data['agent']}); on {fit['held_out_games']} held-out games the "
        f"value explained {100 * max(0.0, fit['r2']):.0f} % of the final margin's variance "
        f"(R² {fit['r2']:.2f}) and its sign named the leader in "
        f"{100 * fit['sign_right']:.0f} % of positions"))
    if fit["failed_games"]:
        click.echo(f"{fit['failed_games']} games stopped on an error and were left out",
                   err=True)
    sys.exit(0)


def default_out(rs, mod_files: list[str], players: int | None = None) -> str:
    """The file the agents read for this ruleset and its mods (see load.learned): for a
    player count other than the usual one (``players``), the file of that count
    (``learned.1p.json``), which the agents read in games of that count."""
    from ..load.learned import FILE, MOD_SUFFIX, for_players
    if not mod_files:
        path = Path(rs.root) / FILE
    elif len(mod_files) > 1:
        raise UsageProblem("with several mods, say where to write the weights with --out "
                           "(the agents read a mod's own file only when it is the one mod)")
    else:
        mod = Path(mod_files[0])
        path = mod.with_name(mod.stem + MOD_SUFFIX)
    return str(for_players(path, players) if players is not None else path)

"""``rulebook play``: people at this terminal against AI agents, saved and resumed safely.

The game runs through ``play.session``; a person answers at the terminal
seat (or from a script on standard input, one answer a line). 'save' at a
prompt, Ctrl-C or a closed terminal saves the game (``records``), and
``--resume`` carries a saved one on. Imports ``options``, ``loading``,
``seats`` and ``records`` at the top; the engine, the sessions and rich only
inside the command.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .loading import check_mod_files, load_named, no_such_ruleset
from .options import AGENTS_HELP, NAME, SEED, UsablePath, UsageProblem, Whole
from .records import record_error, save_finished, save_unfinished
from .seats import OPPONENT, check_evaluation, seat_agents
from ..paths import find_ruleset
from ..safe_text import visible


@click.command()
@click.argument("ruleset", type=NAME)
@click.option("--players", "-p", type=Whole(min=1), default=None,
              help="Number of players.")
@click.option("--seed", type=SEED, default=None, help="Random seed (default: random).")
@click.option("--agents", "agent_spec", default=None,
              help=AGENTS_HELP + f" Default: you, then {OPPONENT} (with no terminal, {OPPONENT} "
                   "at every seat).")
@click.option("--variant", "variants", multiple=True, help="A variant to play (repeatable).")
@click.option("--mod", "mods", multiple=True, type=UsablePath(dir_okay=False))
@click.option("--save", "save_path", type=UsablePath(dir_okay=False),
              help="Save the game record here (also when you type 'save' at a prompt).")
@click.option("--resume", "resume_path", type=UsablePath(exists=True, dir_okay=False),
              help="Resume a saved game from its record (--agents may hand seats over).")
@click.option("--log/--no-log", default=None, help="Print the game log (default: when no human).")
def play(ruleset, players, seed, agent_spec, variants, mods, save_path, resume_path, log):
    """Play a game: people at this terminal against AI agents."""
    import random as _random

    from rich.console import Console
    from rich.markup import escape

    from ..play.terminal import HumanAgent, UndoRequest
    from ..play.render import score_table
    from ..outfiles import check_file
    from ..play.session import GameError, build_game, make_record, place_in_record, run
    from ..play.stopping import StopSignals, shield
    from ..play.transcript import ScriptAnswerRefused, ScriptReader
    console = Console(highlight=False, emoji=False)
    if save_path:  # before anything is loaded or played
        check_file(save_path, "--save", _same_game(resume_path))
    prefix = rec = None
    if resume_path:
        rec, rs, mods = _resume(ruleset, resume_path, players, seed, variants, mods)
        players, seed, variants = rec.players, rec.seed, tuple(rec.variants)
        kinds = (seat_agents(agent_spec, players, sys.stdin.isatty(), OPPONENT) if agent_spec
                 else _record_agents(rec))
        prefix = rec.decisions
        if not save_path:  # the record is saved where it was (its folder must take it)
            check_file(resume_path, "--resume", _same_game(resume_path))
    else:
        rs = load_named(ruleset, mods)
        players = players or rs.min_players
        if not rs.min_players <= players <= rs.max_players:  # (before any note on agents)
            raise UsageProblem(f"{rs.name} is for {rs.players_words}, not {players}")
        seed = seed if seed is not None else _random.SystemRandom().randrange(1, 10 ** 9)
        kinds = seat_agents(agent_spec, players, sys.stdin.isatty(), OPPONENT)
    check_evaluation(rs, kinds, players)
    save_to = Path(save_path or resume_path) if save_path or resume_path else None
    try:
        game = build_game(rs, players, seed, kinds, tuple(variants), prefix=prefix,
                          remember=rec is None or rec.remembers_refusals)
    except GameError as exc:
        if exc.span is None:  # players or variants that the ruleset does not have
            raise UsageProblem(exc.message) from None
        click.echo(visible(f"{exc.span}: error: {exc.message}"))
        sys.exit(1)
    stream = getattr(sys.stdin, "buffer", None)
    script = None if stream is None or sys.stdin.isatty() else ScriptReader(stream)
    keyboard = None
    if script is None and any(k == "human" for k in kinds) and sys.stdin.isatty():
        from ..play.lineinput import LineInput
        keyboard = LineInput()  # line editing, history, completion; nothing typed ahead
    for agent in game.agents:
        live = getattr(agent, "live", agent)
        if isinstance(live, HumanAgent):
            if script is not None:  # answers from a file or a pipe, one a line
                live.script, live.input = script, script
            elif keyboard is not None:
                live.terminal, live.input = keyboard, keyboard
            live.input = _saving_input(live.input)
    human = "human" in kinds
    if log is None:
        log = not human
    if log:
        game.listeners.append(lambda line: console.print(visible(line), markup=False))
    console.print(f"[bold]{escape(visible(rs.name))}[/bold] · {header(rs, players, variants)} · "
                  f"seed {seed} · agents {', '.join(kinds)}"
                  + (f" · resumed after decision {len(prefix)}" if prefix else ""))
    thinking = None
    if keyboard is not None and not log and console.is_terminal:  # who plays, while they do
        from ..play.thinking import Thinking
        thinking = Thinking(console.file)
        _watch(game, thinking)

    def stop(why: str, code: int):
        shield()  # nothing cuts the save short (a closed terminal sends SIGHUP twice)
        save_unfinished(make_record(game, rs, kinds, None, list(mods)), save_to,
                        f"{rs.id}-{seed}", ruleset, why, console)
        sys.exit(code)

    try:
        with StopSignals():  # Ctrl-C, a closed terminal, a polite kill: saved (below)
            try:
                while True:
                    try:
                        result = run(game)
                        break
                    except UndoRequest as back:  # replay the record up to that decision
                        live = [getattr(a, "live", a) for a in game.agents]
                        game = build_game(rs, players, seed, kinds, tuple(variants),
                                          prefix=game.record[:back.at], live_agents=live,
                                          remember=game.refusals.remember)
                        if thinking is not None:
                            _watch(game, thinking)
                        console.print("[dim]back to your previous decision[/dim]")
            finally:  # whatever stops the game: the 'is thinking…' line is not left
                if thinking is not None:
                    thinking.done()
    except _SaveNow:
        stop("stopped as you asked", 0)
    except _EndOfInput:
        stop("\nend of input", 0)
    except ScriptAnswerRefused as exc:
        click.echo(visible(f"<stdin>:{exc.line}:1: error: "
                           + exc.message(game.state.players[exc.decision.player].name)))
        stop("the game so far is kept", 1)
    except KeyboardInterrupt:
        if human or save_to:
            stop("\ninterrupted", 130)
        sys.exit(130)
    except GameError as exc:
        if rec is not None:
            place_in_record(exc, rec)
        where = f"{exc.span}: " if exc.span else ""
        click.echo(visible(f"{where}error: {exc.message}"))
        sys.exit(1)
    people = [a for a in (getattr(x, "live", x) for x in game.agents) if isinstance(a, HumanAgent)]
    if people:  # what happened after the last decision: the last rounds, the end, the scoring
        people[0].news(game, game.agents.index(next(
            x for x in game.agents if getattr(x, "live", x) is people[0])))
    console.print(score_table(game, result))
    if not result.finished:
        console.print("Unfinished: the game stopped at its round limit without reaching its "
                      "end, so nobody wins.")
    if result.solo_won is not None:
        console.print("You win!" if result.solo_won else "You lose: the goal was not reached.")
    if save_to:
        shield()
        save_finished(make_record(game, rs, kinds, result, list(mods)), save_to,
                      f"{rs.id}-{seed}", console)
    console.print(f"{result.decisions} decisions · final state #{result.final_hash[:12]}")
    if keyboard is not None and sys.stdout.isatty():  # a person at a terminal, not a script
        _wait_to_leave(console, keyboard)


def _wait_to_leave(console, keyboard) -> None:
    """The final table stays on the screen until the person presses Enter: a window
    whose command this is (a tmux pane, a terminal's shortcut) closes when it ends.
    What was typed during the last moves does not count."""
    keyboard.discard_typed_ahead()
    try:
        keyboard("(press Enter to leave) ")  # (the line editor's prompt: the Enter is echoed)
    except (EOFError, KeyboardInterrupt):
        console.print()


def _watch(game, line) -> None:
    """Each agent's seat shows on the 'is thinking…' line while it decides, and a
    person's seat erases it before it prints (play/thinking.py)."""
    from ..play.terminal import HumanAgent
    from ..play.thinking import Watched
    for i, agent in enumerate(game.agents):
        live = getattr(agent, "live", agent)  # (a resumed seat answers from its record first)
        if isinstance(live, HumanAgent):
            live.waiting = line
        elif not isinstance(live, Watched):
            if live is agent:
                game.agents[i] = Watched(agent, line)
            else:
                agent.live = Watched(live, line)


def _same_game(resume_path):
    """--save replaces a file only when it is the record of the game carried on (--resume)."""
    from ..outfiles import Replace, same_file
    return Replace(lambda path, head: resume_path is not None and same_file(path, resume_path),
                   None, "give another path, carry on the game it holds with 'rulebook play "
                         "RULESET --resume PATH' (it is saved there again), or remove it first")


def _resume(ruleset, path, players, seed, variants, mods):
    """The record to resume, its ruleset, and its mods; options must agree with it."""
    from ..play.record import Record, RecordError
    from ..play.session import load_for_record
    try:
        rec = Record.load(path)
    except RecordError as exc:
        record_error(exc)
    differ = []
    if players is not None and players != rec.players:
        differ.append(f"--players {players} (the record has {rec.players})")
    if seed is not None and seed != rec.seed:
        differ.append(f"--seed {seed} (the record has {rec.seed})")
    if variants and sorted(set(variants)) != sorted(rec.variants):
        differ.append(f"--variant {', '.join(variants)} (the record has "
                      f"{', '.join(rec.variants) or 'none'})")
    if differ:
        raise UsageProblem("--resume carries on the recorded game, and these options differ "
                           "from its record: " + "; ".join(differ))
    if find_ruleset(ruleset) is None:
        raise no_such_ruleset(ruleset)
    # mods given again (perhaps from a new place) must be the record's mods
    check_mod_files(mods)
    try:
        rs = load_for_record(rec, path, ruleset, list(mods) if mods else None)
    except RecordError as exc:
        if mods and getattr(exc, "field", None) == "content_hash":
            raise UsageProblem("--mod: these mods are not the ones the record was made with "
                               "(the rules' content hash differs)") from None
        record_error(exc)
    return rec, rs, tuple(rec.mods)


def _record_agents(rec) -> list[str]:
    """A record's agents seated again: never one written in Python (it is never imported
    from a record), never one with a budget past what a record may ask for."""
    from ..agents.specs import RecordSeatRefused, from_record, parse
    try:
        return from_record(rec.agents)
    except RecordSeatRefused as exc:
        at = rec.error("agents", "", exc.seat)
        kinds = list(rec.agents)
        spec = parse(kinds[exc.seat])
        example = ""
        if spec.builtin:  # the same agent with its usual budget
            kinds[exc.seat] = spec.name
            example = f" (for example --agents {','.join(kinds)})"
        raise UsageProblem(f"{at.path}:{at.line}:{at.col}: {exc}{example}") from None


class _SaveNow(Exception):
    """'save' (or 'quit', 'exit') typed at a prompt: the game is saved and play stops."""


class _EndOfInput(Exception):
    """The answers ran out (end of a script, or Ctrl-D): the game is saved and play stops."""


def _saving_input(inner):
    """A seat's input, with 'save' and the end of input turned into a stop that saves."""
    def read(prompt=""):
        try:
            raw = inner(prompt)
        except EOFError:
            raise _EndOfInput() from None
        if raw.strip().lower() in ("save", "quit", "exit"):
            raise _SaveNow()
        return raw
    return read


def header(rs, players: int, variants) -> str:
    """'2 players · variants: Draft, Short game': who plays and which variants are in
    play, by their names (a game without any says so: what the rules play by default)."""
    names = [visible(str((rs.sections["variants"][v].data or {}).get("name") or v))
             for v in sorted(set(variants), key=list(rs.sections["variants"]).index)]
    return (f"{players} player{'' if players == 1 else 's'} · "
            + (f"variants: {', '.join(names)}" if names else "no variants"))

"""Who played the games a report or a compare reads: the agents, said in words, and warnings.

A verdict of the balance lab is only as good as the players it watched:
random agents never buy a card for what it does, and a house rule judged by
them says nothing about the game people play. :func:`who_played` names the
agents of each seat and, when they answer at random, says so; for agents
that evaluate positions it says which evaluation they used (the one learned
from the ruleset's games, see ``rulebook train``, or the hand-written one).
"""

from __future__ import annotations

from collections import Counter

RANDOM = ("random", "first", "last")
LEARNING = ("greedy", "ismcts", "trained")

RANDOM_WARNING = (
    "The games were played by {who}: {they} answer without looking at the game, so these "
    "figures describe {how}, not games people play. --agents trained plays them with the "
    "evaluation learned from the game's own games (rulebook train).")


def describe(kinds) -> str:
    """The agents of a list of seat specs, in words: 'random in every seat', or
    'greedy (seat 1), random (seat 2)'."""
    kinds = [str(k) for k in kinds]
    if not kinds:
        return "no agents"
    if len(set(kinds)) == 1:
        return f"{kinds[0]} in every seat" if len(kinds) > 1 else kinds[0]
    return ", ".join(f"{k} (seat {i + 1})" for i, k in enumerate(kinds))


def _name(kind: str) -> str:
    return kind.split(":")[0]


def evaluation_of(kind: str, learned) -> str | None:
    """Which evaluation an agent spec plays with, in words (None: it evaluates nothing)."""
    name = _name(kind)
    if name not in LEARNING:
        return None
    if ":eval=written" in kind or (name != "trained" and "eval=written" in kind):
        return "the hand-written evaluation"
    if learned is None:
        return "the hand-written evaluation (no evaluation has been trained for this ruleset)"
    fit = learned.data.get("fit") or {}
    games = learned.data.get("games")
    how = f", trained on {games:,} games" if isinstance(games, int) and games else ""
    r2 = fit.get("r2")
    quality = f", held-out R² {r2:.2f}" if isinstance(r2, (int, float)) else ""
    return f"the evaluation learned in {learned.path}{how}{quality}"


def judged_by(entry) -> str:
    """One seat's entry of a results file's 'evaluations', in words."""
    if entry.get("evaluation") == "written":
        return "the hand-written evaluation"
    parts = [f"sha256 {str(entry.get('sha256'))[:12]}"]
    games, players, seed = entry.get("games"), entry.get("players"), entry.get("seed")
    if isinstance(games, int) and games:
        parts.append(f"trained on {games:,} games" +
                     (f" of {players} players" if isinstance(players, int) else ""))
    if isinstance(seed, int):
        parts.append(f"seed {seed}")
    return f"the evaluation learned in {entry.get('file')} ({', '.join(parts)})"


def _from_file(kinds, evaluations: dict, label: str) -> list[str]:
    """What each seat's agent judged positions by, as the results file's lines say it."""
    lines, said = [], set()
    for seat, kind in enumerate(kinds):
        for entry in (evaluations.get(seat) or {}).values():
            if entry is None:
                continue
            what = judged_by(entry)
            if (kind, what) in said:
                continue
            said.add((kind, what))
            lines.append(f"{label}{kind} (seat {seat + 1}) played with {what}.")
    if len({what for _, what in said}) == 1 and len({k for k, _ in said}) == 1:
        kind, what = next(iter(said))  # one agent and one evaluation: said once
        lines = [f"{label}{kind} played with {what}."]
    return lines


def who_played(kinds, rs=None, side: str = "", evaluations: dict | None = None) -> list[str]:
    """Lines saying who played (and warnings): the first names the agents.

    ``evaluations`` is what a results file's lines say each seat's agent judged
    positions by (seat -> {text: entry}, see ``lab.results``); without it, ``rs``
    (the ruleset as it is now) says which evaluation its agents would use."""
    kinds = [str(k) for k in kinds]
    label = f"{side}: " if side else ""
    lines = [f"{label}Played by {describe(kinds)}."]
    each = [[_name(a) for a in k.split(" or ")] for k in kinds]  # a seat's agents
    names = Counter(n for seat in each for n in seat)
    if evaluations:
        lines += _from_file(kinds, evaluations, label)
        if rs is not None and any(_name(k) in LEARNING for k in kinds):
            try:  # what a person should know about the weights (a mod playing the base's)
                from ..agents.learned import learned_value
                value = learned_value(rs)
            except Exception:  # (the commands check the file first: not expected)
                value = None
            if value is not None:
                lines += [f"{label}{n[:1].upper()}{n[1:]}." for n in value.notes]
    elif rs is None and any(n in LEARNING for n in names):
        lines.append(f"{label}The results file does not say which evaluation its greedy, "
                     "ismcts and trained agents played with (its lines were written before "
                     "results files said so): the one learned from the ruleset's games when "
                     "it had a weights file (unless given eval=written), else its "
                     "hand-written one.")
    if not evaluations and rs is not None and any(_name(k) in LEARNING for k in kinds):
        learned = None
        notes: list = []
        try:
            from ..agents.learned import learned_value
            value = learned_value(rs)
        except Exception as exc:  # (the commands check the file first: not expected)
            value = None
            notes.append(f"the learned evaluation cannot be read: {exc}")
        if value is not None:
            from types import SimpleNamespace
            learned = SimpleNamespace(path=value.path, data=value.info)
            notes += value.notes
        said = set()
        for k in dict.fromkeys(kinds):
            what = evaluation_of(k, learned)
            if what and what not in said:
                said.add(what)
                lines.append(f"{label}{k} played with {what}.")
        lines += [f"{label}{n[:1].upper()}{n[1:]}." for n in notes]
    randoms = [n for n in names if n in RANDOM]
    if randoms:
        every = all(n in RANDOM for seat in each for n in seat)
        who = ("random agents in every seat" if every and randoms == ["random"] else
               "agents that do not look at the game (" + ", ".join(randoms) + ")")
        lines.append(label + RANDOM_WARNING.format(
            who=who, they="they", how="random play" if every else
            "games with players who do not play to win"))
    return lines


def seat_agents(seats, agents) -> list[str]:
    """The agent of each seat over a results file's player-games: a seat whose agent
    changed from game to game lists them all ('greedy or random')."""
    by_seat: dict = {}
    for seat, agent in zip(seats, agents):
        by_seat.setdefault(int(seat), {})[str(agent)] = None
    return [" or ".join(by_seat[s]) for s in sorted(by_seat)]


def show_who(console, lines) -> None:
    """Print who played on the terminal, before the tables: the agents in bold, a
    warning about random ones in yellow."""
    from rich.text import Text

    from ..safe_text import visible
    for i, line in enumerate(lines):
        warn = "answer without looking at the game" in line
        console.print(Text(visible(line), style="bold" if i == 0 else
                           "yellow" if warn else ""))
    console.print()

"""The command lines the README and docs/ show are commands a person can paste.

Every line of a code block that starts with ``rulebook`` (or ``$ rulebook``)
names a real command, and each option it gives is one that command takes;
none is written with a usage-style ``[--option]`` a shell would pass on as
it is (``rulebook replay saves/game.json [--step]`` was one).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from rulebook_games.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def command_lines():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```(?:text|sh|bash|console)\n(.*?)```", text, re.S):
            block = block.replace("\\\n", " ")
            for line in block.splitlines():
                line = line.strip().removeprefix("$ ")
                if line.startswith("rulebook "):
                    yield path.name, line.split(" #", 1)[0]


def test_every_command_line_shown_is_real():
    lines = list(command_lines())
    assert len(lines) > 40
    problems = []
    for name, line in lines:
        words = shlex.split(line)
        for stop in ("<", ">", "|"):
            if stop in words:
                words = words[:words.index(stop)]
        args = words[1:]
        while args and args[0].startswith("--"):  # rulebook --no-cache COMMAND
            args = args[1:]
        command = cli.commands.get(args[0]) if args else None
        if command is None:
            problems.append((name, line, "no such command"))
            continue
        options = {"-h", "--help"}
        for param in command.params:
            options.update(getattr(param, "opts", ()), getattr(param, "secondary_opts", ()))
        for word in args[1:]:
            if word.startswith("["):
                problems.append((name, line, f"'{word}' is usage, not a command"))
            elif word.startswith("-") and not re.fullmatch(r"-\d[\d.]*", word) \
                    and word.split("=", 1)[0] not in options:
                problems.append((name, line, f"{args[0]} has no option {word}"))
    assert not problems, "\n".join(map(str, problems))


def test_replay_step_is_shown_as_its_own_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "rulebook replay saves/game.json --step " in readme
    assert "[--step]" not in readme

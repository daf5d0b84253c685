"""The options several commands share, and the usage error they all give.

Option types that refuse what a command could not use before it runs (a
name no system call takes, a number not written with the digits 0 to 9),
the help of ``--agents``, and ``--backend``/``--address``/``--resume`` for
the commands that play many games. Imports click and the base modules only:
``rulebook --help`` loads this, so nothing here may pull in the loader, the
parser or the engine (a check imports what it needs when it runs).
"""

from __future__ import annotations

import click

from ..numtext import clipped


class UsageProblem(click.UsageError):
    exit_code = 2


class Unavailable(click.ClickException):
    """A command that needs something not installed (an extra): said in one line, exit 2."""

    exit_code = 2


def unusable_name(value) -> str | None:
    """Why a path from the command line cannot name a file here (too long…), in words."""
    from ..load.userfiles import name_problem
    problem = name_problem(value) if isinstance(value, str) else None
    return f"'{clipped(value)}': {problem}" if problem else None


class UsableName(click.ParamType):
    """A ruleset's name or path (or any PATH): a name the system cannot use is a usage error."""

    name = "text"

    def convert(self, value, param, ctx):
        problem = unusable_name(value)
        if problem:
            self.fail(problem, param, ctx)
        return value


class UsablePath(click.Path):
    """click.Path, with a name the system cannot use (too long…) refused as a usage error."""

    def convert(self, value, param, ctx):
        problem = unusable_name(value)
        if problem:
            self.fail(problem, param, ctx)
        return super().convert(value, param, ctx)


class Whole(click.IntRange):
    """A whole number option: the digits 0 to 9 only (not '٣' or '1_000'), within its range."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            from ..numtext import NumberProblem, whole
            try:
                value = whole(value.strip())
            except NumberProblem:
                self.fail(f"'{clipped(value)}' is not a whole number written with the digits "
                          "0 to 9", param, ctx)
        if isinstance(value, int) and not self.clamp and (
                (self.min is not None and value < self.min)
                or (self.max is not None and value > self.max)):
            if self.min is not None and self.max is not None:
                said = f"is not between {self.min:,} and {self.max:,}"
            elif self.min is not None:
                said = f"is less than {self.min:,}"
            else:
                said = f"is more than {self.max:,}"
            self.fail(f"{value:,} {said}", param, ctx)
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        # click says "x<=None" of a range with no bounds, and a seed's bounds are the
        # 19-digit limits of a signed 64-bit number: neither helps anyone choose a value
        # and its "1<=x<=1000000" is notation, not words
        if self.min is None and self.max is None:
            return ""
        if self.min == -(2 ** 63 - 1) and self.max == 2 ** 63 - 1:
            return "a whole number"
        if self.min is not None and self.max is not None:
            return f"{self.min:,} to {self.max:,}"
        return f"at least {self.min:,}" if self.min is not None else f"at most {self.max:,}"


class Decimal(click.ParamType):
    """A number option (a level, a duration): the digits 0 to 9 with a point and an exponent,
    finite, within its bounds. click's FloatRange lets 'nan' through (no comparison with
    it is false), and Python's float() reads 'inf', '1_0' and other scripts' digits."""

    name = "number"

    def __init__(self, low: float, high: float, what: str = "the value"):
        self.low, self.high, self.what = low, high, what

    def convert(self, value, param, ctx):
        from ..numtext import NumberProblem, decimal
        text = repr(value) if isinstance(value, (int, float)) else value  # a default, or typed
        try:
            return decimal(text.strip() if isinstance(text, str) else text, self.what,
                           self.low, self.high)
        except NumberProblem as exc:
            self.fail(exc.message, param, ctx)

    def get_metavar(self, param, ctx=None):
        return f"[{_said(self.low)} to {_said(self.high)}]"


def _said(bound: float) -> str:
    """A bound as a person writes it: '0.5', '1,000,000' (not click's '1e+06')."""
    return f"{int(bound):,}" if bound == int(bound) else f"{bound:g}"


NAME = UsableName()

# the level of the intervals of report and compare: strictly between 0 and 1 and finite
CONFIDENCE = Decimal(0.5, 0.999, "the confidence level")

SEED = Whole(-(2 ** 63 - 1), 2 ** 63 - 1)

AGENTS_HELP = ("Comma-separated agents by seat, or one for all: human, random, first, last, "
               "greedy, trained, ismcts, an installed agent, or MODULE:CLASS; parameters follow "
               "colons, e.g. ismcts:iterations=400,greedy (see docs/agents.md).")


def backend_options(command):
    """--backend, --address and --resume, for the commands that play many games."""
    command = click.option("--resume", type=click.Path(dir_okay=False),
                           help="Carry on a results file: skip the seeds it holds (it must "
                                "be from the same configuration) and append the rest.")(command)
    return where_options(command)


def where_options(command):
    """--backend and --address: where the games of a command are played."""
    command = click.option("--address", default=None,
                           help="With --backend ray: join the Ray cluster at auto or "
                                "HOST:PORT (default: start Ray on this machine).")(command)
    return click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                        show_default=True,
                        help="Where games are played: local processes (--workers), or "
                             "Ray (see the README).")(command)


def check_backend(backend: str, address: str | None) -> None:
    """Backend options that cannot work, refused before anything is loaded."""
    if address and backend != "ray":
        raise UsageProblem("--address is for --backend ray")
    if backend == "ray":
        import importlib.util
        if importlib.util.find_spec("ray") is None:
            from ..sim.ray_backend import MISSING
            raise Unavailable(MISSING)

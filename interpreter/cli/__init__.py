"""The ``rulebook`` command line: the group, its commands, and how it exits.

One module per command or group of commands:

- ``validate`` (with ``targets``, the PATHs it checks): rulesets and mods
  checked, errors printed as text, JSON, GitHub annotations or SARIF
  (``diagnostics``);
- ``cards``: ``cards`` and ``compile``, a ruleset's card text and its Python;
- ``reference``: ``schema`` and ``docs``, for editors and rule writers;
- ``shipped``: ``list``, the shipped rulesets;
- ``play`` and ``replay`` (with ``records``, saving and resuming games);
- ``simulate``; ``scenarios``: ``test``, a ruleset's scenario tests;
- ``lab``: ``report`` and ``compare``; ``export``: results as CSV or Parquet;
  ``train``: an evaluation learned from a ruleset's own games; ``lsp``: the
  language server;
- ``serve``: games in the browser (the ``web`` room);
- ``complete``: what Tab completes in a shell (rulesets, variants, agents, mods);
- ``watching``: ``--watch`` of ``validate`` and ``test``, run again on each save.

They share ``options`` (option types, the usage error), ``loading`` (the
ruleset a command names) and ``seats`` (``--agents``). ``main`` runs the
group: exit 0 done, 1 rule errors (and a write that failed half way), 2 usage
errors (an output path refused before anything is written), 3 a bug in
rulebook, 130 interrupted; never a traceback. The command line may import every room,
but ``rulebook --help`` loads only this package's modules, which import no
loader, parser, schema checker, engine or rich at the top: each command
imports what it needs when it runs.
"""

from __future__ import annotations

import os
import sys

import click

from ..version import __version__
from . import cards, complete, diagnostics as report, export, lab, lsp, play, reference
from . import replay, scenarios, serve, shipped, simulate, train, validate
from ..numtext import clipped
from ..outfiles import OutputProblem
from ..safe_text import visible


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulebook")
@click.option("--no-cache", is_flag=True,
              help="Load rulesets afresh, neither reading nor writing the cache "
                   "(as RULEBOOK_NO_CACHE=1 does).")
def cli(no_cache):
    """Rulebook: play board games written as data."""
    if no_cache:  # in the environment, so worker processes load afresh too
        os.environ["RULEBOOK_NO_CACHE"] = "1"


# click lists them by name in --help, whatever the order here
for command in (validate.validate, cards.cards, cards.compile_cmd, reference.schema,
                reference.docs, shipped.list_cmd, play.play, replay.replay, simulate.simulate,
                scenarios.test_cmd, lab.report_cmd, lab.compare_cmd, lsp.lsp_cmd,
                serve.serve_cmd, export.export_cmd, train.train_cmd):
    cli.add_command(command)
complete.attach(cli)  # Tab completes rulesets, variants, agents and mods (see complete.py)


# the commands whose --format json prints one document on stdout, even for an error
JSON_COMMANDS = ("validate", "test", "simulate", "report", "compare")


def _document_format(argv: list[str]) -> str | None:
    """The machine-readable format a command was asked for, read from the raw arguments.

    Click reports a bad option before the command runs, so the format has to
    be known without click's help to print even that error as a document:
    ``validate``'s json, sarif or github, and the json of the other commands
    of :data:`JSON_COMMANDS`.
    """
    argv = argv[1:] if argv[:1] == ["--no-cache"] else argv
    if not argv or argv[0] not in JSON_COMMANDS:
        return None
    fmt = None
    for i, arg in enumerate(argv[1:], 1):
        if arg == "--":
            break
        if arg == "--format" and i + 1 < len(argv):
            fmt = argv[i + 1]
        elif arg.startswith("--format="):
            fmt = arg.split("=", 1)[1]
    if argv[0] != "validate":
        return "error-json" if fmt == "json" else None
    if fmt not in report.FORMATS:
        return None
    fmt = report.resolve_format(fmt)
    return fmt if fmt in ("json", "sarif", "github") else None


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script; never shows a traceback for bad input."""
    args = list(sys.argv[1:] if argv is None else argv)
    doc = _document_format(args)
    try:
        result = cli.main(args=args, prog_name="rulebook", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        if doc:
            click.echo(report.usage_error(doc, exc.format_message()))
        else:
            exc.message = visible(exc.message, multiline=True)  # it may quote a file name
            exc.show()
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        sys.exit(130)
    except OutputProblem as exc:  # an output refused (exit 2) or that failed (exit 1)
        _one_line(exc.message, exc.exit_code, doc)
    except OSError as exc:
        problem = _file_problem(exc)
        if problem is None:
            _internal_error(exc, doc)
        # a file the user named (a name no system call takes, a folder that cannot be
        # written, a full disk) that reached a command without passing through a checked
        # option or the output helper: the user's or the system's, not a bug
        _one_line(*problem, doc)
    except Exception as exc:  # a bug in rulebook, not in the user's files
        _internal_error(exc, doc)
    sys.exit(result if isinstance(result, int) else 0)


def _file_problem(exc: OSError) -> tuple[str, int] | None:
    """An OSError about a file, as one line and its exit code; None if it names no file.

    A write that began and failed (a full disk, a quota) is exit 1 even when the
    system did not say which file; a path the system refuses is exit 2.
    """
    from ..load.userfiles import bad_name
    from ..outfiles import WRITE_FAILURES
    failed = exc.errno in WRITE_FAILURES
    reason = (bad_name(exc) or exc.strerror or str(exc)).rstrip(".")
    if exc.filename is None:
        return (f"a write failed: {reason}", 1) if failed else None
    return f"'{clipped(str(exc.filename), 120)}': {reason}", 1 if failed else 2


def _one_line(message: str, code: int, doc: str | None):
    """A problem the user can act on, said in one line (or a document of ``doc``)."""
    if doc:
        click.echo(report.usage_error(doc, message, exit_code=code))
    else:
        click.echo(visible(f"Error: {message}"), err=True)
    sys.exit(code)


def _internal_error(exc: BaseException, doc: str | None):
    """A bug in rulebook, not in the user's files: said in one line, exit 3."""
    message = (f"internal error (a bug in rulebook, please report it with the command "
               f"you ran): {type(exc).__name__}: {exc}")
    if doc:
        click.echo(report.usage_error(doc, message, exit_code=3))
    click.echo(visible(message, multiline=True), err=True)
    sys.exit(3)

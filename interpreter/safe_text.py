"""Make text from rule files, mods and records safe to print on a terminal.

Names, descriptions, log lines, prompts, option labels and diagnostics all
carry text that strangers wrote. Printed raw, an escape sequence in a card
name could recolour or clear the screen, rewrite earlier lines or set the
window title, and a bidirectional override could make a line read
differently from what it says. :func:`visible` is the one place such text
goes through before it reaches a terminal: every control character and
every bidirectional or line-separating format character is shown as an
escape (``ESC`` as ``\\x1b``, U+202E as ``\\u202e``). Rulebook's own colour
codes are added after it, so they keep working. JSON and SARIF output goes
through :func:`json_text`: ``json.dumps`` escapes the C0 controls but, writing
Unicode as itself, leaves DEL, the C1 controls and the direction marks raw,
so those are written as ``\\uXXXX`` escapes too (the document decodes to the
same text, and a terminal that shows it is safe).
"""

from __future__ import annotations

import json
import re

# C0 controls, DEL and C1 controls; the bidirectional marks, embeddings,
# overrides and isolates; and the Unicode line and paragraph separators.
_ALWAYS = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
           "\u202a-\u202e\u2066-\u2069")
_ONE_LINE = re.compile(f"[{_ALWAYS}\t\n]")
_MULTI_LINE = re.compile(f"[{_ALWAYS}]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if code == 0x09:
        return "\\t"
    if code == 0x0A:
        return "\\n"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text, multiline: bool = False) -> str:
    """``text`` with control and direction-changing characters shown as escapes.

    A single-line item (a name, a label, a log line) shows newline and tab as
    ``\\n`` and ``\\t`` too; with ``multiline`` they are kept. Anything that
    is not a string is turned into one first.
    """
    if not isinstance(text, str):
        text = str(text)
    pattern = _MULTI_LINE if multiline else _ONE_LINE
    return pattern.sub(_escape, text)


def _json_escape(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_text(value, **options) -> str:
    """``json.dumps(value)`` with Unicode kept readable but no character a terminal acts on.

    Every character :func:`visible` escapes is written as a ``\\uXXXX`` escape
    (only strings can hold them, so the document means exactly the same).
    ``options`` go to ``json.dumps`` (``indent``, ``sort_keys``…).
    """
    return _MULTI_LINE.sub(_json_escape, json.dumps(value, ensure_ascii=False, **options))

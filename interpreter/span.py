"""Source positions shared by YAML nodes, effect-language AST nodes and errors.

A :class:`Span` names a file and a 1-based line and column range. Every stage
of the pipeline attaches spans to what it produces, so any error, at load
time or in play, can point at the exact place in a rule file.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file: 1-based lines and columns, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def to_dict(self) -> dict:
        out = {"file": self.file, "line": self.line, "col": self.col}
        if self.end_line is not None:
            out["end_line"] = self.end_line
            out["end_col"] = self.end_col
        return out


@dataclass(frozen=True, slots=True)
class SealedSpan(Span):
    """A place in a file Rulebook refused to read: reporters name it but never open it."""


class TextOrigin:
    """Maps positions inside a piece of text back to the file it came from.

    Effect text usually sits in a YAML scalar. ``lines[i]`` describes line
    ``i + 1`` of the text as a list of segments ``(text_col, file_line,
    file_col)``: the character at 1-based ``text_col`` on that text line sits
    at ``(file_line, file_col)`` in the file, and so do the characters after
    it up to the next segment. A literal block scalar has one segment per
    line; a folded scalar has one text line made of several file lines.
    """

    __slots__ = ("file", "lines")

    def __init__(self, file: str, lines: list[list[tuple[int, int, int]]]):
        self.file = file
        self.lines = lines

    @classmethod
    def at(cls, file: str, line: int, col: int) -> "TextOrigin":
        """Text that starts at (line, col) of the file and keeps its lines."""
        return cls(file, [[(1, line, col)]])

    def position(self, line: int, col: int) -> tuple[int, int]:
        """File (line, col) of the 1-based (line, col) inside the text."""
        if not self.lines:
            return (1, 1)
        if line - 1 >= len(self.lines):
            # past the recorded lines (e.g. the newline added before parsing)
            # lines past those recorded start at column 1 of later file lines
            last = self.lines[-1][0]
            return (last[1] + (line - len(self.lines)), col)
        segments = self.lines[max(line - 1, 0)]
        chosen = segments[0]
        for seg in segments:
            if seg[0] <= col:
                chosen = seg
            else:
                break
        tcol, fline, fcol = chosen
        return (fline, fcol + col - tcol)

    def span(self, line: int, col: int, end_line: int | None = None,
             end_col: int | None = None) -> Span:
        fl, fc = self.position(line, col)
        if end_line is None or end_col is None:
            return Span(self.file, fl, fc)
        el, ec = self.position(end_line, end_col)
        return Span(self.file, fl, fc, el, ec)

"""Stage 1: read a YAML file into plain data, keeping every node's position.

The file is parsed into events by libyaml (the C parser) and the value tree is
built here, iteratively, so that this stage can enforce what a rule file may
contain: one document, no duplicate keys, bounded nesting and bounded alias
expansion, text that is UTF-8. Each value's position is kept in a side table
keyed by its path (the same path JSON Schema reports), which later stages use
to point errors at the exact line and column.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..errors import Diagnostics
from ..lang.runtime import MAX_INT, shown_number
from ..span import Span, TextOrigin
from .userfiles import Unreadable, read_regular

# PyYAML is imported when a file is first parsed, not with this module: a ruleset
# loaded from the cache is not parsed again (see interpreter/load/loadcache.py).
yaml = _Loader = _RESOLVER = _CONSTRUCTOR = None


def _need_yaml() -> None:
    global yaml, _Loader, _RESOLVER, _CONSTRUCTOR
    if yaml is not None:
        return
    import yaml as pyyaml
    from yaml import constructor, resolver
    # the C parser is much faster; fall back quietly where it is missing
    _Loader = getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)
    _RESOLVER = resolver.Resolver()
    _CONSTRUCTOR = constructor.SafeConstructor()
    yaml = pyyaml  # last: it says the others are set

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 500_000

Path = tuple  # tuple of str keys and int indexes

_SIMPLE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


@dataclass(slots=True)
class _Scalar:
    line: int  # 0-based, as libyaml reports
    col: int
    end_line: int
    end_col: int
    style: str | None


@dataclass
class Document:
    """One YAML file as plain data plus the position of every node."""

    file: str
    text: str
    data: Any
    spans: dict = field(default_factory=dict)
    key_spans: dict = field(default_factory=dict)
    scalars: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        # its text and data can be a whole ruleset's: a notebook would print them all
        return f"<Document {_clip(self.file, 150)}>"

    def span(self, path: Path) -> Span:
        """Span of the value at ``path``, or of its nearest ancestor."""
        path = tuple(path)
        while path not in self.spans and path:
            path = path[:-1]
        return self.spans.get(path, Span(self.file, 1, 1))

    def key_span(self, path: Path) -> Span:
        """Span of the key whose value is at ``path`` (falls back to the value)."""
        return self.key_spans.get(tuple(path)) or self.span(path)

    def origin(self, path: Path) -> TextOrigin:
        """Where each character of the string scalar at ``path`` sits in the file."""
        info: _Scalar | None = self.scalars.get(tuple(path))
        if info is None:
            sp = self.span(path)
            return TextOrigin.at(self.file, sp.line, sp.col)
        return _scalar_origin(self.file, self.lines, info)

    @cached_property
    def lines(self) -> list[str]:
        """The file's lines, split once: splitting per lookup made a load quadratic."""
        return self.text.splitlines()

    def line_text(self, line: int) -> str:
        lines = self.lines
        return lines[line - 1] if 0 < line <= len(lines) else ""


def _clip(text: str, most: int) -> str:
    """Text cut to at most ``most`` characters, an ellipsis where it was cut."""
    return text if len(text) <= most else text[:most - 1] + "…"


def _scalar_origin(file: str, lines: list[str], info: _Scalar) -> TextOrigin:
    if info.style in ("|", ">"):
        first = info.line + 1  # content starts below the indicator line
        last = info.end_line if info.end_col == 0 else info.end_line + 1
        body = lines[first:last]
        indent = None
        for raw in body:
            if raw.strip():
                indent = len(raw) - len(raw.lstrip(" "))
                break
        indent = indent or 0
        if info.style == "|":
            return TextOrigin(file, [[(1, first + 1 + i, indent + 1)]
                                     for i in range(max(len(body), 1))])
        # folded: consecutive non-blank lines join into one text line
        out: list[list[tuple[int, int, int]]] = []
        current: list[tuple[int, int, int]] = []
        tcol = 1
        for i, raw in enumerate(body):
            content = raw[indent:] if len(raw) >= indent else ""
            if not content.strip():
                if current:
                    out.append(current)
                    current, tcol = [], 1
                continue
            current.append((tcol, first + 1 + i, indent + 1))
            tcol += len(content.rstrip()) + 1
        if current:
            out.append(current)
        return TextOrigin(file, out or [[(1, first + 1, indent + 1)]])
    quote = 1 if info.style in ("'", '"') else 0
    if info.end_line == info.line:
        return TextOrigin.at(file, info.line + 1, info.col + 1 + quote)
    # a plain or quoted scalar over several lines folds into one text line
    segments = [(1, info.line + 1, info.col + 1 + quote)]
    first_line = lines[info.line][info.col + quote:] if info.line < len(lines) else ""
    tcol = len(first_line.rstrip()) + 2
    for ln in range(info.line + 1, info.end_line + 1):
        raw = lines[ln] if ln < len(lines) else ""
        stripped = raw.lstrip()
        if not stripped:
            continue
        segments.append((tcol, ln + 1, len(raw) - len(stripped) + 1))
        tcol += len(stripped.rstrip()) + 1
    return TextOrigin(file, [segments])


def _span(file: str, start, end) -> Span:
    return Span(file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return line, col


def _scalar_value(event: yaml.ScalarEvent):
    if not event.style and event.implicit[0]:
        tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, (True, False))
    elif event.tag in (None, "!") or event.implicit[1]:
        tag = "tag:yaml.org,2002:str"
    else:
        tag = event.tag
    if tag == "tag:yaml.org,2002:bool" and event.value.lower() not in ("true", "false"):
        # YAML 1.2 booleans only: 'on', 'off', 'yes', 'no' stay text
        return event.value, None
    if tag not in _SIMPLE_TAGS:
        if tag in ("tag:yaml.org,2002:timestamp",):
            return event.value, None  # keep dates as the text written
        return None, tag
    if tag == "tag:yaml.org,2002:str":
        return event.value, None
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark)
    return _CONSTRUCTOR.construct_object(node, deep=True), None


class _Abort(Exception):
    pass


def load_yaml(path: str | os.PathLike, diags: Diagnostics, display: str | None = None,
              text: str | None = None) -> Document | None:
    """Load one YAML file; report problems into ``diags`` and return None on failure."""
    name = display or str(path)
    if text is None:
        text = read_text(path, diags, name)
        if text is None:
            return None
    elif text.startswith("\ufeff"):
        text = text[1:]
    return parse_yaml(text, name, diags)


def read_text(path: str | os.PathLike, diags: Diagnostics, name: str) -> str | None:
    """A rule file's text, as parsing sees it: UTF-8, no NUL, not too large, no byte order mark.

    Only a regular file is read (:mod:`rulebook_games.load.userfiles`): a pipe or a
    device named as a rule file is an error, never a wait.
    """
    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except Unreadable as exc:
        diags.error("RB100", f"cannot read file: {exc.message}", Span(name, 1, 1))
        return None
    if len(raw) > MAX_FILE_BYTES:
        diags.error("RB103", f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; "
                    "split it into several files", Span(name, 1, 1))
        return None
    nul = raw.find(b"\x00")
    if nul >= 0:
        line, col = _byte_position(raw, nul)
        diags.error("RB101", "file contains a NUL byte; it looks like a binary file, not YAML",
                    Span(name, line, col))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _byte_position(raw, exc.start)
        diags.error("RB101", f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; "
                    "save the file as UTF-8", Span(name, line, col))
        return None
    return text[1:] if text.startswith("\ufeff") else text


_ODD_BREAK = re.compile("[\x85\u2028\u2029]")
_ODD_NAMES = {"\x85": "next line", "\u2028": "line separator", "\u2029": "paragraph separator"}


def parse_yaml(text: str, name: str, diags: Diagnostics) -> Document | None:
    """Parse YAML text into a :class:`Document`, or report why it cannot be."""
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#")
                                for ln in text.splitlines()):
        diags.error("RB102", "file is empty: a rule file must hold one YAML mapping",
                    Span(name, 1, 1))
        return None
    odd = _ODD_BREAK.search(text)
    if odd is not None:
        # YAML counts these as line breaks and editors, GitHub and terminals do not: every
        # position after one would point at the wrong line
        at = odd.start()
        line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        diags.error("RB110", f"U+{ord(odd.group()):04X} ({_ODD_NAMES[odd.group()]}) is a line "
                    "break to YAML but not to editors, so the lines after it would be "
                    "miscounted; remove it, or write it as an escape in a double-quoted "
                    f"string (\\u{ord(odd.group()):04x})", Span(name, line, col))
        return None
    _need_yaml()
    doc = Document(name, text, None)
    builder = _Builder(doc, diags)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            builder.feed(event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        lines = text.splitlines()
        ch = lines[line - 1][col - 1:col] if 0 < line <= len(lines) else ""
        if ch == "\t" or "'\\t'" in str(exc.problem):
            diags.error("RB109", "tab character in indentation; YAML indents with spaces only",
                        Span(name, line, col))
        else:
            problem = (exc.problem or "invalid YAML").strip()
            context = f" ({exc.context.strip()})" if exc.context else ""
            diags.error("RB104", f"malformed YAML: {problem}{context}", Span(name, line, col))
        return None
    except yaml.YAMLError as exc:  # reader errors (control characters)
        mark = getattr(exc, "position", None)
        diags.error("RB104", f"malformed YAML: {exc}", Span(name, 1, 1))
        return None
    except _Abort:
        return None
    except RecursionError:
        diags.error("RB106", f"document nested deeper than {MAX_DEPTH} levels", Span(name, 1, 1))
        return None
    if builder.documents == 0 or doc.data is None:
        diags.error("RB102", "file is empty: a rule file must hold one YAML mapping",
                    Span(name, 1, 1))
        return None
    return doc


class _Builder:
    """Turns a stream of parser events into values, positions and checks."""

    def __init__(self, doc: Document, diags: Diagnostics):
        self.doc = doc
        self.diags = diags
        self.stack: list[list] = []  # [container, path, pending_key, key_span, anchor]
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.nodes = 0
        self.documents = 0

    def _fail(self, code: str, message: str, mark) -> None:
        self.diags.error(code, message, Span(self.doc.file, mark.line + 1, mark.column + 1))
        raise _Abort()

    def _count(self, n: int, mark) -> None:
        self.nodes += n
        if self.nodes > MAX_NODES:
            self._fail("RB107", f"document expands to more than {MAX_NODES:,} nodes "
                       "(aliases repeated too often?)", mark)

    def _child_path(self, mark) -> tuple[Path, Span | None]:
        if not self.stack:
            return (), None
        frame = self.stack[-1]
        container, path = frame[0], frame[1]
        if isinstance(container, list):
            return path + (len(container),), None
        return path + (frame[2],), frame[3]

    def _attach(self, value: Any, mark) -> None:
        if not self.stack:
            self.doc.data = value
            return
        frame = self.stack[-1]
        container = frame[0]
        if isinstance(container, list):
            container.append(value)
        else:
            container[frame[2]] = value
            frame[2] = None
            frame[3] = None

    def feed(self, event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self._fail("RB108", "a rule file holds one YAML document; "
                           "remove the extra '---' or split the file", event.start_mark)
            return
        if isinstance(event, (yaml.StreamStartEvent, yaml.StreamEndEvent,
                              yaml.DocumentEndEvent)):
            return
        frame = self.stack[-1] if self.stack else None
        expecting_key = frame is not None and isinstance(frame[0], dict) and frame[2] is None

        if isinstance(event, yaml.ScalarEvent) and expecting_key:
            # keys are text exactly as written: 'on:' is the key "on", '1:' the key "1"
            if event.tag and event.tag not in ("!", "tag:yaml.org,2002:str") and \
                    not event.implicit[0]:
                self._fail("RB108", f"unsupported YAML tag {event.tag} on a key",
                           event.start_mark)
            value = event.value
            if value == "<<":
                self._fail("RB108", "YAML merge keys ('<<') are not supported; "
                           "write the keys out or use a mod overlay", event.start_mark)
            span = _span(self.doc.file, event.start_mark, event.end_mark)
            if value in frame[0]:
                first = self.doc.key_spans.get(frame[1] + (value,))
                where = f" (first defined at line {first.line})" if first else ""
                self.diags.error("RB105", f"duplicate key '{value}'{where}", span)
            frame[2] = value
            frame[3] = span
            return
        if expecting_key and isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent,
                                                yaml.AliasEvent)):
            self._fail("RB108", "mapping keys must be plain text, not collections or aliases",
                       event.start_mark)

        if isinstance(event, yaml.MappingEndEvent) or isinstance(event, yaml.SequenceEndEvent):
            container, path, _, _, anchor, start = self.stack.pop()
            self.doc.spans[path] = _span(self.doc.file, start, event.end_mark)
            if anchor:
                self.anchors[anchor] = (container, self._size(container))
            self._attach(container, event.start_mark)
            return

        path, key_span = self._child_path(event.start_mark)
        if key_span is not None:
            self.doc.key_spans[path] = key_span
        self._count(1, event.start_mark)

        if isinstance(event, yaml.ScalarEvent):
            try:
                value, bad_tag = _scalar_value(event)
            except ValueError:  # Python refuses to read a number of thousands of digits
                self._fail("RB104", "malformed YAML: this number is too long to read",
                           event.start_mark)
            if bad_tag:
                self._fail("RB108", f"unsupported YAML tag {bad_tag}", event.start_mark)
            self.doc.spans[path] = _span(self.doc.file, event.start_mark, event.end_mark)
            if isinstance(value, int) and not isinstance(value, bool) and \
                    not -MAX_INT <= value <= MAX_INT:  # rules compute within the bound
                self.diags.error("RB306", f"the number {shown_number(value)} is beyond the "
                                 f"limit of {MAX_INT:,} (10^18) in magnitude",
                                 self.doc.spans[path])
            if isinstance(value, str):
                s, e = event.start_mark, event.end_mark
                self.doc.scalars[path] = _Scalar(s.line, s.column, e.line, e.column,
                                                 event.style or None)
            if event.anchor:
                self.anchors[event.anchor] = (value, 1)
            self._attach(value, event.start_mark)
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in self.anchors:
                self._fail("RB104", f"unknown alias *{event.anchor}", event.start_mark)
            value, size = self.anchors[event.anchor]
            self._count(size, event.start_mark)
            self.doc.spans[path] = _span(self.doc.file, event.start_mark, event.end_mark)
            self._attach(value, event.start_mark)
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if len(self.stack) >= MAX_DEPTH:
                self._fail("RB106", f"document nested deeper than {MAX_DEPTH} levels",
                           event.start_mark)
            if event.tag and event.tag not in ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"):
                self._fail("RB108", f"unsupported YAML tag {event.tag}", event.start_mark)
            container: Any = {} if isinstance(event, yaml.MappingStartEvent) else []
            self.stack.append([container, path, None, None, event.anchor, event.start_mark])

    @staticmethod
    def _size(value: Any) -> int:
        count, todo = 0, [value]
        while todo:
            item = todo.pop()
            count += 1
            if count > MAX_NODES:
                break
            if isinstance(item, dict):
                todo.extend(item.values())
            elif isinstance(item, list):
                todo.extend(item)
        return count


_POINTER_ESCAPE = re.compile(r"[~/]")


def path_text(path: Path) -> str:
    """A readable path such as ``cards[3].play``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(document)"

"""Stage 1: YAML files become data with positions, or positioned errors."""

from __future__ import annotations

from rulebook_games.errors import Diagnostics
from rulebook_games.load.yamlload import MAX_DEPTH, MAX_FILE_BYTES, load_yaml, parse_yaml


def load(text: str):
    diags = Diagnostics()
    doc = parse_yaml(text, "t.yaml", diags)
    return doc, [(d.code, d.span.line, d.span.col) for d in diags]


def test_values_and_positions():
    doc, errs = load("kind: cards\ncards:\n  - id: comet\n    cost: 21\n")
    assert errs == []
    assert doc.data == {"kind": "cards", "cards": [{"id": "comet", "cost": 21}]}
    span = doc.span(("cards", 0, "cost"))
    assert (span.line, span.col) == (4, 11)
    key = doc.key_span(("cards", 0, "cost"))
    assert (key.line, key.col) == (4, 5)


def test_keys_are_text_and_only_true_false_are_booleans():
    doc, errs = load("on: yes\n1: off\nflag: true\n")
    assert errs == []
    assert doc.data == {"on": "yes", "1": "off", "flag": True}


def test_duplicate_key_points_at_second_key():
    _, errs = load("a: 1\nb: 2\na: 3\n")
    assert errs == [("RB105", 3, 1)]


def test_literal_block_origin_maps_lines_and_columns():
    doc, _ = load("play: |\n  gain 1 x\n    raise y\n")
    origin = doc.origin(("play",))
    assert origin.position(1, 1) == (2, 3)
    assert origin.position(2, 3) == (3, 5)


def test_folded_block_origin_maps_back_to_source_lines():
    doc, _ = load("play: >\n  gain 1 x\n  then more\n")
    assert doc.data["play"] == "gain 1 x then more\n"
    origin = doc.origin(("play",))
    assert origin.position(1, 10) == (3, 3)


def test_quoted_scalar_origin_skips_the_quote():
    doc, _ = load('play: "gain 1 x"\n')
    assert doc.origin(("play",)).position(1, 1) == (1, 8)


def test_deep_nesting_is_a_positioned_error():
    text = "a:\n" + "".join("  " * i + "- \n" for i in range(1, MAX_DEPTH + 5))
    _, errs = load(text)
    assert errs and errs[0][0] == "RB106"


def test_deep_flow_nesting_is_a_positioned_error():
    _, errs = load("[" * 5000 + "]" * 5000)
    assert len(errs) == 1 and errs[0][0] in ("RB104", "RB106")


def test_alias_bomb_is_stopped():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    _, errs = load("\n".join(lines) + "\n")
    assert errs and errs[0][0] == "RB107"


def test_small_aliases_are_fine():
    doc, errs = load("base: &b {cost: 3}\nother: *b\n")
    assert errs == [] and doc.data["other"] == {"cost": 3}


def test_huge_file_is_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: " + b"x" * (MAX_FILE_BYTES + 10) + b"\n")
    diags = Diagnostics()
    assert load_yaml(path, diags, "big.yaml") is None
    assert [(d.code, d.span.line) for d in diags] == [("RB103", 1)]


def test_missing_file_is_an_error(tmp_path):
    diags = Diagnostics()
    assert load_yaml(tmp_path / "nope.yaml", diags, "nope.yaml") is None
    assert diags[0].code == "RB100"


def test_invalid_utf8_points_at_the_byte(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    diags = Diagnostics()
    assert load_yaml(path, diags, "x.yaml") is None
    assert [(d.code, d.span.line, d.span.col) for d in diags] == [("RB101", 2, 7)]


def test_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    diags = Diagnostics()
    doc = load_yaml(path, diags, "x.yaml")
    assert doc is not None and doc.data == {"a": 1}


def test_control_characters_are_an_error():
    _, errs = load("a: \x07\n")
    assert errs and errs[0][0] == "RB104"


def test_a_line_break_only_yaml_counts_is_an_error_at_the_line_editors_show():
    # YAML (1.1, as PyYAML reads it) breaks lines at NEL, LS and PS; editors, GitHub and
    # the language server do not, so a typo after one was reported lines away from it
    for odd, name in (("\x85", "next line"), ("\u2028", "line separator"),
                      ("\u2029", "paragraph separator")):
        text = f"kind: cards\ncards:\n  - id: lamp\n    cost: 2{odd}{odd}    cosst: 1\n"
        diags = Diagnostics()
        assert parse_yaml(text, "t.yaml", diags) is None
        (d,) = list(diags)
        assert d.code == "RB110" and name in d.message, d.message
        assert (d.span.line, d.span.col) == (4, 12)  # where an editor shows it


def test_a_number_beyond_what_rules_compute_with_is_refused_at_its_place():
    # every number rules compute with stays within 10^18; a card's cost is one of them
    _, errs = load("cards:\n  - id: a\n    cost: 1000000000000000001\n"
                   "  - id: b\n    cost: -1000000000000000000\n")
    assert errs == [("RB306", 3, 11)]

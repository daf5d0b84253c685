"""Tab in a shell completes what a command takes: rulesets, variants, agents and mods.

Each test drives click's own completion machinery, as the scripts of
``_RULEBOOK_COMPLETE=bash_source rulebook`` (zsh_source, fish_source) do
on every Tab, and checks the real candidates: the shipped rulesets' names,
a ruleset's variants as its files declare them, the agents that exist, the
mods a ruleset keeps in its mods/ folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete

from rulebook_games.cli import cli, main
from rulebook_games.paths import shipped_rulesets_dir

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ["lantern_row", "legacy_gears_of_time", "terraforming_mars", "timespan"]


def complete(line: str):
    """What Tab offers after ``line`` (the word being typed is its last, maybe empty)."""
    words = line.split(" ")
    items = ShellComplete(cli, {}, "rulebook", "_RULEBOOK_COMPLETE").get_completions(
        words[:-1], words[-1])
    return [item.value for item in items if item.type == "plain"], \
        {item.type for item in items if item.type != "plain"}


def test_a_ruleset_completes_to_the_shipped_names_and_leaves_folders_to_the_shell():
    for command in ("play", "simulate", "compare", "test", "cards", "compile", "serve"):
        names, other = complete(f"{command} ")
        assert names == SHIPPED and other == {"dir"}, command
    assert complete("play t")[0] == ["terraforming_mars", "timespan"]
    assert complete("report results.jsonl --ruleset le")[0] == ["legacy_gears_of_time"]
    assert complete("replay game.json --ruleset la")[0] == ["lantern_row"]
    # a path is the shell's to complete: no name holds a slash
    assert complete("play rulesets/")[0] == []
    # validate takes any rule file as well
    assert complete("validate ")[0] == SHIPPED and complete("validate ")[1] == {"file"}


def test_a_variant_completes_to_the_variants_of_the_ruleset_typed():
    assert complete("play terraforming_mars --variant ")[0] == ["corporate_era", "draft", "solo"]
    # other options before it, and a variant already chosen is not offered again
    assert complete("simulate terraforming_mars -p 2 --variant draft --variant ")[0] == \
        ["corporate_era", "solo"]
    assert complete("play timespan --variant scenario_1")[0] == ["scenario_1"]
    assert complete("compare timespan --variant har")[0] == ["harmony_income"]
    # no ruleset yet, or one without variants: nothing (and never an error)
    assert complete("play --variant ")[0] == []
    assert complete("play lantern_row --variant ")[0] == []
    assert complete("play no_such_game --variant ")[0] == []


def test_a_variant_shows_its_name_beside_its_id():
    items = ShellComplete(cli, {}, "rulebook", "_RULEBOOK_COMPLETE").get_completions(
        ["play", "terraforming_mars", "--variant"], "co")
    assert [(i.value, i.help) for i in items] == [("corporate_era", "Corporate Era")]


def test_a_ruleset_of_your_own_and_its_mods_complete(tmp_path, monkeypatch):
    game = tmp_path / "my_game"
    # a copy of a small ruleset given a variant, and a mod of it that adds another
    import shutil
    shutil.copytree(shipped_rulesets_dir() / "lantern_row", game,
                    ignore=shutil.ignore_patterns("mods", "scenarios"))
    with open(game / "flow.yaml", "a", encoding="utf-8") as fh:
        fh.write("\nvariants:\n  - id: quick\n    name: Quick game\n")
    (game / "mods").mkdir()
    (game / "mods" / "sunrise.yaml").write_text(
        "kind: mod\nid: sunrise\nname: Sunrise\ntarget: lantern_row\nchanges:\n"
        "  - {op: add, in: variants, value: {id: sunrise, name: Sunrise start}}\n",
        encoding="utf-8")
    (game / "mods" / "notes.yaml").write_text("kind: flow\n", encoding="utf-8")  # not a mod
    # a file name no shell takes as one word is not offered
    (game / "mods" / "two words.yaml").write_text("kind: mod\n", encoding="utf-8")
    (game / "mods" / "esc\x1b[2J.yaml").write_text("kind: mod\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert complete("play my_game --mod ")[0] == ["my_game/mods/sunrise.yaml"]
    assert complete("compare my_game --mod ")[0] == ["sunrise"]
    assert complete("compare my_game --mod my_game/")[0] == ["my_game/mods/sunrise.yaml"]
    assert complete("play my_game --variant ")[0] == ["quick"]
    assert complete("play my_game --mod my_game/mods/sunrise.yaml --variant ")[0] == \
        ["quick", "sunrise"]
    assert complete("compare my_game --mod sunrise --variant ")[0] == ["quick", "sunrise"]


def test_the_mods_of_a_shipped_ruleset_complete_by_name_for_compare_and_as_files_elsewhere(
        monkeypatch):
    monkeypatch.chdir(ROOT)
    names = ["deep_pockets", "long_festival", "rich_start"]
    assert complete("compare lantern_row --mod ")[0] == names
    assert complete("compare lantern_row --mod r")[0] == ["rich_start"]
    files = [f"rulesets/lantern_row/mods/{n}.yaml" for n in names]
    assert complete("play lantern_row --mod ")[0] == files
    assert complete("test rulesets/lantern_row --mod ")[0] == files
    assert complete("validate rulesets/lantern_row --mod ")[0] == files
    assert complete("validate lantern_row --mod r")[0] == files  # they start with rulesets/
    # any other file is still the shell's to complete
    assert "file" in complete("simulate lantern_row --mod ")[1]


def test_agents_complete_seat_by_seat_with_the_installed_ones(tmp_path, monkeypatch):
    from rulebook_games.agents.specs import known_names
    builtin = known_names()  # the built-in agents (another may join them), and installed ones
    assert {"human", "random", "first", "last", "greedy", "ismcts"} <= set(builtin)
    assert complete("play timespan --agents ")[0] == builtin
    assert "greedy" in complete("simulate timespan --agents g")[0]
    assert all(n.startswith("g") for n in complete("simulate timespan --agents g")[0])
    assert "human,ismcts" in complete("play timespan --agents human,is")[0]
    assert complete("compare lantern_row --agents random,")[0] == [f"random,{n}" for n in builtin]
    assert complete("simulate timespan --agents ismcts:it")[0] == ["ismcts:iterations="]
    assert complete("simulate timespan --agents greedy,ismcts:iterations=9:play")[0] == \
        ["greedy,ismcts:iterations=9:playout="]
    assert complete("simulate timespan --agents random:")[0] == []
    # an agent a package installs (an entry point) completes like a built-in one
    info = tmp_path / "my_agents-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agents\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text("[rulebook.agents]\nfirst-option = my_agents:A\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert {"first", "first-option"} <= set(complete("simulate timespan --agents fi")[0])


def test_every_command_completes_its_rulesets_variants_agents_and_mods():
    names = {"ruleset", "ruleset_path", "paths", "variants", "agent_spec", "mods"}
    for command_name, command in cli.commands.items():
        for param in command.params:
            if param.name in names:
                assert param._custom_shell_complete is not None, (command_name, param.name)


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o nosort -F"),
                                           ("zsh", "#compdef rulebook"),
                                           ("fish", "complete --no-files --command rulebook")])
def test_the_shell_scripts_come_from_the_command(shell, marker, monkeypatch, capsys):
    monkeypatch.setenv("_RULEBOOK_COMPLETE", f"{shell}_source")
    with pytest.raises(SystemExit) as info:
        main([])
    out = capsys.readouterr().out
    assert info.value.code == 0 and marker in out and "_RULEBOOK_COMPLETE" in out


def test_a_tab_through_the_command_itself(monkeypatch, capsys):
    """What the bash script runs on a Tab: the words so far in COMP_WORDS."""
    monkeypatch.setenv("_RULEBOOK_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", "rulebook play terraforming_mars --variant d")
    monkeypatch.setenv("COMP_CWORD", "4")
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 0
    assert capsys.readouterr().out.split() == ["plain,draft"]


def test_completion_never_fails_aloud(tmp_path, monkeypatch):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "ruleset.yaml").write_text("kind: ruleset\nid: [\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert complete("play broken --variant ")[0] == []
    assert complete("play broken --mod ")[0] == []
    assert complete("play " + "x" * 5000 + " --variant ")[0] == []
    assert os.getcwd() == str(tmp_path)


def _as_zsh_reads(out: str):
    """The answer as the zsh script reads it: lines, empty ones dropped (an unquoted
    array), three at a time: type, value, help."""
    lines = [line for line in out.split("\n") if line]
    return [tuple(lines[i:i + 3]) for i in range(0, len(lines), 3)]


@pytest.mark.parametrize("line, names, kind", [
    ("rulebook compare lantern_row --mod ", ["deep_pockets", "long_festival", "rich_start"],
     "file"),
    ("rulebook play ", SHIPPED, "dir"),
    ("rulebook validate ", SHIPPED, "file"),
])
def test_zsh_reads_the_names_and_the_paths(line, names, kind, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("_RULEBOOK_COMPLETE", "zsh_complete")
    monkeypatch.setenv("COMP_WORDS", line)
    monkeypatch.setenv("COMP_CWORD", str(len(line.split(" ")) - 1))
    with pytest.raises(SystemExit):
        main([])
    read = _as_zsh_reads(capsys.readouterr().out)
    assert [entry[1] for entry in read if entry[0] == "plain"] == names
    assert read[-1][0] == kind  # the path item, last, read as a path item
    assert all(len(entry) == 3 and entry[0] == "plain" for entry in read[:-1])


def test_bash_gets_the_path_item_first(monkeypatch, capsys):
    monkeypatch.setenv("_RULEBOOK_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", "rulebook play ")
    monkeypatch.setenv("COMP_CWORD", "2")
    with pytest.raises(SystemExit):
        main([])
    lines = capsys.readouterr().out.split()
    assert lines[0] == "dir," and lines[1:] == [f"plain,{name}" for name in SHIPPED]


def test_fish_reads_a_value_with_a_comma_whole(monkeypatch, capsys):
    """click's fish script split each line at every comma: the agents of two seats came
    back as the first seat's only. Rulebook's script splits once."""
    monkeypatch.setenv("_RULEBOOK_COMPLETE", "fish_source")
    with pytest.raises(SystemExit):
        main([])
    script = capsys.readouterr().out
    assert 'string split --max 1 "," $completion' in script
    monkeypatch.setenv("_RULEBOOK_COMPLETE", "fish_complete")
    monkeypatch.setenv("COMP_WORDS", "rulebook play timespan --agents human,gr")
    monkeypatch.setenv("COMP_CWORD", "human,gr")
    with pytest.raises(SystemExit):
        main([])
    line = capsys.readouterr().out.strip()
    assert line == "plain,human,greedy"
    import shutil
    import subprocess
    if shutil.which("fish"):  # the split the script does, by fish itself
        done = subprocess.run(["fish", "--no-config", "-c",
                               f'string split --max 1 "," "{line}"'],
                              capture_output=True, text=True, timeout=60)
        assert done.stdout.split("\n")[:2] == ["plain", "human,greedy"]

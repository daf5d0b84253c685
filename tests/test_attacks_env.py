"""Issue 24, item 10: the learning environment used out of order, and pushed past its bounds.

A training script that steps before ``reset``, after the game's end or after
``close`` got an AttributeError or a KeyError from deep inside PettingZoo, and
a rule that pushes a stock past a billion made observations leave the
observation space they declare. Each case runs in a fresh interpreter, as a
user's script would: every misuse is one ``EnvStateError`` line saying what
to call first (never a traceback of another kind), and every observation is
inside the declared space.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

TINY = Path(__file__).parent / "fixtures" / "tiny"

SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    from rulebook_games.env import EnvStateError, rulebook_env

    out = {}
    def attempt(label, call):
        try:
            result = call()
        except EnvStateError as exc:
            out[label] = "EnvStateError: " + str(exc)
        except Exception as exc:
            out[label] = type(exc).__name__ + ": " + str(exc)
        else:
            out[label] = "ok"

    env = rulebook_env(sys.argv[1], players=1)
    attempt("step before reset", lambda: env.step(0))
    attempt("observe before reset", lambda: env.observe("player_1"))
    attempt("last before reset", env.last)
    attempt("agents before reset", lambda: env.agents)
    env.reset()
    space = env.observation_space("player_1")
    inside = []
    for agent in env.agent_iter():
        obs, _, done, cut, _ = env.last()
        inside.append(bool(space.contains(obs)))
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))
    out["inside"] = inside
    attempt("step after the end", lambda: env.step(0))
    attempt("last after the end", env.last)
    env.close()
    attempt("step after close", lambda: env.step(0))
    attempt("observe after close", lambda: env.observe("player_1"))
    print(json.dumps(out))
""")


def test_item10_misuse_is_one_clear_error_and_observations_stay_inside(tmp_path):
    work = tmp_path / "hoard"
    shutil.copytree(TINY, work)
    flow = work / "flow.yaml"
    # the first action offered makes the stock of gold pass the observation's bound
    flow.write_text(flow.read_text().replace(
        "actions:\n  - id: earn\n",
        "actions:\n  - id: hoard\n    name: Hoard\n    do: gain 5000000000 gold\n"
        "  - id: earn\n"))
    (tmp_path / "script.py").write_text(SCRIPT)
    proc = subprocess.run([sys.executable, "script.py", str(work)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    out = json.loads(proc.stdout)
    for label in ("step before reset", "observe before reset", "last before reset",
                  "agents before reset"):
        assert out[label].startswith("EnvStateError: ") and "call reset() first" in \
            out[label], (label, out[label])
    for label in ("step after the end", "last after the end"):
        assert out[label] == ("EnvStateError: the game is over and every seat has taken its "
                              "last step: call reset() to play the next game"), out[label]
    for label in ("step after close", "observe after close"):
        assert out[label].startswith("EnvStateError: ") and \
            "the environment is closed: call reset()" in out[label], (label, out[label])
    assert len(out["inside"]) > 3 and all(out["inside"])


ARGUMENTS = textwrap.dedent("""
    import json, sys
    import numpy as np
    from rulebook_games.env import rulebook_env
    from rulebook_games.load.ruleset import load_ruleset

    out = {}
    def attempt(label, call):
        try:
            call()
        except Exception as exc:
            out[label] = [type(exc).__name__, str(exc)]
        else:
            out[label] = ["ok", ""]

    def build(**kw):
        return lambda: rulebook_env(**{"ruleset": "lantern_row", "players": 2, **kw})

    for value in (0, -5, 1, 1.5, "x", True, 10 ** 12, None, np.int64(80), 80):
        attempt(f"max_options={value!r}", build(max_options=value))
    for value in ("2", 2.0, True, 9):
        attempt(f"players={value!r}", build(players=value))
    for value in ("x", 1.5, 2 ** 70, True, -3, np.int64(4)):
        attempt(f"seed={value!r}", build(seed=value))
    for value in ("abc", ("zzz",), [1]):
        attempt(f"variants={value!r}", build(variants=value))
    attempt("mods='x.yaml'", build(mods="x.yaml"))
    attempt("ruleset=5", build(ruleset=5))
    rs = load_ruleset("lantern_row")
    attempt("a loaded Ruleset with mods", build(ruleset=rs, mods=["x.yaml"]))
    env = rulebook_env("lantern_row", players=2)
    for value in ("5", 1.5, 2 ** 70):
        attempt(f"reset(seed={value!r})", lambda: env.reset(seed=value))
    print(json.dumps(out))
""")

REFUSED = {
    "max_options=0": "ValueError", "max_options=-5": "ValueError", "max_options=1": "ValueError",
    "max_options=1.5": "TypeError", "max_options='x'": "TypeError",
    "max_options=True": "TypeError", "max_options=1000000000000": "ValueError",
    "players='2'": "TypeError", "players=2.0": "TypeError", "players=True": "TypeError",
    "players=9": "ValueError",
    "seed='x'": "TypeError", "seed=1.5": "TypeError", "seed=1180591620717411303424": "ValueError",
    "seed=True": "TypeError",
    "variants='abc'": "TypeError", "variants=('zzz',)": "ValueError", "variants=[1]": "TypeError",
    "mods='x.yaml'": "TypeError", "ruleset=5": "TypeError",
    "a loaded Ruleset with mods": "ValueError",
    "reset(seed='5')": "TypeError", "reset(seed=1.5)": "TypeError",
    "reset(seed=1180591620717411303424)": "ValueError",
}


def test_f21_every_argument_is_checked_up_front_in_one_line(tmp_path):
    """Each argument of rulebook_env (and reset's seed) of the wrong type is a TypeError,
    of the right type but not allowed a ValueError, raised when the environment is built,
    in one line that names the argument and says what is allowed."""
    (tmp_path / "script.py").write_text(ARGUMENTS)
    proc = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    out = json.loads(proc.stdout)
    for label, kind in REFUSED.items():
        got, message = out[label]
        assert got == kind, (label, got, message)
        assert "\n" not in message and len(message) < 300, (label, message)
        name = label.split("=")[0].replace("reset(", "").replace("a loaded Ruleset with mods",
                                                                    "mods")
        assert name in message, (label, message)
    for label in ("max_options=None", "max_options=np.int64(80)", "max_options=80",
                  "seed=-3", "seed=np.int64(4)"):
        assert out[label] == ["ok", ""], (label, out[label])


PLAY = textwrap.dedent("""
    import json, sys
    from rulebook_games.env import EnvStateError, rulebook_env

    def play(max_options):
        env = rulebook_env("lantern_row", players=2, seed=5, max_options=max_options,
                           actions="index")
        counts, error = [], None
        try:
            env.reset()
            for agent in env.agent_iter():
                obs, _, done, cut, _ = env.last()
                if done or cut:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                counts.append(int(obs["action_mask"].sum()))
                env.step(int(legal[-1]))  # the last answer the mask allows
        except ValueError as exc:
            error = str(exc)
        after = restart = None
        if error is not None:
            try:
                env.step(0)
            except EnvStateError as exc:
                after = str(exc)
            try:  # a new game can be started (and stops again at so wide a decision)
                env.reset(seed=6)
                restart = "ok"
            except ValueError as exc:
                restart = type(exc).__name__
        scores = [str(s) for s in env.result.scores] \
            if env.result is not None and error is None else None
        return {"counts": counts, "error": error, "after": after, "restart": restart,
                "scores": scores,
                "size": int(env.action_space("player_1").n)}

    full = play(None)
    widest = max(full["counts"])
    print(json.dumps({"full": full, "widest": widest, "exact": play(widest),
                      "small": play(widest - 1)}))
""")


def test_f21_a_small_max_options_never_plays_another_game_in_silence(tmp_path):
    """An action space too small for a decision used to cut the decision's options: with
    max_options=3, 'end turn' past index 2 could never be chosen. Now a decision with
    more options than the space holds stops the game with a ValueError that names
    max_options and the number needed; a space just large enough plays the same game."""
    (tmp_path / "script.py").write_text(PLAY)
    proc = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    out = json.loads(proc.stdout)
    full, exact, small, widest = out["full"], out["exact"], out["small"], out["widest"]
    assert full["error"] is None and widest > 2
    assert exact["error"] is None and exact["scores"] == full["scores"]
    assert exact["counts"] == full["counts"] and exact["size"] == widest
    # the smaller space: the same game up to the first decision it cannot express
    stop = next(i for i, n in enumerate(full["counts"]) if n == widest)
    assert small["counts"] == full["counts"][:stop], (small["counts"], full["counts"])
    message = small["error"]
    assert message is not None and "\n" not in message, message
    assert "max_options" in message and str(widest) in message, message
    assert small["after"] is not None and "reset()" in small["after"], small["after"]
    assert small["restart"] in ("ok", "ActionSpaceTooSmall"), small["restart"]

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

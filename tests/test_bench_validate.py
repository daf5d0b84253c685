"""bench_validate.py without the bench extra says what to install, before doing anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_without_check_jsonschema_it_names_the_bench_extra(tmp_path):
    if (Path(sys.executable).parent / "check-jsonschema").exists():
        pytest.skip("the bench extra is installed here")
    generated = ROOT / "benchmarks" / "out" / "generated_3"
    there_before = generated.exists()
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{tmp_path}")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_validate.py"),
                           "--cards", "3", "--runs", "1"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert "it comes with the bench extra, pip install -e '.[bench]'" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
    assert generated.exists() == there_before  # nothing generated first

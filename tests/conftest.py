from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from rulebook_games import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"

# The caches of the commands the suite runs go to private folders of this run, not
# the user's own.
_OWN_FOLDERS = []
for _variable, _prefix in (("RULEBOOK_CACHE_DIR", "rulebook-cache-"),
                           ("RULEBOOK_STATE_DIR", "rulebook-state-")):
    # the cache's sealing key too: the suite never writes in the user's own folders
    if _variable not in os.environ:
        os.environ[_variable] = tempfile.mkdtemp(prefix=_prefix)
        _OWN_FOLDERS.append(os.environ[_variable])


def pytest_unconfigure(config):
    import shutil
    for folder in _OWN_FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def mini():
    return load_ruleset(ROOT / "tests" / "fixtures" / "mini")


@pytest.fixture(scope="session")
def shared_dir():
    if not SHARED.is_dir():
        pytest.skip("../shared is not present (a user's checkout has none)")
    return SHARED


def _hypothesis_profiles():
    import os

    from hypothesis import HealthCheck, settings
    settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("dev", deadline=None)
    settings.load_profile("ci" if os.environ.get("CI") else "dev")


_hypothesis_profiles()

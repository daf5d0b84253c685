from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from interpreter import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"

# The parser-table cache of the commands the suite runs goes to a private folder of
# this run, not the user's own cache.
_OWN_CACHE = None
if "RULEBOOK_CACHE_DIR" not in os.environ:
    _OWN_CACHE = os.environ["RULEBOOK_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulebook-cache-")


def pytest_unconfigure(config):
    if _OWN_CACHE:
        import shutil
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)


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

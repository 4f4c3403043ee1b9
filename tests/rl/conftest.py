"""The learning adapters' tests need the optional extra ``rl``. Without it they skip (``importorskip`` in each
module), unless ``FLOE_REQUIRE_RL`` is set — as ``.ci/run`` sets it — and then a missing extra fails the run
instead of being skipped silently."""

from __future__ import annotations

import importlib
import os

import pytest

if os.environ.get("FLOE_REQUIRE_RL"):
    for module in ("gymnasium", "pettingzoo", "pyspiel"):
        try:
            importlib.import_module(module)
        except ImportError as exc:
            pytest.exit(f"FLOE_REQUIRE_RL is set but the extra 'rl' is missing: {exc}", returncode=1)

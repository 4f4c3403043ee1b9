"""The suite's kinds of test, as markers set at collection (``./floe-test --quick`` leaves slow kinds out).

- ``browser``: drives Debian's Chromium (tests/web);
- ``postgres``: starts a throwaway PostgreSQL cluster;
- ``ray``: starts Ray (a local instance or a loopback cluster);
- ``process``: starts a real ``floe serve`` or another process (a ``floe`` command, an example script);
- ``slow``: whole games by the hundred, training and strength runs (marked by hand).

Nothing is marked by hand: the kind follows from where a test lives and which fixtures or helpers it uses,
so a new test gets its marker without anyone remembering to add it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

# Fixtures that start the thing a marker names.
_POSTGRES_FIXTURES = {"pg_cluster", "pg_url", "fresh_pg_url"}
_PROCESS_FIXTURES = {"server", "shared_server", "served"}
# Helpers whose use in a module means its tests start a server process.
_PROCESS_HELPERS = ("running_server(", "ServerProcess(", "ConnServer(", "served(", "subprocess.")


def _module_text(item: pytest.Item, cache: dict[str, str]) -> str:
    path = str(item.path)
    if path not in cache:
        cache[path] = item.path.read_text(encoding="utf-8")
    return cache[path]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with the kinds it belongs to (see the module docstring)."""
    texts: dict[str, str] = {}
    for item in items:
        parts = item.path.parts
        fixtures = set(getattr(item, "fixturenames", ()))
        if "web" in parts:
            item.add_marker(pytest.mark.browser)
        params = getattr(getattr(item, "callspec", None), "params", {})
        on_postgres = "postgresql" in params.values()  # a store fixture's PostgreSQL parameter
        if fixtures & _POSTGRES_FIXTURES or on_postgres or item.path.name == "test_postgres_server.py":
            item.add_marker(pytest.mark.postgres)
        if item.path.name.startswith("test_ray_"):
            item.add_marker(pytest.mark.ray)
        if fixtures & _PROCESS_FIXTURES or any(h in _module_text(item, texts) for h in _PROCESS_HELPERS):
            item.add_marker(pytest.mark.process)
        if _uses_module_fixture(item):
            # One test process runs the whole module (``--dist loadgroup``), so what its module-scoped
            # fixtures start (a server, a Ray instance) is started once, not once per test process.
            item.add_marker(pytest.mark.xdist_group(str(item.path)))
    # The long kinds first: a module that shares a server or a browser runs whole on one test process, and
    # the browser's modules come last in the files' order, so one process ended the run alone with them for
    # minutes while the other had nothing left. Started first, the small tests fill the end instead.
    items.sort(key=_weight)


def _weight(item: pytest.Item) -> int:
    """0 for a browser test, 1 for one that starts a process, a cluster or Ray, 2 for the rest."""
    kinds = {mark.name for mark in item.iter_markers()}
    if "browser" in kinds:
        return 0
    return 1 if kinds & {"process", "postgres", "ray"} else 2


def _uses_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(d.scope in ("module", "package") for defs in info.name2fixturedefs.values() for d in defs)


@pytest.fixture(autouse=True)
def _no_idle_playwright_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that does not drive the browser runs with no event loop marked as running in its thread.

    The session's sync Playwright (tests/web/conftest.py's ``browser``) keeps its event loop marked as the
    thread's running loop between its calls, so once a browser test has run in a test process, every later
    ``asyncio.run`` there failed ("cannot be called from a running event loop"): which tests broke depended
    on how the tests were shared out between the processes. The mark is lifted for the test and put back
    after it, for the browser's next call.
    """
    idle = None if "browser" in request.fixturenames else asyncio.events._get_running_loop()
    if idle is None:
        yield
        return
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(idle)

"""Names in the browser: the lobby offers bots by their friendly names, weakest first; a table's name is
given in the lobby and shown in its list and the table's title; a bot seat is named by its bot's name; a
table whose link was not opened yet is listed as waiting for players."""

from __future__ import annotations

import os
from typing import Any

import pytest

from .tabledriver import new_page
from .webkit import get_json

if os.environ.get("FLOE_REQUIRE_BROWSER"):
    from playwright.sync_api import expect
else:
    expect = pytest.importorskip("playwright.sync_api").expect

BASELINE = "Baseline (BGA's automatic player)"


def test_bots_and_tables_by_their_names(browser: Any, server: Any) -> None:
    page = new_page(browser, {"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(f"{server.base}/?game=arctic")
    page.wait_for_selector("[data-testid=seat-bot-1]")
    page.select_option("[data-testid=seat-kind-1]", "bot")
    assert page.input_value("[data-testid=seat-bot-1]") == "baseline"  # Arctic's default opponent
    options = page.eval_on_selector_all(
        "[data-testid=seat-bot-1] option", "os => os.map(o => [o.value, o.textContent])"
    )
    assert options[:3] == [
        ["random", "Random"],
        ["greedy", "Greedy (one move ahead)"],
        ["baseline", BASELINE],
    ]
    assert ["ismcts:ms=500", "ISMCTS · 0.5 s"] in options
    page.select_option("[data-testid=seat-bot-1]", "baseline")
    page.fill("[data-testid=seat-name-0]", "Ann")
    page.fill("[data-testid=table-name]", "Friday <b>night</b>")
    page.click("[data-testid=create-table]")
    page.wait_for_selector("[data-testid=open-seat]:visible")
    table_id = page.input_value("[data-testid=link-0]").split("/table/")[1].split("#")[0]
    assert get_json(f"{server.base}/api/tables/{table_id}")["name"] == "Friday <b>night</b>"
    row = page.locator(f"[data-testid=table-row][data-table='{table_id}']")
    expect(row.locator("[data-testid=table-name]")).to_have_text("Friday <b>night</b>")  # text, not markup
    expect(row).to_contain_text(f"P2 bot {BASELINE}")
    expect(row).to_contain_text("waiting for players")  # made, but its link not opened yet (issue 27)
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=seats] li[data-seat='1']")
    expect(page.locator("#table-title")).to_contain_text("· Friday <b>night</b>")
    expect(page.locator("[data-testid=seats] li[data-seat='1'] .seat-name")).to_have_text(
        f"P2 bot {BASELINE}"
    )
    assert errors == []
    page.close()

"""A game that ships no board module (the example game) gets the plain board in the browser: its observation's
fields laid out for a person to read (names in words, one line per seat, cards as text with their count, flags
as boxes), never the raw JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.serverproc import running_server
from web.conftest import browser  # noqa: F401  (the session's Chromium, skipped without it)
from web.tabledriver import watched_page

DESKTOP = {"width": 1280, "height": 900}


def test_the_plain_board_lays_out_the_observation(goofspiel: Path, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with running_server(tmp_path / "data") as server:
        assert next(g for g in server.get("/api/games").json() if g["name"] == "goofspiel")["board"] is None
        made = server.create(
            [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
            game="goofspiel",
            options={"cards": 4},
        )
        table, token = made["table"]["id"], made["seats"][0]["token"]
        page, errors = watched_page(browser, DESKTOP, f"{server.url}/table/{table}#seat={token}")
        page.wait_for_selector(".plain-board .plain-fields")
        names = page.locator(".plain-board .plain-fields > dt").all_inner_texts()
        # Every field of the observation, in its order, its name in words.
        assert names == [
            "seat",
            "cards",
            "ties",
            "prize",
            "carry",
            "deck",
            "hands",
            "bid made",
            "own bid",
            "points",
        ]
        text = page.locator(".plain-board").inner_text()
        # Ann bids first: both hands are whole, one line per seat with the cards and their count.
        assert "P1: 1, 2, 3, 4 (4)" in text and "P2: 1, 2, 3, 4 (4)" in text
        assert "{" not in text and '"' not in text  # no JSON
        seat = page.locator(".plain-board .plain-fields > dd").first.inner_text()
        assert seat == "P1"  # the observation's seat, as people say it
        flags = page.locator(".plain-board input[type=checkbox]")
        assert flags.count() == 2 and not flags.first.is_checked()  # bid made: nobody has bid yet
        assert page.locator(".plain-board .plain-flag-item").all_inner_texts() == ["P1 ", "P2 "]
        page.close()
        assert errors == []

"""A game's browser files at ``/games/<name>/…``: found through its entry, served read-only from its web
folder and nothing outside it (docs/server.md, "Board modules")."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from floe.core.registry import entries
from floe.server import gamefiles
from floe.server.gamefiles import game_file
from floe.server.refusal import Refusal
from floe.server.routes.games import game_info

from .serverproc import ServerProcess, running_server

BOARD_PARTS = ("board.js", "icon.svg")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("gamefiles")) as srv:
        yield srv


def raw_get(server: ServerProcess, path: str) -> tuple[int, str, bytes]:
    """GET ``path`` exactly as written (no client-side clean-up of ``..`` or escapes)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        answer = connection.getresponse()
        return answer.status, answer.getheader("content-type") or "", answer.read()
    finally:
        connection.close()


def test_every_game_ships_a_board_module_and_an_icon_in_its_package() -> None:
    for game in entries():
        folder = game.web_dir()
        assert folder is not None and folder.is_dir(), game.name
        for part in BOARD_PARTS:
            path, _ = game_file(game.name, part)
            assert path == (folder / part).resolve()
            assert path.stat().st_size > 0


def test_a_game_without_a_help_module_lists_none() -> None:
    arctic = next(g for g in entries() if g.name == "arctic")
    assert game_info(arctic)["help"] == "/games/arctic/help.js"
    assert game_info(replace(arctic, web="floe.core:."))["help"] is None  # a folder without help.js


def test_the_lobby_names_each_games_board_and_the_server_serves_it(server: ServerProcess) -> None:
    for info in server.get("/api/games").json():
        assert info["board"] == f"/games/{info['name']}/board.js"
        status, kind, body = raw_get(server, info["board"])
        assert status == 200 and kind.startswith("text/javascript") and b"export" in body
        status, kind, _ = raw_get(server, info["icon"])
        assert status == 200 and kind == "image/svg+xml"
        # The rules help module: listed exactly when the game's web folder has one, and served.
        folder = next(g for g in entries() if g.name == info["name"]).web_dir()
        assert folder is not None
        assert (info["help"] is not None) == (folder / "help.js").is_file()
        if info["help"] is not None:
            assert info["help"] == f"/games/{info['name']}/help.js"
            status, kind, body = raw_get(server, info["help"])
            assert status == 200 and kind.startswith("text/javascript") and b"export const sections" in body
    # A board module's own imports and style sheets are served from the same folder.
    status, kind, _ = raw_get(server, "/games/arktia/arktia.css")
    assert status == 200 and kind.startswith("text/css")


@pytest.mark.parametrize(
    "path",
    [
        "/games/nosuchgame/board.js",  # an unknown game
        "/games/arctic/nosuchfile.js",
        "/games/arctic/",  # no listing of the folder
        "/games/arctic/../arktia/board.js",  # climbing out, as written and escaped
        "/games/arctic/..%2F..%2Fentry.py",
        "/games/arctic/%2e%2e/%2e%2e/entry.py",
        "/games/arctic/%2e%2e%2f%2e%2e%2fserver%2fapp.py",
        "/games/arctic/..%5C..%5Centry.py",  # a backslash separator
        "/games/arctic//etc/passwd",  # an absolute path after the folder
        "/games/arctic/%2Fetc%2Fpasswd",
        "/games/arctic/.hidden.js",
        "/games/arctic/board.js%00.svg",
        "/games/arctic/" + "a/" * 10 + "board.js",  # too deep
        "/games/arctic/" + "x" * 300 + ".js",  # too long
    ],
)
def test_nothing_outside_a_games_web_folder_is_served(server: ServerProcess, path: str) -> None:
    status, _, body = raw_get(server, path)
    assert status == 404, (path, body[:200])
    assert b"import" not in body and b"root:" not in body


def test_only_files_of_a_known_kind_inside_the_folder() -> None:
    # Python and data files are never served, even when they are inside the web folder's package.
    for path in ("../entry.py", "../__init__.py", "board.py", "cards.csv", "", "a//b.js"):
        with pytest.raises(Refusal) as refused:
            game_file("arctic", path)
        assert refused.value.status == 404


def test_a_link_out_of_the_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "board.js").write_text("export const css = [];\n")
    (tmp_path / "secret.js").write_text("the server's secrets\n")
    (web / "out.js").symlink_to(tmp_path / "secret.js")
    (web / "parts").mkdir()
    (web / "parts" / "in.js").symlink_to(web / "board.js")  # a link that stays inside is fine
    monkeypatch.setattr(gamefiles, "web_root", lambda game: web.resolve())
    assert game_file("mygame", "board.js")[0] == (web / "board.js").resolve()
    assert game_file("mygame", "parts/in.js")[0] == (web / "board.js").resolve()
    with pytest.raises(Refusal):
        game_file("mygame", "out.js")

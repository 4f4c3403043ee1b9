"""Issue 11, item 10: names. Bidi controls, NUL and texts such as ``P2 (you)`` were accepted as names
(``\\u202eevil\\u202c P2 (you)`` rendered as "P1 live P2 (you)").

Names are cleaned wherever they enter (the seats of a new table, a person's and a bot's; a lobby join) and
refused if they would pass for the table's own labels; the pages render names as text only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import floe

from .serverproc import ServerProcess, running_server

BOT = {"kind": "bot", "bot": "random"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for this module's tests (each test makes its own tables: the creation limits are off)."""
    extra = ["--set", "create_per_minute=0", "--set", "open_tables_per_client=0"]
    with running_server(tmp_path_factory.mktemp("names"), extra=extra) as srv:
        yield srv


def names(server: ServerProcess, table: str) -> list[str]:
    return [s["name"] for s in server.get(f"/api/tables/{table}").json()["seats"]]


def test_names_are_cleaned_wherever_they_enter(server: ServerProcess) -> None:
    created = server.create(
        [
            {"kind": "person", "name": "  Ann\u202e  \u200f"},
            {"kind": "person", "name": "B\u0000o\u0007b\ue000"},
            {"kind": "person", "name": "e\u0301va\u2028\u2028Mar\ufeffie"},
            {**BOT, "name": "\u2067Robo\u2069\u00ad"},
        ]
    )
    table = created["table"]["id"]
    assert names(server, table)[:4] == ["Ann", "Bob", "\u00e9va Marie", "Robo"]
    joined = server.post(f"/api/tables/{table}/join", {"name": "\u0301 Cy\u200b\tDi  "})
    assert joined.status_code == 200, joined.text
    # A combining mark first would draw on the label before it; zero-width and tab characters go.
    assert names(server, table) == ["Ann", "Cy Di", "\u00e9va Marie", "Robo"]
    # Joiners stay where a script or an emoji needs them, between two characters.
    other = server.create([{"kind": "person", "name": "\u200dمی\u200cخواهم\u200d"}, BOT])
    assert names(server, other["table"]["id"])[0] == "می\u200cخواهم"


@pytest.mark.parametrize(
    "name",
    [
        "\u202eevil\u202c P2 (you)",  # the name
        "P1",
        "p3 Ann",
        "Ann (you)",
        "\uff30\uff12",  # fullwidth P2
        "P\u200b1",  # a zero-width space inside
        "Bot Bob",
        "Away",
        "spectator",
        "seat free",
        "\u202e\u202c",  # nothing visible
        "\u3164\u2800",  # fillers that draw nothing
        "\U0001d538" * 40,  # 40 characters, 160 bytes
    ],
)
def test_names_that_pass_for_labels_or_show_nothing_are_refused(server: ServerProcess, name: str) -> None:
    tables = len(server.get("/api/tables").json())
    made = server.post("/api/tables", {"seats": [{"kind": "person", "name": name}, BOT]})
    assert made.status_code == 400, made.text
    error = made.json()["error"]
    assert error["code"] == "bad_name" and error["message"].startswith("seat 1: ")
    assert error["message"].isprintable()  # the name is not echoed: at most the label it imitates
    assert len(server.get("/api/tables").json()) == tables  # nothing was created
    free = server.create([{"kind": "person", "name": "Ann"}, {"kind": "person"}])
    table = free["table"]["id"]
    joined = server.post(f"/api/tables/{table}/join", {"name": name})
    assert joined.status_code == 400 and joined.json()["error"]["code"] == "bad_name", joined.text
    assert server.get(f"/api/tables/{table}").json()["seats"][1]["claimed"] is False  # the seat is still free


@pytest.mark.parametrize(
    "name", ["Pia", "Robot", "Youssef", "P1a", "Ann-Marie O'Neil", "\U0001f43b\u200d\u2744\ufe0f"]
)
def test_ordinary_names_are_kept(server: ServerProcess, name: str) -> None:
    made = server.create([{"kind": "person", "name": name}, BOT])
    assert names(server, made["table"]["id"])[0] == name


def test_the_pages_render_names_as_text_only() -> None:
    # Every element is built by dom.js's h(), whose strings become text nodes; nothing parses HTML.
    root = Path(floe.__file__).parent
    scripts = [*(root / "web").rglob("*.js"), *(root / "games").rglob("*.js")]
    assert len(scripts) > 5
    html_sinks = re.compile(
        r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment"
    )
    # One sink is allowed, in one place: the rules help panel parses each game's help module's own static
    # sections (shipped with the game, never built from a state, a name or a message).
    allowed = {("help.js", "if (section.html) content.innerHTML = section.html;")}
    offenders = [
        f"{p}: {line.strip()}"
        for p in scripts
        for line in p.read_text().splitlines()
        if html_sinks.search(line) and (p.name, line.split("//")[0].strip()) not in allowed
    ]
    assert not offenders, offenders
    dom = (root / "web" / "js" / "dom.js").read_text()
    assert "document.createTextNode(String(child))" in dom

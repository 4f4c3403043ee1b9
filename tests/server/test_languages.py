"""Each reader of a table reads its own language: the log, the decision and the choices a connection
receives are rendered in the language its hello asks for (else its Accept-Language), never stored
translated: the record is the same whoever asks. The browser's catalogs are served as JSON.

A real ``floe serve`` process (serverproc.py) and WebSocket clients (wsclient.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from .serverproc import ServerProcess
from .wsclient import WsClient

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def _finished(server: ServerProcess) -> str:
    """A two-bot Arctic table, played to its end (bots play at once)."""
    table_id: str = server.create(BOTS, game="arctic")["table"]["id"]
    for _ in range(600):
        if server.get(f"/api/tables/{table_id}").json()["status"] == "finished":
            return table_id
        asyncio.run(asyncio.sleep(0.05))
    raise AssertionError("the bots did not finish the game")


async def _log(server: ServerProcess, table_id: str, lang: str | None) -> list[str]:
    client = WsClient(server.ws_url, table_id, name=f"spectator-{lang}", lang=lang)
    await client.connect()
    try:
        state: dict[str, Any] = await client.until(
            lambda: client.state if client.state["status"] == "finished" else None
        )
        return [line["text"] for line in state["log"]]
    finally:
        await client.close()


def test_each_connection_reads_the_log_in_its_own_language(server: ServerProcess) -> None:
    table_id = _finished(server)
    record = server.get(f"/api/tables/{table_id}/record").json()

    async def all_three() -> tuple[list[str], ...]:
        return await asyncio.gather(*(_log(server, table_id, lang) for lang in ("en", "de", "pl", "xx")))

    en, de, pl, unknown = asyncio.run(all_three())
    assert len(en) == len(de) == len(pl) > 10
    assert any("places" in line for line in en) and not any("places" in line for line in de + pl)
    assert any(" legt " in line for line in de)
    assert any(" kładzie " in line for line in pl)
    assert unknown == en  # a language Floe does not speak reads English
    # Nothing stored changed: the record is language-neutral and the same afterwards.
    assert server.get(f"/api/tables/{table_id}/record").json() == record


def test_plain_requests_follow_accept_language_and_lang(server: ServerProcess) -> None:
    table_id = _finished(server)
    url = f"{server.url}/api/tables/{table_id}/state"
    german = httpx.get(url, headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}, timeout=30).json()
    forced = httpx.get(url + "?lang=it", headers={"Accept-Language": "de"}, timeout=30).json()
    english = httpx.get(url, timeout=30).json()
    assert german["deciding"] == "die Partie ist beendet"
    assert forced["deciding"] == "la partita è finita"
    assert english["deciding"] == "the game is over"
    assert german["view"] == english["view"] == forced["view"]  # the observation has no words
    replay = server.get(f"/api/tables/{table_id}/replay?lang=pl").json()
    lines = [line for frame in replay["frames"] for line in frame["log"]]
    assert any(" kładzie " in line for line in lines)


def test_the_catalogs_are_served_as_json(server: ServerProcess) -> None:
    pl = server.get("/api/i18n/pl?domain=arctic")
    assert pl.status_code == 200
    data = pl.json()
    assert data["plural"] == ["one", "few", "many"]
    assert data["messages"]["card"] == ["karta", "karty", "kart"]
    assert server.get("/api/i18n/de").json()["messages"]["Your turn."] == "Du bist dran."
    assert [lang["code"] for lang in server.get("/api/i18n").json()] == ["en", "de", "it", "pl"]
    for bad in ("/api/i18n/fr", "/api/i18n/de?domain=nope", "/api/i18n/de?domain=" + "x" * 5000):
        answer = server.get(bad)
        assert answer.status_code == 404, bad
        assert answer.json()["error"]["code"] == "not_found"


def test_a_hello_with_a_language_too_long_is_refused(server: ServerProcess) -> None:
    table_id = _finished(server)

    async def hello() -> dict[str, Any]:
        client = WsClient(server.ws_url, table_id, name="long-lang")
        await client.connect(hello=False)
        try:
            await client.send({"type": "hello", "token": None, "lang": "de" * 20})
            return await client.next_message(lambda m: m["type"] == "error")
        finally:
            await client.close()

    error = asyncio.run(hello())
    assert error["code"] == "malformed"


def test_refusals_are_written_in_the_readers_language(server: ServerProcess) -> None:
    """A refusal with details (an option's bounds, a chat line's limit, the body limit) reads in the
    requester's language: ``?lang=``, else Accept-Language (an odd one: English), else English; over the
    WebSocket, in its hello's language. English is the text it always was."""
    url = f"{server.url}/api/tables"
    people = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    bad = {"game": "arche", "seats": [*people, people[1]], "options": {"start_chips": 9}}

    def refusal(headers: dict[str, str], query: str = "", body: Any = bad) -> dict[str, str]:
        answer = httpx.post(url + query, json=body, headers=headers, timeout=30)
        assert answer.status_code in (400, 413), answer.text
        error: dict[str, str] = answer.json()["error"]
        return error

    english = "start_chips must be between 1 and 4, not 9"
    assert refusal({})["message"] == english
    assert refusal({"Accept-Language": "xx-YY, *;q=0.5, de;q=abc"})["message"] == english
    polish = refusal({"Accept-Language": "pl-PL,pl;q=0.9"})
    assert polish == {"code": "bad_option", "message": "start_chips musi być między 1 a 4, nie 9"}
    forced = refusal({"Accept-Language": "pl"}, "?lang=de")["message"]
    assert forced == "start_chips muss zwischen 1 und 4 liegen, nicht 9"
    # The body limit answers before the app: the same choice of language.
    huge = {"seats": people, "padding": "x" * (300 * 1024)}
    assert refusal({"Accept-Language": "de"}, body=huge)["message"] == "Anfragen haben höchstens 262144 Bytes"

    created = server.create(people, game="arctic")
    table, token = created["table"]["id"], created["seats"][0]["token"]

    async def too_long(lang: str) -> dict[str, Any] | None:
        client = WsClient(server.ws_url, table, token, name=f"ann-{lang}", lang=lang)
        await client.connect()
        try:
            return await client.roundtrip(json.dumps({"type": "chat", "text": "x" * 301}))
        finally:
            await client.close()

    german, english_ws = asyncio.run(too_long("de")), asyncio.run(too_long("en"))
    assert german is not None and english_ws is not None
    assert german["message"] == "eine Chat-Nachricht hat höchstens 300 Zeichen"
    assert english_ws["message"] == "a chat message is at most 300 characters"

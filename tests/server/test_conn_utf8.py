"""Issue 11, item 11 (the WebSocket half): a text frame that is not UTF-8 logged a traceback per connection.

Now it is one line in the server's log, and the connection is closed with 1007 (invalid frame payload
data); the server goes on serving everyone else.
"""

from __future__ import annotations

import asyncio
import json
import time

from .connkit import RawClient
from .serverproc import ServerProcess
from .wsclient import WsClient


def test_invalid_utf8_text_frames_log_one_line_each_and_close_with_1007(server: ServerProcess) -> None:
    created = server.create([{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}])
    table, token = created["table"]["id"], created["seats"][0]["token"]
    bad = [
        b'{"type": "hello\xff"}',
        b'{"type": "ping", "x": "\xc3\x28"}',
        b"\xed\xa0\x80",
    ]  # last: a surrogate
    for k, frame in enumerate(bad):
        client = RawClient(server.port, f"/ws/tables/{table}")
        if k:  # the first before its hello, the others after one (a seat's, a spectator's)
            client.hello(token if k == 1 else None)
        client.send_text(frame)
        assert client.close_code() == 1007
        client.close()

    async def still_serving() -> None:
        good = WsClient(server.ws_url, table, token)
        await good.connect()
        assert await good.roundtrip(json.dumps({"type": "ping"})) is None
        await good.close()

    asyncio.run(still_serving())

    def utf8_lines() -> list[str]:
        return [line for line in server.log_path.read_text(errors="replace").splitlines() if "UTF-8" in line]

    # Wait for the lines themselves (60 s bounds a hang); a line more written later could only be missed on
    # a slow machine (a pass it should not be), never make this fail wrongly.
    end = time.monotonic() + 60
    while len(utf8_lines()) < len(bad):
        assert time.monotonic() < end, server.log_path.read_text(errors="replace")[-3000:]
        time.sleep(0.05)
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert len(utf8_lines()) == len(bad), log[-3000:]

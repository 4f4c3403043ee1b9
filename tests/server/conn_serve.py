"""The web table with chosen ``Settings``, for the connection tests: ``python conn_serve.py PORT DIR JSON``.

The same server as ``floe serve`` (the same app, uvicorn options and claim of the data directory), but any
setting can be given, as JSON, whether or not the command line has an option for it. Settings this version
of the server does not know are left out, so a test can run against an older server to show the hole.
"""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

import uvicorn

from floe.server.app import Settings, create_app


def main() -> None:
    port, data_dir, wanted = int(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
    known = inspect.signature(Settings).parameters
    settings = Settings(data_dir=data_dir, **{k: v for k, v in wanted.items() if k in known})
    uvicorn.run(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=65536,
        ws_per_message_deflate=False,
    )


if __name__ == "__main__":
    main()

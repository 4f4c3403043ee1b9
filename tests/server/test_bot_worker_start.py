"""A bot worker whose server stops while the worker is still starting (its imports) ends quietly: no
traceback on the server's stderr (issue 13, item 3)."""

from __future__ import annotations

import subprocess
import sys


def test_a_worker_whose_server_is_gone_before_it_is_ready_leaves_without_a_traceback() -> None:
    # The server's end of the pipe is closed before the worker says it is ready (a stop during start-up).
    script = (
        "from multiprocessing import Pipe\n"
        "from floe.server.botworkers import _serve\n"
        "server, worker = Pipe()\n"
        "server.close()\n"
        "_serve(worker, ())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")

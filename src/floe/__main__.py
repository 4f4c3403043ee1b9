"""``python -m floe``: the same as the ``floe`` command."""

from floe.cli import main

main()

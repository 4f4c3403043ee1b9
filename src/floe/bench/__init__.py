"""``floe bench``: the benchmarks, one module per sub-command (``engine`` for engine and search speed,
``lab``, ``server``, ``abuse`` with its ``attacks`` and ``normal`` tables, ``startup``) and the instruments
they share (``probe``). Not part of the production server: they drive a real ``floe serve`` from outside."""

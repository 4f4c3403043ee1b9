"""Per-game tests: a package, so its helpers are imported relatively (``from .positions import ...``)."""

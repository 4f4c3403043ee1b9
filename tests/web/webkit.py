"""Helpers the browser tests and their fixtures share."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def get_json(url: str, token: str | None = None) -> Any:
    """GET a JSON answer (with the seat token as bearer, if given)."""
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)

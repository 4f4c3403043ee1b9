"""The README's screenshots: the lobby, a table in mid-game and the score screen of every game, at 1366×900.

    .venv/bin/python scripts/screenshots.py       # writes docs/images/<game>-{lobby,table,score}.png
    .venv/bin/python scripts/screenshots.py --out /tmp/shots --games arche
    .venv/bin/python scripts/screenshots.py --games arctic --langs de it pl   # <game>-table-<lang>.png only
    .venv/bin/python scripts/screenshots.py --games arktia arche --vision deuteranopia achromatopsia
        # <game>-table-<vision>.png only: every seat's colour on the board, seen through Chromium's emulated
        # colour-vision deficiency (docs/accessibility.md, "Colour")

The same setup as the browser tests (tests/web: a real `floe serve` seeded by FLOE_TEST_SEED, Debian's
Chromium through Playwright), so the pictures are the same on every run; a person seat clicks seeded random
highlighted things against bots. The PNGs are reduced to a 256-colour palette to keep the repository small.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from web.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402
from web.tabledriver import new_page, play  # noqa: E402

VIEWPORT = {"width": 1366, "height": 900}

# Per game: the seats (seat 0 is the person), options, and how many clicks into the game the table is shown.
GAMES: dict[str, dict[str, Any]] = {
    "arctic": {"bots": ["baseline", "random", "greedy"], "options": {}, "mid": 24},
    "arktia": {"bots": ["random", "random"], "options": {"max_turns": 40}, "mid": 30},
    "arche": {"bots": ["greedy", "random", "random"], "options": {}, "mid": 30},
}


def create_table(base: str, game: str, bots: list[str], options: dict[str, Any]) -> str:
    """A table with a person (Ann) in seat 0 and ``bots``; returns the person's seat link."""
    seats = [{"kind": "person", "name": "Ann"}, *({"kind": "bot", "bot": b} for b in bots)]
    body = json.dumps({"game": game, "seats": seats, "options": options}).encode()
    request = urllib.request.Request(
        f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        made = json.load(answer)
    return f"{base}{made['seats'][0]['link']}"


def shoot(page: Any, path: Path) -> None:
    """A viewport screenshot, reduced to a palette. The pace menu shows the default pace (the page plays at
    pace 0 so the script is quick; the picture shows what a person's page shows)."""
    page.evaluate("() => { const s = document.getElementById('pace'); if (s) s.value = '0.7'; }")
    page.screenshot(path=str(path))
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def game_shots(browser: Any, base: str, game: str, out: Path) -> list[Path]:
    """The three pictures of ``game``."""
    spec = GAMES[game]
    page = new_page(browser, VIEWPORT)
    page.set_default_timeout(20_000)
    page.goto(f"{base}/?game={game}")
    page.wait_for_selector("[data-testid=seat-kind-1]")
    page.select_option("[data-testid=seat-count]", str(1 + len(spec["bots"])))
    page.fill("[data-testid=seat-name-0]", "Ann")
    for k, bot in enumerate(spec["bots"], start=1):
        page.select_option(f"[data-testid=seat-kind-{k}]", "bot")
        page.select_option(f"[data-testid=seat-bot-{k}]", bot)
    paths = [out / f"{game}-lobby.png", out / f"{game}-table.png", out / f"{game}-score.png"]
    shoot(page, paths[0])
    page.goto(create_table(base, game, spec["bots"], spec["options"]))
    page.wait_for_selector("[data-testid=status]")
    rng = random.Random(20261124)
    play(page, rng, until=lambda clicks: clicks >= spec["mid"])
    page.mouse.move(0, 0)  # no hover effect in the picture
    shoot(page, paths[1])
    play(page, rng)
    page.wait_for_selector("[data-testid=score-screen]")
    page.evaluate("() => window.scrollTo(0, 0)")  # the score screen is right under the prompt
    shoot(page, paths[2])
    page.close()
    return paths


def language_shot(browser: Any, base: str, game: str, lang: str, out: Path) -> Path:
    """The table of ``game`` in mid-game, the page in ``lang`` (the language remembered in the browser, as
    the header's picker leaves it)."""
    spec = GAMES[game]
    page = new_page(browser, VIEWPORT)
    page.add_init_script(f"localStorage.setItem('floe.lang', '{lang}')")
    page.set_default_timeout(20_000)
    page.goto(create_table(base, game, spec["bots"], spec["options"]))
    page.wait_for_selector("[data-testid=status]")
    play(page, random.Random(20261124), until=lambda clicks: clicks >= spec["mid"])
    page.mouse.move(0, 0)
    path = out / f"{game}-table-{lang}.png"
    shoot(page, path)
    page.close()
    return path


# The vision pictures seat as many players as the game's colours go (every seat's colour on the board),
# and are taken this many clicks into the game.
VISION_BOTS = {
    "arctic": ["random", "random", "random"],
    "arktia": ["random", "random", "random"],
    "arche": ["greedy", "random", "random", "random"],
}
VISION_MID = {"arctic": 16, "arktia": 14, "arche": 6}
# Chromium's emulated colour-vision deficiencies (CDP Emulation.setEmulatedVisionDeficiency).
VISIONS = ["deuteranopia", "protanopia", "tritanopia", "achromatopsia", "blurredVision"]


def vision_shots(browser: Any, base: str, game: str, visions: list[str], out: Path) -> list[Path]:
    """The table of ``game`` in mid-game with every seat's colour, once per emulated vision in ``visions``."""
    spec = GAMES[game]
    page = new_page(browser, VIEWPORT)
    page.set_default_timeout(20_000)
    page.goto(create_table(base, game, VISION_BOTS[game], spec["options"]))
    page.wait_for_selector("[data-testid=status]")
    play(page, random.Random(20261127), until=lambda clicks: clicks >= VISION_MID[game])
    page.mouse.move(0, 0)
    cdp = page.context.new_cdp_session(page)
    paths = []
    for vision in visions:
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": vision})
        path = out / f"{game}-table-{vision}.png"
        shoot(page, path)
        paths.append(path)
    cdp.detach()
    page.close()
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="where the PNGs go")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument(
        "--langs",
        nargs="*",
        default=[],
        choices=["de", "it", "pl"],
        help="only the table, in these languages",
    )
    parser.add_argument(
        "--vision",
        nargs="*",
        default=[],
        choices=VISIONS,
        help="only the table, seen with these emulated colour-vision deficiencies",
    )
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, sync_playwright() as p:
        server = Server(Path(data))
        server.start()
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for game in args.games:
                if args.vision:
                    paths = vision_shots(browser, server.base, game, args.vision, args.out)
                elif args.langs:
                    paths = [language_shot(browser, server.base, game, lang, args.out) for lang in args.langs]
                else:
                    paths = game_shots(browser, server.base, game, args.out)
                for path in paths:
                    print(f"{path} {path.stat().st_size // 1024} KiB")
        finally:
            browser.close()
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

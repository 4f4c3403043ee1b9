"""The games this server has (``/api/games``) and the languages it speaks (``/api/i18n``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from floe.bots.labels import bot_label, lobby_bots
from floe.bots.registry import bot_names
from floe.core import i18n
from floe.core.entry import GameEntry
from floe.core.registry import entries
from floe.server.languages import catalog_json, languages_json

router = APIRouter()


def _english_labels(game: GameEntry, specs: list[str]) -> dict[str, str]:
    """The bots' labels in English, whatever reader is served: the page translates them (``botWords``)."""
    with i18n.using("en"):
        return {spec: bot_label(game, spec) for spec in specs}


def game_info(game: GameEntry) -> dict[str, Any]:
    """A game for the lobby: its entry's facts and option schema, the bots this server has for it (the
    entry's suggestions, weakest first by measured strength, with the name people see for each; then every
    bot name), where its board module and icon are served (``/games/<name>/…``, from the folder the entry
    names), and its rules help module if its web folder has one (``help.js``: the "How to play" panel and the
    terms of its prompts)."""
    names = bot_names(game.name)
    suggested = lobby_bots(game, set(names))
    web = game.web_dir()
    return {
        **game.info(),
        "bots": suggested,
        "bot_labels": _english_labels(game, suggested),
        # The bot a new seat of the lobby's form starts with: the game's default opponent if suggested.
        "default_bot": game.default_bot if game.default_bot in suggested else None,
        "bot_names": names,
        "board": f"/games/{game.name}/board.js" if game.web else None,
        "icon": f"/games/{game.name}/icon.svg" if game.web else None,
        "help": f"/games/{game.name}/help.js" if web is not None and (web / "help.js").is_file() else None,
    }


@router.get("/api/i18n")
async def languages() -> list[dict[str, str]]:
    return languages_json()


@router.get("/api/i18n/{lang}")
async def messages(lang: str, domain: str = "floe") -> JSONResponse:
    # The catalogs change only with the code: the browser may keep them for a while.
    return JSONResponse(catalog_json(lang, domain), headers={"Cache-Control": "max-age=300"})


@router.get("/api/games")
async def games() -> list[dict[str, Any]]:
    return [game_info(e) for e in entries()]

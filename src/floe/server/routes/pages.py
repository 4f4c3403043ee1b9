"""The browser's pages, the client's static files and each game's board files."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from floe.server.gamefiles import game_file

WEB = Path(str(files("floe") / "web"))

router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(WEB / "index.html")


@router.get("/table/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(WEB / "table.html")


@router.get("/replay/{table_id}")
async def replay_page(table_id: str) -> FileResponse:
    return FileResponse(WEB / "replay.html")


games_router = APIRouter(include_in_schema=False)


@games_router.get("/games/{game}/{path:path}")
async def game_files(game: str, path: str) -> FileResponse:
    # A game's board module and its files, from the folder its entry names (gamefiles.py).
    target, media = game_file(game, path)
    headers = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    return FileResponse(target, media_type=media, headers=headers)


def serve_pages(app: FastAPI) -> None:
    """Serve the pages, ``/static`` (the client's files) and ``/games/…`` on ``app``, in that order."""
    app.include_router(router)
    if WEB.is_dir():
        app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.include_router(games_router)

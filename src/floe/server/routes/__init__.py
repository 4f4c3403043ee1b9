"""The HTTP routes of the server, one ``APIRouter`` module per concern (``app.create_app`` includes them):
``pages`` (the browser's pages and files), ``games`` (games and languages), ``tables`` (creating, joining
and playing tables), ``replays`` (replays and records). The WebSocket session is ``floe.server.session``."""

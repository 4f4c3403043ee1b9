"""The web table: a FastAPI server that stores every table as its record and shows each seat its view."""

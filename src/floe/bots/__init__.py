"""Bots: programs that play a seat from its observation alone."""

from floe.bots.base import Bot, RandomBot
from floe.bots.registry import bot_names, make_bot, register_bot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register_bot"]

"""Floe: a digital table for tabletop games."""

__version__ = "0.1.0"

"""Arktia's rules, records, golden games and conformance."""

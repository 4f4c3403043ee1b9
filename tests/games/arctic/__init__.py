"""Arctic's rules, records, golden games and conformance."""

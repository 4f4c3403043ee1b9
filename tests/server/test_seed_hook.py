"""The ``FLOE_TEST_SEED`` test hook (docs/testing.md): a server started with it seeds its new tables from a
generator seeded with its value, so a test's tables deal the same way on every run; without it every seed is
a fresh secret."""

from __future__ import annotations

import pytest

from floe.server.manager import TEST_SEED_ENV, build_table, seeds_for_tests
from floe.server.protocol import CreateTable, SeatRequest

PEOPLE = CreateTable(game="arctic", seats=[SeatRequest(kind="person"), SeatRequest(kind="person")])


def no_bots(spec: str | None, game: object, seat: int) -> tuple[str, str | None]:
    raise AssertionError("person seats only")


def test_the_same_value_gives_the_same_seeds_in_the_same_order() -> None:
    first, again, other = (seeds_for_tests({TEST_SEED_ENV: value}) for value in ("7", "7", "8"))
    assert first is not None and again is not None and other is not None
    drawn = [first() for _ in range(3)]
    assert drawn == [again() for _ in range(3)]
    assert len(set(drawn)) == 3  # one table's seed is not the next one's
    assert [other() for _ in range(3)] != drawn
    assert all(0 <= seed < 2**62 for seed in drawn)


def test_without_the_variable_there_is_no_hook_and_a_bad_value_is_refused() -> None:
    assert seeds_for_tests({}) is None
    with pytest.raises(ValueError, match="FLOE_TEST_SEED must be a whole number"):
        seeds_for_tests({TEST_SEED_ENV: "-1; drop"})


def test_a_table_built_with_a_seed_deals_by_it_and_one_without_gets_a_fresh_secret() -> None:
    seeded = [build_table(PEOPLE, no_bots, 12345)[0].row for _ in range(2)]
    assert [row.seed for row in seeded] == [12345, 12345]
    assert seeded[0].actions == seeded[1].actions  # the setup's chance outcomes: the same deal
    fresh = [build_table(PEOPLE, no_bots)[0].row for _ in range(2)]
    assert fresh[0].seed != fresh[1].seed and fresh[0].actions != fresh[1].actions

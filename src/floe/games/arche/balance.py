"""Arche Opti Mix's balance facts for ``floe balance``: turn order, starting chips, scoring cards won.

Per seat: its place in the turn order (1 = the first player), the action chips it started with (the same
for everyone unless ``seat_chips=later_plus_one`` gives the later seats one more), and the scoring cards it
won (first place on that card's majority, shared first places included; ``none`` for no card). Per game:
the turns played.
"""

from __future__ import annotations

from floe.core.balance import BalanceSpec, GameFacts, SeatFact
from floe.core.game import Game, State
from floe.games.arche.cards import CATEGORIES, N_SCORING
from floe.games.arche.game import ArcheState


def starting_chips(final: ArcheState, seat: int) -> int:
    """The action chips ``seat`` was dealt at the start (docs/arche-rules.md §4.3)."""
    options = final.config.options
    later = options["seat_chips"] == "later_plus_one" and seat != final.first_player
    return int(options["start_chips"]) + (1 if later else 0)


def facts(game: Game, final: State) -> GameFacts:
    """Arche's balance facts of the finished game ``final`` (see the module docstring)."""
    assert isinstance(final, ArcheState)
    n = final.players
    breakdowns = final.breakdowns()
    best = [max(b.strengths[k] for b in breakdowns) for k in range(N_SCORING)]
    seats: list[dict[str, SeatFact]] = []
    for q, b in enumerate(breakdowns):
        won = [CATEGORIES[k] for k in range(N_SCORING) if b.strengths[k] > 0 and b.strengths[k] == best[k]]
        seats.append(
            {
                "turn_order": (q - final.first_player) % n + 1,
                "starting_chips": starting_chips(final, q),
                "scoring_cards_won": won or ["none"],
            }
        )
    return GameFacts(seats=seats, game={"turns": final.turn})


LABELS = {
    "turn_order": "place in turn order",
    "starting_chips": "starting chips",
    "scoring_cards_won": "scoring card won (first place)",
    "turns": "turns",
}

BALANCE = BalanceSpec(facts=facts, labels=LABELS)

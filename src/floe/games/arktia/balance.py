"""Arktia's balance facts for ``floe balance`` (``floe.core.balance``): seats on a layout, how games end.

Each seat plays its own colour (P1's Muglus are P1's colour), so the generic "seat" figure is also the
figure by colour. Per seat: its place in the turn order (1 moves first), the seat on the layout
(``placeholder-27 · P2``: the seat figures of one layout, comparable across runs on other layouts) and
why its game ended (docs/arktia-rules.md §10: (a)
cannot act, (b) cannot melt, (c) one Muglu left, (d) stopped, or the turn limit). Per game: the layout,
the end conditions that ended it (the distinct reasons of its seats, joined by ``+``), whether the turn
limit was reached, and the turns played.
"""

from __future__ import annotations

from floe.core.balance import BalanceSpec, GameFacts, SeatFact
from floe.core.game import Game, State
from floe.games.arktia.game import ArktiaState
from floe.games.arktia.state import OUT_LIMIT, OUT_NAMES


def facts(game: Game, final: State) -> GameFacts:
    """Arktia's balance facts of the finished game ``final`` (see the module docstring)."""
    assert isinstance(final, ArktiaState)
    layout = final.config.layout.name
    seats: list[dict[str, SeatFact]] = [
        {
            "turn_order": (q - final.config.first_player) % final.n + 1,
            "seat_on_layout": f"{layout} · P{q + 1}",
            "ended_by": OUT_NAMES[final.out[q]],
        }
        for q in range(final.n)
    ]
    reasons = sorted({OUT_NAMES[reason] for reason in final.out})
    return GameFacts(
        seats=seats,
        game={
            "layout": layout,
            "end_condition": " + ".join(reasons),
            "turn_limit": OUT_LIMIT in final.out,
            "turns": final.turn,
        },
    )


LABELS = {
    "turn_order": "place in turn order",
    "seat_on_layout": "seat on the layout",
    "ended_by": "how the seat's game ended",
    "layout": "layout",
    "end_condition": "end conditions of the game",
    "turn_limit": "turn limit reached",
    "turns": "turns",
}

BALANCE = BalanceSpec(facts=facts, labels=LABELS)

"""Arctic's balance facts for ``floe balance`` (``floe.core.balance``): powers held, totems, turn order.

Per seat: its place in the turn order (1 = the first player), its totem animal and the value its token
ended on, the power cards it held at the end (by side: ``fox-under``…, ``none`` for no card), and the same
power cards paired with its place in the turn order, and whether it triggered the end (its draw emptied
the main deck). Per game: the rounds played and, for each of the
twelve power sides, how often it was used in the game (None when that side was not in play).

A power's uses are read from the action history, replayed once: most powers are their own actions (Fox
``under``/``facedown``, Walrus ``extra``, Orca ``deck``, Puffin ``swap``/``take-back``, Bear ``penalty``/
``give``); the Moose is a placement or a draw beyond, or a stop short of, the card's number; the Orca's
refill side counts each river card its holder takes while the river refills behind it.
"""

from __future__ import annotations

from floe.core.balance import BalanceSpec, GameFacts, SeatFact
from floe.core.game import Game, State
from floe.games.arctic import actions as act
from floe.games.arctic.cards import ANIMALS, LANDSCAPE, N_ANIMALS
from floe.games.arctic.game import ArcticState
from floe.games.arctic.powers import POWER_SLUGS, Power
from floe.games.arctic.rules import has_power
from floe.games.arctic.state import DRAW, PLACE, ArcticStateData

_PLACING = range(act.PLACE, act.SWAP)  # place, under, facedown: a card placed on the pile
_DRAWING = frozenset((act.DRAW_DECK, act.PENALTY_BLIND))


def _is_draw(action: int) -> bool:
    return action in _DRAWING or act.RIVER <= action < act.DISCARD  # river or own penalty zone


def powers_used(st: ArcticStateData, action: int) -> list[int]:
    """The powers (``Power`` ids) that player action ``action`` uses in position ``st``."""
    used: list[int] = []
    if action in (act.EXTRA_RIGHT, act.EXTRA_LEFT):
        used.append(st.powers[2])  # the Walrus card's side in play
    elif action == act.TAKE_BACK:
        used.append(Power.PUFFIN_TAKE_BACK)
    elif action == act.DRAW_DECK:
        used.append(Power.ORCA_DECK)
    elif action == act.PENALTY_BLIND or act.PENALTY <= action < act.DISCARD:
        used.append(Power.BEAR_DRAW_PENALTY)
    elif act.GIVE_BLIND <= action < act.LOOK or act.GIVE <= action < act.N_PLAYER_ACTIONS:
        used.append(Power.BEAR_GIVE)
    elif act.UNDER <= action < act.FACEDOWN:
        used.append(Power.FOX_UNDER)
    elif act.FACEDOWN <= action < act.SWAP:
        used.append(Power.FOX_FACEDOWN)
    elif act.SWAP <= action < act.RIVER:
        used.append(Power.PUFFIN_SWAP)
    if st.step == PLACE and st.place_min != st.place_max:  # the Moose's placement side gives a range
        stop_short = action == act.STOP and st.placed < st.placement_value
        if stop_short or (action in _PLACING and st.placed >= st.placement_value):
            used.append(Power.MOOSE_PLACE)
    if st.step == DRAW and st.draw_min != st.draw_max:  # the Moose's drawing side: card's number ± 1
        number = st.draw_max - 1
        if (action == act.STOP and st.drawn < number) or (_is_draw(action) and st.drawn >= number):
            used.append(Power.MOOSE_DRAW)
    if st.step == DRAW and act.RIVER <= action < act.PENALTY and has_power(st, Power.ORCA_REFILL):
        used.append(Power.ORCA_REFILL)
    return used


def power_uses(game: Game, final: State) -> dict[int, int]:
    """How often each power was used in the game that ended in ``final`` (replaying its history)."""
    st = game.new_initial_state()
    assert isinstance(st, ArcticState)
    uses: dict[int, int] = {}
    for action in final.history:
        if not st.is_chance_node():
            for power in powers_used(st, action):
                uses[power] = uses.get(power, 0) + 1
        st.apply_unchecked(action)
    return uses


def facts(game: Game, final: State) -> GameFacts:
    """Arctic's balance facts of the finished game ``final`` (see the module docstring)."""
    assert isinstance(final, ArcticState)
    n = final.players
    seats: list[dict[str, SeatFact]] = []
    for q in range(n):
        order = (q - final.first_player) % n + 1
        held = [POWER_SLUGS[final.powers[a]] for a in range(N_ANIMALS) if final.holder[a] == q]
        seats.append(
            {
                "turn_order": order,
                "totem": ANIMALS[final.totems[q]],
                "totem_value": LANDSCAPE[final.tokens[final.totems[q]]],
                "powers_held": held or ["none"],
                "power_count": len(held),
                "powers_held_by_turn_order": [f"{slug} · turn {order}" for slug in held],
                "triggered_end": final.trigger_player == q,
            }
        )
    uses = power_uses(game, final)
    in_play = set(final.powers)
    per_power: dict[str, int | None] = {
        f"uses:{power.slug}": (uses.get(power, 0) if power in in_play else None) for power in Power
    }
    return GameFacts(seats=seats, game={"rounds": final.round, **per_power})


LABELS = {
    "turn_order": "place in turn order",
    "totem": "totem animal",
    "totem_value": "totem's final value",
    "powers_held": "power side held at the end",
    "power_count": "power cards held at the end",
    "powers_held_by_turn_order": "power side held at the end, by turn order",
    "triggered_end": "took the card that ended the main deck",
    "rounds": "rounds",
    **{f"uses:{power.slug}": f"uses of {power.slug} per game (when in play)" for power in Power},
}

BALANCE = BalanceSpec(facts=facts, labels=LABELS)

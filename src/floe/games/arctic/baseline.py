"""Arctic's ``baseline`` bot: Board Game Arena's automatic ("zombie") player, with its bugs fixed.

The heuristics are those of docs/arctic-rules.md §11, restated in our own code. The bot never uses an optional
power (no Puffin, no Fox placement, no Moose stop before the normal target, no Orca deck or Bear penalty
draws while a river card can be taken, never gives a penalty card). The "Baseline" fixes of §11
are applied:

- token moves are chosen among the legal ones (the preferred direction if legal, otherwise the other);
- a hand of 7 or more uses the h = 6 row of the last-card preference table;
- with Moose 22 the bot ends placement at the normal target P instead of stalling;
- draw rule 3 fires for a river animal seen at least twice (BGA's off-by-one made it three times);
- the "any card" fallbacks pick uniformly at random, as BGA intended;
- the Bear 62 gift is declined;
- wherever BGA picks at random, the bot picks with its own seeded generator.

Mapping onto our steps: PLACE is 11.1, MOVE and EXTRA (Walrus) are 11.2, DRAW is 11.3 (one draw per
call), DISCARD is 11.4 and GIVE is declined. Any other step gets a uniformly random legal action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from floe.bots.base import Bot
from floe.games.arctic import actions as act
from floe.games.arctic.actions import LEFT, RIGHT
from floe.games.arctic.cards import COMPANION, DRAW, LAST_POSITION, MAIN, WALRUS
from floe.games.arctic.observation import ArcticObservation
from floe.games.arctic.powers import Power
from floe.games.arctic.state import DISCARD, EXTRA, GIVE, MOVE, PLACE, visible_card
from floe.games.arctic.state import DRAW as STEP_DRAW

# The bot works on action ids (a set of ints), not decoded actions: it runs at every decision of a lab game.
# A token move's id by step and direction.
_MOVES = {
    MOVE: {RIGHT: act.MOVE_RIGHT, LEFT: act.MOVE_LEFT},
    EXTRA: {RIGHT: act.EXTRA_RIGHT, LEFT: act.EXTRA_LEFT},
}

# Last-card rule (docs/arctic-rules.md §11.1 step 3): for the hand size h (counting the card about to be
# placed), the draw
# values best first. A small hand wants a card that draws a lot now and asks for few cards next turn; a
# big hand the opposite. BGA has no row for h = 7 (it stalls); the baseline uses the h = 6 row for any
# h >= 6. BGA's row for h = 0 can never be used (the card being placed is in the hand), so it is left out.
LAST_CARD_PREFERENCE: dict[int, tuple[int, ...]] = {
    1: (4, 5, 3, 2, 1),
    2: (4, 3, 5, 2, 1),
    3: (3, 4, 2, 5, 1),
    4: (2, 3, 1, 4, 5),
    5: (2, 1, 3, 4, 5),
    6: (1, 2, 3, 4, 5),
}
MAX_PREFERENCE_ROW = 6


def preferred_main_direction(main: int, companion: int, tokens: Sequence[int], totem: int) -> int:
    """The direction (``RIGHT``/``LEFT``) the zombie wants for the main token (docs/arctic-rules.md §11.2,
    cases 1–3).

    ``tokens`` holds the positions 0..5 per animal and ``totem`` is the bot's own totem animal. Edges are
    only looked at as the rule itself does; whether the move is legal is decided by the caller.
    """
    m, c = tokens[main], tokens[companion]
    if totem == main:
        # Case 1: push our own animal forward, unless it already stands on 15.
        return LEFT if m == LAST_POSITION else RIGHT
    if totem == companion:
        # Case 2: moving the main token left sends the companion (our animal) right.
        if c != LAST_POSITION:
            return RIGHT if m == 0 else LEFT
        return LEFT if m == LAST_POSITION else RIGHT
    # Case 3: neither animal is ours, so push back whichever token is further ahead.
    if m >= c:
        return RIGHT if m == 0 else LEFT
    return LEFT if m == LAST_POSITION else RIGHT


def last_card_choice(candidates: Sequence[int], hand_size: int) -> int:
    """The candidate the last-card rule places as the new visible card (docs/arctic-rules.md §11.1 step 3,
    last card).

    The first draw value in the row for ``hand_size`` that some candidate has wins; among candidates with
    that draw value the earliest in ``candidates`` order is taken.
    """
    row = LAST_CARD_PREFERENCE[max(1, min(hand_size, MAX_PREFERENCE_ROW))]
    for draw_value in row:
        for card in candidates:
            if DRAW[card] == draw_value:
                return card
    return candidates[0]  # unreachable: the row lists every draw value 1..5


def river_animal_order(river: Sequence[int]) -> list[tuple[int, int]]:
    """The river's animals with their card counts, most frequent first, ties by first appearance."""
    counts: dict[int, int] = {}
    for card in river:
        counts[MAIN[card]] = counts.get(MAIN[card], 0) + 1
    # dicts keep insertion order and sorted() is stable, so ties stay in order of first appearance.
    return sorted(counts.items(), key=lambda item: -item[1])


class ArcticBaselineBot(Bot):
    """BGA's zombie player for Arctic with the baseline fixes of docs/arctic-rules.md §11."""

    name = "baseline"

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        return 1e-4  # measured: ~35 µs a decision, a few ms at worst (docs/server.md, "Bot lanes")

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        """Pick one of ``legal_actions`` by the zombie rule for the current step."""
        obs: ArcticObservation = observation
        legal = set(legal_actions)
        step = obs.scalars["step"]
        choice: int | None = None
        if step == PLACE:
            choice = self._place(obs, legal)
        elif step == MOVE:
            choice = self._move(obs, legal)
        elif step == EXTRA:
            choice = self._extra(obs, legal)
        elif step == STEP_DRAW:
            choice = self._draw(obs, legal)
        elif step == DISCARD:
            choice = self._discard(obs, legal)
        elif step == GIVE and act.PASS in legal:
            choice = act.PASS  # the Bear 62 gift is declined
        if choice is None or choice not in legal:
            # Steps the zombie never reaches (e.g. a Puffin swap) or a position no rule covers.
            return self.rng.choice(legal_actions)
        return choice

    # --- helpers ----------------------------------------------------------------------------------------
    def _own_seat(self, obs: ArcticObservation) -> int:
        return self.seat if obs.seat is None else obs.seat

    def _visible(self, obs: ArcticObservation) -> int:
        return visible_card(obs.piles[self._own_seat(obs)])

    def _totem(self, obs: ArcticObservation) -> int:
        return obs.totems[self._own_seat(obs)]

    # --- step A: placing (§11.1) -------------------------------------------------------------------------
    def _place(self, obs: ArcticObservation, legal: set[int]) -> int | None:
        placeable = _cards(obs.hand, act.PLACE, legal)
        if not placeable:
            # Only pre-placement powers (never used) or STOP are left.
            return act.STOP if act.STOP in legal else None
        placed, target = obs.scalars["placed"], obs.scalars["placement_value"]
        if placed >= target and act.STOP in legal:
            # Moose 22 lets one more card be placed; BGA's zombie stalls there, the baseline stops at P.
            return act.STOP
        # With no visible card P is 1 and nothing has been placed yet, so this is 1 as the rule wants.
        remaining = min(target - placed, len(obs.hand))
        top = self._visible(obs)
        if top >= 0:
            same = [c for c in placeable if MAIN[c] == MAIN[top]]
            if same:
                return act.PLACE + self._pick_placement(same, remaining, len(obs.hand))
        counts: dict[int, int] = {}
        for card in placeable:
            counts[MAIN[card]] = counts.get(MAIN[card], 0) + 1
        best = max(counts.values())
        # The first animal met in hand order that has the highest count wins a tie.
        animal = next(MAIN[c] for c in placeable if counts[MAIN[c]] == best)
        group = [c for c in placeable if MAIN[c] == animal]
        return act.PLACE + self._pick_placement(group, remaining, len(obs.hand))

    def _pick_placement(self, candidates: list[int], remaining: int, hand_size: int) -> int:
        if len(candidates) == 1:
            return candidates[0]
        if remaining > 1:
            # Not the last card of the turn: it gets covered, so any candidate does.
            return self.rng.choice(candidates)
        return last_card_choice(candidates, hand_size)

    # --- step B: moving tokens (§11.2) -------------------------------------------------------------------
    def _move(self, obs: ArcticObservation, legal: set[int]) -> int | None:
        top = self._visible(obs)
        if top < 0:
            return None
        direction = preferred_main_direction(MAIN[top], COMPANION[top], obs.tokens, self._totem(obs))
        return _legal_direction(MOVE, direction, legal)

    def _extra(self, obs: ArcticObservation, legal: set[int]) -> int | None:
        token = obs.scalars["walrus_token"]
        power = obs.powers[WALRUS]
        if power == Power.WALRUS_MAIN:
            top = self._visible(obs)
            if top < 0:
                return None
            # The same rule once more, from the positions after the base move.
            direction = preferred_main_direction(token, COMPANION[top], obs.tokens, self._totem(obs))
            move = _legal_direction(EXTRA, direction, legal)
            return act.PASS if move is None else move
        if power == Power.WALRUS_COMPANION:
            # BGA moves the wrong token here; the baseline helps the companion only if it is our animal.
            if token == self._totem(obs) and act.EXTRA_RIGHT in legal:
                return act.EXTRA_RIGHT
            return act.PASS
        return None

    # --- step C: drawing (§11.3) and discarding (§11.4) ---------------------------------------------------
    def _draw(self, obs: ArcticObservation, legal: set[int]) -> int | None:
        river = _cards(obs.river, act.RIVER, legal)
        if not river:
            # River empty: end the drawing (BGA stalls); deck or penalty draws only if nothing else is legal.
            return act.STOP if act.STOP in legal else None
        # Never STOP while a river card can be taken: with Moose 21 this draws N + 1.
        return act.RIVER + self._river_card(obs, river)

    def _river_card(self, obs: ArcticObservation, river: list[int]) -> int:
        top = self._visible(obs)
        if top >= 0:
            same = [c for c in river if MAIN[c] == MAIN[top]]
            if same:
                return self.rng.choice(same)  # rule 1
        order = river_animal_order(river)
        hand_animals = {MAIN[c] for c in obs.hand}
        for animal, _count in order:
            if animal in hand_animals:
                return self.rng.choice([c for c in river if MAIN[c] == animal])  # rule 2
        animal, count = order[0]
        if count >= 2:  # rule 3, with the intended ">= 2"
            return self.rng.choice([c for c in river if MAIN[c] == animal])
        return self.rng.choice(river)  # rule 4

    def _discard(self, obs: ArcticObservation, legal: set[int]) -> int | None:
        cards = _cards(obs.hand, act.DISCARD, legal)
        if not cards:
            return None
        top = self._visible(obs)
        keep = MAIN[top] if top >= 0 else -1
        off_animal = [c for c in cards if MAIN[c] != keep]
        return act.DISCARD + self.rng.choice(off_animal or cards)


def _cards(cards: Sequence[int], base: int, legal: set[int]) -> list[int]:
    """The cards of ``cards`` (in their order) that the action ``base + card`` (``act.PLACE``,
    ``act.RIVER``...) may take now."""
    return [c for c in cards if base + c in legal]


def _legal_direction(step: int, direction: int, legal: set[int]) -> int | None:
    """The token move of ``step`` (``MOVE`` or ``EXTRA``) in ``direction`` if legal, else the opposite one if
    legal, else None (baseline fix)."""
    moves = _MOVES[step]
    for way in (direction, -direction):
        if moves[way] in legal:
            return moves[way]
    return None

"""Arctic's rules: setup, steps A, B and C, the powers, the end of the game (docs/arctic-rules.md §4–§7).

Three entry points work on ``ArcticStateData``: ``setup`` (the empty table and its chance jobs),
``legal_actions`` (the single source of legality) and ``apply_action`` (one action, then ``settle``, which
runs every automatic transition until a decision or a chance event is due). ``ArcticStateCore`` puts them
behind the core API's hot methods (``legal_actions``, ``apply_unchecked``...), so that in the compiled engine
(``native.py``) a caller's every step runs compiled code.

Powers: an A power counts only if held since the start of the turn (``powers_held_at_start``); a B or C power
counts if held now, so one taken in this turn's A6 works at once (docs/arctic-rules.md §6.1).
"""

from __future__ import annotations

import random
from bisect import insort
from typing import Final

from floe.core.compiled import mypyc_attr
from floe.core.errors import IllegalActionError
from floe.games.arctic import actions as act
from floe.games.arctic.cards import (
    COMPANION,
    DECK_CARDS,
    DRAW,
    LAST_POSITION,
    MAIN,
    N_ANIMALS,
    N_CARDS,
    PLACEMENT,
    START_POSITION,
    WALRUS,
)
from floe.games.arctic.config import RulesConfig
from floe.games.arctic.powers import Power, power_id
from floe.games.arctic.state import (
    CARD_JOBS,
    DISCARD,
    EXTRA,
    FACE_DOWN_FLAG,
    GIVE,
    IN_HAND,
    MOVE,
    OVER,
    PLACE,
    REFILLED,
    SETUP,
    SWAP_RIVER,
    TAKE_POWER,
    ArcticStateData,
    Job,
    visible_card,
)
from floe.games.arctic.state import (
    DRAW as STEP_DRAW,
)

CHANCE: Final = -1
TERMINAL: Final = -2

# Plain-int copies of the Job and Power members the engine reads: the state holds plain data (its repr and
# JSON round-trip unchanged), and reading an enum member through its class costs ~140 ns in Python 3.11
# where a module global costs ~10 ns (and a Final one compiles to a C static).
_JOB_DECKS: Final = int(Job.DECKS)
_JOB_SIDE: Final = int(Job.SIDE)
_JOB_TOTEM: Final = int(Job.TOTEM)
_JOB_FIRST: Final = int(Job.FIRST)
_JOB_HAND: Final = int(Job.HAND)
_JOB_RIVER: Final = int(Job.RIVER)
_JOB_PENALTY: Final = int(Job.PENALTY)
_JOB_BLIND_DRAW: Final = int(Job.BLIND_DRAW)
_JOB_BLIND_GIVE: Final = int(Job.BLIND_GIVE)
_FOX_FACEDOWN: Final = int(Power.FOX_FACEDOWN)
_FOX_UNDER: Final = int(Power.FOX_UNDER)
_MOOSE_DRAW: Final = int(Power.MOOSE_DRAW)
_MOOSE_PLACE: Final = int(Power.MOOSE_PLACE)
_WALRUS_MAIN: Final = int(Power.WALRUS_MAIN)
_ORCA_REFILL: Final = int(Power.ORCA_REFILL)
_ORCA_DECK: Final = int(Power.ORCA_DECK)
_PUFFIN_SWAP: Final = int(Power.PUFFIN_SWAP)
_PUFFIN_TAKE_BACK: Final = int(Power.PUFFIN_TAKE_BACK)
_BEAR_DRAW_PENALTY: Final = int(Power.BEAR_DRAW_PENALTY)
_BEAR_GIVE: Final = int(Power.BEAR_GIVE)
HAND_LIMIT: Final = 7
RIVER_SIZE: Final = 6
HAND_START: Final = 3

# The chance outcomes "this card is drawn", made once: a fresh list of them is built at every draw, and
# reusing the int objects saves allocating each (the ids are above Python's small-int cache).
_CARD_OUTCOMES: Final = tuple(range(act.CARD, act.CARD + N_CARDS))

# Decks-in-play masks for n players when decks are chosen at random.
DECK_MASKS: dict[int, tuple[int, ...]] = {
    n: tuple(m for m in range(1, 16) if bin(m).count("1") == n) for n in (2, 3, 4)
}


def setup(st: ArcticStateData, config: RulesConfig, n: int) -> None:
    """Lay out the empty table for ``n`` players and queue setup's chance events (docs/arctic-rules.md §4)."""
    st.config = config
    st.players = n
    st.tokens = [START_POSITION] * N_ANIMALS
    st.river = []
    st.deck = []
    st.holder = [-1] * N_ANIMALS
    st.totems = [-1] * n
    st.powers = [config.power_id(a) or 0 for a in range(N_ANIMALS)]
    st.turns = [0] * n
    st.known = [0] * 120
    st.pushes = [0] * (N_ANIMALS * n)
    st.unseen_penalties = []
    st.history = []
    st.hands = [[] for _ in range(n)]
    st.piles = [[] for _ in range(n)]
    st.penalties = [[] for _ in range(n)]
    st.first_player = -1 if config.first_player is None else config.first_player
    st.reserve_count = 5 * (n - 1)
    st.decks_in_play = 0
    st.round = 0
    st.end_triggered = False
    st.trigger_player = -1
    st.final_round = False
    st.turn_player = -1
    st.step = SETUP
    st.to_act = CHANCE
    st.powers_held_at_start = 0
    st.placement_value = st.place_min = st.place_max = st.placed = 0
    st.placing_closed = st.puffin_used = st.give_used = False
    st.swap_card = -1
    st.draw_min = st.draw_max = st.drawn = 0
    st.walrus_token = st.walrus_dir = 0
    st.forget_derived()
    pending: list[tuple[int, int, int]] = []
    if n == 4 or config.deck_selection == "first_n":
        _use_decks(st, (1 << n) - 1)
    else:
        pending.append((_JOB_DECKS, 0, 0))
    pending += [(_JOB_SIDE, a, 0) for a in range(N_ANIMALS) if not st.powers[a]]
    pending += [(_JOB_TOTEM, seat, 0) for seat in range(n)]
    if st.first_player < 0:
        pending.append((_JOB_FIRST, 0, 0))
    pending += [(_JOB_HAND, seat, 0) for seat in range(n) for _ in range(HAND_START)]
    pending += [(_JOB_RIVER, 0, 0)] * RIVER_SIZE
    st.pending = pending


def _use_decks(st: ArcticStateData, mask: int) -> None:
    st.decks_in_play = mask
    st.deck = sorted(c for k in range(4) if mask >> k & 1 for c in DECK_CARDS[k])
    st._draws = None


# --- powers --------------------------------------------------------------------------------------------


def has_a_power(st: ArcticStateData, power: int) -> bool:
    """An A power (a ``Power`` id): in play and held by the player since the start of this turn."""
    animal = power // 10 - 1  # Power.animal, inlined: a property call costs more than the test
    return st.powers[animal] == power and st.powers_held_at_start >> animal & 1 == 1


def has_power(st: ArcticStateData, power: int) -> bool:
    """A B or C power (a ``Power`` id): in play and held by the player now."""
    animal = power // 10 - 1  # Power.animal, inlined
    return st.powers[animal] == power and st.holder[animal] == st.turn_player


# --- the core API's hot methods -------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)  # ArcticState (game.py) adds the rest of the API in Python
class ArcticStateCore(ArcticStateData):
    """The position with the core API's methods that search and play call at every step (``State``'s
    contract; ``ArcticState`` derives from both)."""

    __slots__ = ()

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        return self.to_act

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.to_act == TERMINAL

    def is_chance_node(self) -> bool:
        """True while a chance event is pending."""
        return self.to_act == CHANCE

    def legal_actions(self) -> list[int]:
        """Legal ids, ascending. The list is cached and shared: do not modify it."""
        return _cached_legal(self)

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now."""
        return _contains(_cached_legal(self), action)

    def sample_chance(self, rng: random.Random) -> int:
        """A chance outcome drawn by ``rng``: every Arctic chance event is uniform, so one choice from the
        outcome list is exact."""
        return rng.choice(_cached_legal(self))

    def apply_unchecked(self, action: int) -> None:
        """Apply an action known to be legal."""
        apply_action(self, action)

    def apply(self, action: int) -> None:
        """Apply a legal action; an illegal one raises ``IllegalActionError`` and changes nothing
        (``State.apply``'s checks and errors, here so that the checked path runs compiled too)."""
        if self.to_act == TERMINAL:
            raise IllegalActionError("the game is over: no more actions")
        if not _contains(_cached_legal(self), action):
            raise IllegalActionError(f"{self.describe_action(action)} is not legal now")
        apply_action(self, action)

    def describe_action(self, action: int) -> str:
        """Words for a person (``ArcticState`` says them in the context of the current step)."""
        return act.action_to_string(action)


def _cached_legal(st: ArcticStateData) -> list[int]:
    legal = st._legal
    if legal is None:
        legal = st._legal = legal_actions(st)
    return legal


def _contains(legal: list[int], action: int) -> bool:
    """``action in legal`` for an ascending list: a binary search (a draw's list holds up to 120 outcomes);
    only a miss pays the linear scan that confirms it."""
    i = _bisect(legal, action)
    return (i < len(legal) and legal[i] == action) or action in legal


def _bisect(xs: list[int], x: int) -> int:
    """``bisect.bisect_left`` for a list of ints: compiled, it compares machine ints, where the library
    calls Python's comparison at each step (measured: the library's took a twentieth of random play)."""
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) >> 1
        if xs[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


# --- legality ------------------------------------------------------------------------------------------


def legal_actions(st: ArcticStateData) -> list[int]:
    """Every legal action id, ascending: chance outcomes at a chance node, nothing at the end."""
    step = st.step
    if st.to_act == TERMINAL:
        return []
    if st.to_act == CHANCE:
        return chance_actions(st)
    p = st.turn_player
    if step == PLACE:
        return _place_actions(st, p)
    if step == SWAP_RIVER:
        return [act.RIVER + c for c in st.river]
    if step == MOVE:
        return [act.MOVE_RIGHT, act.MOVE_LEFT]
    if step == EXTRA:
        return _extra_actions(st)
    if step == STEP_DRAW:
        return _draw_actions(st, p)
    if step == DISCARD:
        return [act.DISCARD + c for c in st.hands[p]]
    if step == GIVE:
        look = [act.LOOK] if _unseen_by_owner(st, p) else []
        return [act.PASS, *look, *_give_actions(st, p)]
    return []


def _place_actions(st: ArcticStateData, p: int) -> list[int]:
    hand = st.hands[p]
    k = st.placed
    out: list[int] = []
    pre = k == 0 and not st.puffin_used
    pile = st.piles[p]
    has_visible = bool(pile) and pile[-1] < FACE_DOWN_FLAG
    take_back = pre and has_visible and has_a_power(st, _PUFFIN_TAKE_BACK)
    if (hand and st.place_min <= k < st.place_max) or (not hand and _pre_placement_open(st, p)):
        out.append(act.STOP)
    if take_back:
        out.append(act.TAKE_BACK)
    give_now = st.config.bear_give_step == "A" and k == 0 and not st.give_used and has_a_power(st, _BEAR_GIVE)
    if give_now and st.penalties[p] and st.config.penalties == "hidden_blind":
        out += [act.GIVE_BLIND + q for q in range(st.players) if q != p]
    if give_now and _unseen_by_owner(st, p):
        out.append(act.LOOK)
    if hand and k < st.place_max:
        out += [act.PLACE + c for c in hand]
        fox = (
            _FOX_FACEDOWN
            if has_a_power(st, _FOX_FACEDOWN)
            else _FOX_UNDER
            if has_a_power(st, _FOX_UNDER)
            else 0
        )
        if (
            fox
            and has_visible
            and (k + 1 >= st.place_min or len(hand) == 1)
            and not (st.config.fox_first_card_bga_limit and k == 0 and st.placement_value > 1)
        ):
            base = act.FACEDOWN if fox == _FOX_FACEDOWN else act.UNDER
            out += [base + c for c in hand]
    if pre and hand and st.river and has_a_power(st, _PUFFIN_SWAP):
        out += [act.SWAP + c for c in hand]
    if give_now and st.penalties[p] and st.config.penalties != "hidden_blind":
        out += _give_actions(st, p)
    return out


def _pre_placement_open(st: ArcticStateData, p: int) -> bool:
    """Whether a pre-placement power could still be used with an empty hand (take-back or an A-step give)."""
    if st.placed:
        return False
    pile = st.piles[p]
    if not st.puffin_used and pile and pile[-1] < FACE_DOWN_FLAG and has_a_power(st, _PUFFIN_TAKE_BACK):
        return True
    return (
        st.config.bear_give_step == "A"
        and not st.give_used
        and bool(st.penalties[p])
        and has_a_power(st, _BEAR_GIVE)
    )


def _placement_done(st: ArcticStateData) -> bool:
    if st.placing_closed or st.placed >= st.place_max:
        return True
    return not st.hands[st.turn_player] and not _pre_placement_open(st, st.turn_player)


def _extra_actions(st: ArcticStateData) -> list[int]:
    pos = st.tokens[st.walrus_token]
    out = []
    if st.config.walrus_mode == "double_move":
        if st.walrus_dir > 0 and pos < LAST_POSITION:
            out.append(act.EXTRA_RIGHT)
        if st.walrus_dir < 0 and pos > 0:
            out.append(act.EXTRA_LEFT)
    else:
        if pos < LAST_POSITION:
            out.append(act.EXTRA_RIGHT)
        if pos > 0:
            out.append(act.EXTRA_LEFT)
    return [act.PASS, *out]


def _draw_actions(st: ArcticStateData, p: int) -> list[int]:
    out = []
    if st.draw_min <= st.drawn < st.draw_max:
        out.append(act.STOP)
    if st.deck and has_power(st, _ORCA_DECK):
        out.append(act.DRAW_DECK)
    bear = st.penalties[p] and has_power(st, _BEAR_DRAW_PENALTY)
    if bear and st.config.penalties == "hidden_blind":
        out.append(act.PENALTY_BLIND)
    if bear and _unseen_by_owner(st, p):
        out.append(act.LOOK)
    out += [act.RIVER + c for c in st.river]
    if bear and st.config.penalties != "hidden_blind":
        out += [act.PENALTY + c for c in _seen_by_owner(st, p)]
    return out


def _unseen_by_owner(st: ArcticStateData, p: int) -> bool:
    """Whether p's penalty zone holds a card p has not seen (only under penalties=hidden_look)."""
    unseen = st.unseen_penalties
    return bool(unseen) and any(c in unseen for c in st.penalties[p])


def _seen_by_owner(st: ArcticStateData, p: int) -> list[int]:
    """The cards of p's penalty zone that p has seen, and so may choose (all of them unless hidden_look)."""
    unseen = st.unseen_penalties
    if not unseen:
        return st.penalties[p]
    return [c for c in st.penalties[p] if c not in unseen]


def _draw_sources(st: ArcticStateData, p: int) -> bool:
    if st.river:
        return True
    if st.deck and has_power(st, _ORCA_DECK):
        return True
    return bool(st.penalties[p]) and has_power(st, _BEAR_DRAW_PENALTY)


def _give_actions(st: ArcticStateData, p: int) -> list[int]:
    if st.config.penalties == "hidden_blind":
        return [act.GIVE_BLIND + q for q in range(st.players) if q != p]
    others = [q for q in range(st.players) if q != p]
    return [act.GIVE + 4 * c + q for c in _seen_by_owner(st, p) for q in others]


def _give_available(st: ArcticStateData) -> bool:
    return (
        st.config.bear_give_step == "C"
        and not st.give_used
        and bool(st.penalties[st.turn_player])
        and has_power(st, _BEAR_GIVE)
    )


# --- chance --------------------------------------------------------------------------------------------


def chance_actions(st: ArcticStateData) -> list[int]:
    """The outcome ids of the pending chance job, ascending."""
    kind, a, _ = st.pending[0]
    if kind in CARD_JOBS:
        draws = st._draws
        if draws is None:
            draws = st._draws = [_CARD_OUTCOMES[c] for c in st.deck]
        return draws
    if kind in (_JOB_BLIND_DRAW, _JOB_BLIND_GIVE):
        return [act.CARD + c for c in st.penalties[a]]
    if kind == _JOB_DECKS:
        return [act.DECKS + m for m in DECK_MASKS[st.players]]
    if kind == _JOB_SIDE:
        return [act.SIDE + act.POWER_IDS.index(power_id(a, side)) for side in (1, 2)]
    if kind == _JOB_TOTEM:
        return [act.TOTEM + t for t in range(N_ANIMALS) if t not in st.totems]
    return [act.FIRST + seat for seat in range(st.players)]


def apply_chance(st: ArcticStateData, action: int) -> None:
    """Resolve the pending chance job with outcome ``action``."""
    kind, a, b = st.pending.pop(0)
    if kind in CARD_JOBS:
        card = action - act.CARD
        _take_from_deck(st, card)
        if kind == _JOB_HAND:
            insort(st.hands[a], card)
        elif kind == _JOB_RIVER:
            insort(st.river, card)
        else:
            insort(st.penalties[a], card)
            if st.config.bear_looks:
                insort(st.unseen_penalties, card)  # face down: its owner has not seen it
    elif kind == _JOB_BLIND_DRAW:
        card = action - act.CARD
        st.penalties[a].remove(card)
        insort(st.hands[a], card)
    elif kind == _JOB_BLIND_GIVE:
        card = action - act.CARD
        st.penalties[a].remove(card)
        insort(st.penalties[b], card)
    elif kind == _JOB_DECKS:
        _use_decks(st, action - act.DECKS)
    elif kind == _JOB_SIDE:
        st.powers[a] = act.POWER_IDS[action - act.SIDE]  # a plain int
    elif kind == _JOB_TOTEM:
        st.totems[a] = action - act.TOTEM
    else:
        st.first_player = action - act.FIRST


def _take_from_deck(st: ArcticStateData, card: int) -> None:
    deck = st.deck
    i = _bisect(deck, card)  # the deck is kept in ascending order
    if i < len(deck) and deck[i] == card:
        del deck[i]
        draws = st._draws
        if draws is not None:
            # The next draw's outcomes: this list less the card, copied (the list is shared, e.g. by clones
            # and as a legal list) faster than a new one is built card by card. Same order: same index.
            draws = draws[:]
            del draws[i]
            st._draws = draws
    else:
        deck.remove(card)  # raises as before for a card not in the deck
        st._draws = None
    if st.end_triggered:
        return
    if st.reserve_count > len(st.deck):
        # Only under end_trigger="bga": the draw went past the main deck into the reserve before the
        # end-of-turn check noticed (docs/arctic-rules.md §7.1, §D3).
        st.reserve_count = len(st.deck)
    if st.config.end_trigger == "deck_emptied" and len(st.deck) == st.reserve_count:
        _trigger_end(st)


def _trigger_end(st: ArcticStateData) -> None:
    """The main deck is done: the reserve becomes the deck and this round is the last normal one."""
    st.end_triggered = True
    st.trigger_player = st.turn_player
    st.reserve_count = 0


def _bga_refill_check(st: ArcticStateData) -> None:
    # BGA's test on entering its refill routine: main deck <= 1 card triggers the end
    # (docs/arctic-rules.md §7.1).
    if st.config.end_trigger == "bga" and not st.end_triggered and len(st.deck) - st.reserve_count <= 1:
        _trigger_end(st)


# --- applying an action --------------------------------------------------------------------------------


def apply_action(st: ArcticStateData, action: int) -> None:
    """Apply one legal action (unchecked) and run the automatic transitions that follow."""
    st.history.append(action)
    st._legal = None
    if st.to_act == CHANCE:
        apply_chance(st, action)
    else:
        _apply_decision(st, action)
    settle(st)


def _apply_decision(st: ArcticStateData, action: int) -> None:
    p = st.turn_player
    step = st.step
    if action == act.STOP:
        if step == PLACE:
            st.placing_closed = True
        else:
            _end_drawing(st)
    elif action == act.PASS:
        if step == EXTRA:
            _begin_draw(st)
        else:
            _end_turn(st)
    elif action == act.TAKE_BACK:
        st.puffin_used = True
        card = st.piles[p].pop()
        insort(st.hands[p], card)
        st.known[card] = IN_HAND + p
        _set_placement_target(st)
    elif action == act.DRAW_DECK:
        st.drawn += 1
        st.pending.append((_JOB_HAND, p, 0))
    elif action == act.PENALTY_BLIND:
        st.drawn += 1
        st.pending.append((_JOB_BLIND_DRAW, p, 0))
    elif act.GIVE_BLIND <= action < act.GIVE_BLIND + 4:
        to = action - act.GIVE_BLIND
        st.pending.append((_JOB_BLIND_GIVE, p, to))
        _after_give(st, p, to)
    elif action == act.LOOK:
        zone = st.penalties[p]
        st.unseen_penalties = [c for c in st.unseen_penalties if c not in zone]
    elif action in (act.MOVE_RIGHT, act.MOVE_LEFT):
        top = visible_card(st.piles[p])
        d = 1 if action == act.MOVE_RIGHT else -1
        st.tokens[MAIN[top]] += d
        st.tokens[COMPANION[top]] -= d
        st.pushes[N_ANIMALS * p + MAIN[top]] += d
        st.pushes[N_ANIMALS * p + COMPANION[top]] -= d
        _after_base_move(st, top, d, -d)
    elif action in (act.EXTRA_RIGHT, act.EXTRA_LEFT):
        d = 1 if action == act.EXTRA_RIGHT else -1
        st.tokens[st.walrus_token] += d
        st.pushes[N_ANIMALS * p + st.walrus_token] += d
        _begin_draw(st)
    elif action < act.UNDER:
        card = action - act.PLACE
        st.hands[p].remove(card)
        st.piles[p].append(card)
        st.known[card] = 0
        st.placed += 1
    elif action < act.FACEDOWN:
        card = action - act.UNDER
        st.hands[p].remove(card)
        st.piles[p].insert(0, card)
        st.known[card] = 0
        st.placed += 1
        st.placing_closed = True
    elif action < act.SWAP:
        card = action - act.FACEDOWN
        st.hands[p].remove(card)
        pile = st.piles[p]
        pile.insert(len(pile) - 1, card + FACE_DOWN_FLAG)
        _hide_hand_outflow(st, p)
        st.placed += 1
        st.placing_closed = True
    elif action < act.RIVER:
        st.puffin_used = True
        st.swap_card = action - act.SWAP
        st.known[st.swap_card] = IN_HAND + p  # announced: everyone now knows it is in that hand
        st.step = SWAP_RIVER
    elif action < act.PENALTY:
        card = action - act.RIVER
        st.river.remove(card)
        insort(st.hands[p], card)
        st.known[card] = IN_HAND + p
        if step == SWAP_RIVER:
            given = st.swap_card
            st.hands[p].remove(given)
            insort(st.river, given)
            st.known[given] = 0
            st.swap_card = -1
            st.step = PLACE
        else:
            st.drawn += 1
            if has_power(st, _ORCA_REFILL):
                _bga_refill_check(st)
                st.pending += [(_JOB_RIVER, 0, 0)] * (RIVER_SIZE - len(st.river))
    elif action < act.DISCARD:
        card = action - act.PENALTY
        st.penalties[p].remove(card)
        insort(st.hands[p], card)
        st.drawn += 1
    elif action < act.GIVE:
        card = action - act.DISCARD
        st.hands[p].remove(card)
        insort(st.penalties[p], card)
        _hide_hand_outflow(st, p)
    elif action < act.N_PLAYER_ACTIONS:
        card, to = divmod(action - act.GIVE, 4)
        st.penalties[p].remove(card)
        insort(st.penalties[to], card)
        if st.config.bear_looks:
            insort(st.unseen_penalties, card)  # it arrives face down: the receiver has not seen it
        _after_give(st, p, to)


def _after_give(st: ArcticStateData, giver: int, to: int) -> None:
    st.give_used = True
    # Any card that may have been in the giver's hidden areas may now be in the receiver's penalty zone.
    bit, to_bit = 1 << giver, 1 << to
    known = st.known
    for c in range(120):
        v = known[c]
        if 0 < v < IN_HAND and v & bit:
            known[c] = v | to_bit
    if st.step == GIVE:
        _end_turn(st)


def _hide_hand_outflow(st: ArcticStateData, p: int) -> None:
    """An unseen card left p's hand: every card known to be in that hand may now be elsewhere p hides."""
    tag = IN_HAND + p
    known = st.known
    for c in range(120):
        if known[c] == tag:
            known[c] = 1 << p


# --- the automatic flow --------------------------------------------------------------------------------


def settle(st: ArcticStateData) -> None:
    """Run automatic transitions until a decision, a chance event or the end is due; set ``to_act``."""
    while True:
        if st.pending:
            kind = st.pending[0][0]
            if kind in CARD_JOBS:
                if (
                    st.config.end_trigger == "refill_fails"
                    and not st.end_triggered
                    and len(st.deck) == st.reserve_count
                ):
                    _trigger_end(st)
                if not st.deck:
                    # Deck and reserve are both exhausted: the draw is skipped (docs/arctic-rules.md §5.4,
                    # §D4).
                    st.pending.pop(0)
                    continue
            st.to_act = CHANCE
            return
        step = st.step
        if step == PLACE:
            if _placement_done(st):
                _finish_placement(st)
                continue
            st.to_act = st.turn_player
            return
        if step == TAKE_POWER:
            _take_power_and_move(st)
            continue
        if step == STEP_DRAW:
            if st.drawn >= st.draw_max or not _draw_sources(st, st.turn_player):
                _end_drawing(st)
                continue
            st.to_act = st.turn_player
            return
        if step == REFILLED:
            st.step = DISCARD
            continue
        if step == DISCARD:
            if len(st.hands[st.turn_player]) > HAND_LIMIT:
                st.to_act = st.turn_player
                return
            st.step = GIVE
            continue
        if step == GIVE:
            if _give_available(st):
                st.to_act = st.turn_player
                return
            _end_turn(st)
            continue
        if step == SETUP:
            st.round = 1
            _start_turn(st, st.first_player)
            continue
        if step == OVER:
            st.to_act = TERMINAL
            return
        st.to_act = st.turn_player  # SWAP_RIVER, MOVE, EXTRA: a decision
        return


def _start_turn(st: ArcticStateData, seat: int) -> None:
    st.turn_player = seat
    held = 0
    for animal in range(N_ANIMALS):
        if st.holder[animal] == seat:
            held |= 1 << animal
    st.powers_held_at_start = held
    st.placed = 0
    st.placing_closed = st.puffin_used = st.give_used = False
    st.swap_card = -1
    st.drawn = 0
    st.step = PLACE
    _set_placement_target(st)


def _set_placement_target(st: ArcticStateData) -> None:
    """P and the allowed targets T (docs/arctic-rules.md §A2, §A3, §D12), from the current visible card."""
    top = visible_card(st.piles[st.turn_player])
    value = PLACEMENT[top] if top >= 0 else 1
    st.placement_value = value
    if has_a_power(st, _MOOSE_PLACE):
        if top >= 0:
            st.place_min, st.place_max = max(0, value - 1), value + 1
        else:
            st.place_min, st.place_max = 1, 2 if st.config.moose_no_visible == "one_or_two" else 1
    else:
        st.place_min = st.place_max = value


def _finish_placement(st: ArcticStateData) -> None:
    """A5: a hand that ran out before the target draws the shortfall as penalty cards."""
    short = st.place_min - st.placed
    if short > 0:
        st.pending += [(_JOB_PENALTY, st.turn_player, 0)] * short
    st.step = TAKE_POWER


def _take_power_and_move(st: ArcticStateData) -> None:
    """A6, then step B's base move: a decision only when neither token is on an edge
    (docs/arctic-rules.md §5.2)."""
    p = st.turn_player
    top = visible_card(st.piles[p])
    if top < 0:  # cannot happen after a legal step A; kept so a corrupt state cannot loop
        _begin_draw(st)
        return
    st.holder[MAIN[top]] = p
    main, comp = MAIN[top], COMPANION[top]
    m, c = st.tokens[main], st.tokens[comp]
    m_edge = m == 0 or m == LAST_POSITION
    c_edge = c == 0 or c == LAST_POSITION
    if not m_edge and not c_edge:
        st.step = MOVE
        return
    if m_edge and c_edge:
        d, e = (1 if m == 0 else -1), (1 if c == 0 else -1)
    elif m_edge:
        d = 1 if m == 0 else -1
        e = -d
    else:
        e = 1 if c == 0 else -1
        d = -e
    st.tokens[main] += d
    st.tokens[comp] += e
    _after_base_move(st, top, d, e)


def _after_base_move(st: ArcticStateData, top: int, main_delta: int, comp_delta: int) -> None:
    if st.holder[WALRUS] == st.turn_player:
        if st.powers[WALRUS] == _WALRUS_MAIN:
            st.walrus_token, st.walrus_dir = MAIN[top], main_delta
        else:
            st.walrus_token, st.walrus_dir = COMPANION[top], comp_delta
        st.step = EXTRA
    else:
        _begin_draw(st)


def _begin_draw(st: ArcticStateData) -> None:
    if st.final_round:
        _end_turn(st)  # the final round is steps A and B only (docs/arctic-rules.md §7.3)
        return
    top = visible_card(st.piles[st.turn_player])
    n_draw = DRAW[top] if top >= 0 else 0
    if has_power(st, _MOOSE_DRAW):
        st.draw_min, st.draw_max = max(0, n_draw - 1), n_draw + 1
    else:
        st.draw_min = st.draw_max = n_draw
    st.drawn = 0
    st.step = STEP_DRAW


def _end_drawing(st: ArcticStateData) -> None:
    """C3: refill the river (the end may trigger here); then C4 discards and C5 the Bear gift."""
    _bga_refill_check(st)
    missing = RIVER_SIZE - len(st.river)
    if missing > 0:
        st.pending += [(_JOB_RIVER, 0, 0)] * missing
    st.step = REFILLED


def _end_turn(st: ArcticStateData) -> None:
    p = st.turn_player
    st.turns[p] += 1
    nxt = (p + 1) % st.players
    if nxt == st.first_player:
        if st.final_round:
            st.step = OVER
            return
        st.round += 1
        if st.end_triggered:
            st.final_round = True
    _start_turn(st, nxt)

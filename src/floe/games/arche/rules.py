"""Arche's rules: set-up, the turn (draw or play), rain and the pet round, the end-game
(docs/arche-rules.md §4–§11).

Three entry points work on ``ArcheStateData``: ``setup`` (the empty table and its chance jobs),
``legal_actions`` (the single source of legality) and ``apply_action`` (one action, then ``settle``, which
runs the queue of pending work until a chance event or a decision is due).

A turn: at ``START`` the player draws (``draw c``: a display card, then the deck's top card, then the
display is refilled) or plays a first card (``play c slot``, ``play e evict t``); a card that may be
followed by a second leads to ``SECOND`` (a second card into another cabin, or ``done``). What a card sets
off is queued as jobs in the rules reference's order: its figure, the Chimpanzee's chip (figure first by
default, ``chimp_order``), the Fox's chips, the eviction's figure, the display card taken for a new cabin;
then the display is refilled and the next player's turn begins. After the fifth rain the ``ENDGAME`` phase has
each player in turn pass for good or pay a chip and play one animal, until everyone has passed.
"""

from __future__ import annotations

from floe.games.arche import actions as act
from floe.games.arche.cards import BRONTO, CHIMP, FOX, HEAVY, N_SCORING, NONE
from floe.games.arche.config import (
    DISPLAY_SIZE,
    HAND_START,
    MAX_ROW,
    NEW_LEFT,
    OPENING_CABINS,
    TOTAL_DISCS,
    RulesConfig,
)
from floe.games.arche.legal import CHANCE, TERMINAL, chance_actions, job_actions, opening_mask
from floe.games.arche.state import (
    DECISION_JOBS,
    ENDGAME,
    J_BEGIN,
    J_CHIMP,
    J_DEAL,
    J_DISCARD,
    J_DRAW,
    J_END_TURN,
    J_EVICT,
    J_FIGURE,
    J_FIRST,
    J_NEXT_END,
    J_OPEN,
    J_PET,
    J_PLACE,
    J_RAIN_IN,
    J_REFILL,
    J_SHOW,
    J_TAKE,
    OVER,
    SECOND,
    SETUP,
    START,
    ArcheStateData,
    locate,
)

RAINS = 5
_DRAW_JOBS = frozenset((J_SHOW, J_REFILL, J_DRAW))


def setup(st: ArcheStateData, config: RulesConfig, n: int) -> None:
    """Lay out the empty table for ``n`` players and queue set-up's chance events (docs/arche-rules.md §4)."""
    st.config = config
    st.players = n
    first = config.options["first_player"]
    st.first_player = -1 if first is None else first
    st.turn_player = st.first_player
    st.to_act = CHANCE
    st.phase = SETUP
    st.turn = 0
    st.tilt = st.tilt_start = 0
    st.played = 0
    st.first_slot = -1
    st.display = 0
    st.out = 0
    st.top_left = st.middle_rain = st.lower_rain = st.rain_out = 0
    st.rain_placed = False
    st.bank = TOTAL_DISCS
    st.passed = 0
    st.pets_due = False
    st.endgame_from = -1
    st.stock = list(range(config.deck.n))
    st.hands = [0] * n
    st.pets = [-1] * n
    st.known = [0] * n
    st.chips = [0] * n
    st.figures = [0] * (N_SCORING * n)
    st.halves = [0] * (N_SCORING * n)
    st.figures_left = [config.options["figures"]] * n
    st.left = []
    st.right = []
    st.history = []
    st._legal = None
    st._scores = None
    pending: list[tuple[int, int, int]] = []
    if st.first_player < 0:
        pending.append((J_FIRST, 0, 0))
    pending.append((J_OPEN, 0, 0))
    pending += [(J_DEAL, q, 0) for _ in range(HAND_START) for q in range(n)]
    pending += [(J_RAIN_IN, 0, 0), (J_SHOW, 0, 0), (J_BEGIN, 0, 0)]
    st.pending = pending


# --- small helpers ----------------------------------------------------------------------------------------


def find_cabin(st: ArcheStateData, card: int) -> tuple[int, int]:
    """(side, index) of the cabin holding ``card``: side 0 left, 1 right; (-1, -1) if it is in none."""
    return locate(st.left, st.right, card)


# --- applying ---------------------------------------------------------------------------------------------


def apply_action(st: ArcheStateData, action: int) -> None:
    """Apply one legal action, then run the automatic work until a chance event or a decision is due."""
    st.history.append(action)
    if st.to_act == CHANCE:
        _apply_chance(st, action)
    elif st.pending:
        _apply_job(st, action)
    else:
        _apply_turn(st, action)
    settle(st)


def _apply_chance(st: ArcheStateData, action: int) -> None:
    cfg = st.config
    sp = cfg.space
    kind, seat, _ = st.pending[0]
    if kind == J_FIRST:
        st.first_player = st.turn_player = action - sp.first
        st.pending.pop(0)
        return
    if action == sp.rain:
        _rain(st)
        return
    c = action - sp.card
    bit = 1 << c
    st.stock.remove(c)
    if kind == J_OPEN:
        if opening_mask(st) >> c & 1:
            # Two cabins a side (docs/arche-rules.md §4.2), each card on the lighter side while it has room:
            # the scale
            # never leaves -2..+2 on the way (weights 1–2 end within it).
            left_room = len(st.left) < 2
            row = st.left if left_room and (len(st.right) >= 2 or st.tilt <= 0) else st.right
            row.append(bit)
            st.tilt += cfg.weight[c] if row is st.left else -cfg.weight[c]
        else:
            st.out |= bit
        return
    if kind == J_DEAL:
        st.hands[seat] |= bit
        st.pending.pop(0)
        return
    if st.top_left > 0:
        st.top_left -= 1
    elif st.middle_rain:  # the rain due at the middle was shuffled back (a reveal that does not count)
        st.middle_rain = 0
        st.lower_rain += 1
    if kind == J_DRAW:
        st.hands[seat] |= bit
        st.pending.pop(0)
    else:
        st.display |= bit


def _rain(st: ArcheStateData) -> None:
    """A rain card is revealed: set aside; the 2nd starts the pet round, the 5th the end-game
    (docs/arche-rules.md §8)."""
    if st.middle_rain:
        st.middle_rain = 0
    else:
        st.lower_rain -= 1
    st.rain_out += 1
    if st.rain_out == RAINS:
        st.pending = [job for job in st.pending if job[0] not in _DRAW_JOBS]
    elif st.rain_out == 2:
        if st.config.options["pet_timing"] == "immediately":
            st.pending[0:0] = _pet_jobs(st)
        else:
            st.pets_due = True


def _pet_jobs(st: ArcheStateData) -> list[tuple[int, int, int]]:
    start = st.turn_player if st.turn_player >= 0 else 0
    n = st.players
    return [(J_PET, (start + i) % n, 0) for i in range(n)]


def _apply_job(st: ArcheStateData, action: int) -> None:
    cfg = st.config
    sp = cfg.space
    kind, seat, arg = st.pending.pop(0)
    if kind == J_PET:
        if action != act.NO_PET:
            c = action - sp.pet
            st.hands[seat] &= ~(1 << c)
            st.pets[seat] = c
    elif kind == J_TAKE:
        bit = 1 << (action - sp.take)
        st.display &= ~bit
        st.hands[seat] |= bit
        st.known[seat] |= bit
    elif kind == J_CHIMP:
        if action != act.NO_CHIP:
            k = action - act.CHIP
            st.halves[N_SCORING * seat + k] += 1
            st.bank -= 1
    elif kind == J_FIGURE:
        _place_figure(st, seat, action - act.FIGURE, arg)
    elif kind == J_EVICT:
        if action != act.NO_EVICT:
            t = action - sp.evict_any
            side, i = find_cabin(st, t)
            row = st.left if side == 0 else st.right
            row[i] &= ~(1 << t)
            st.tilt -= cfg.weight[t] if side == 0 else -cfg.weight[t]
            st.out |= 1 << t
            st.pending[0:0] = _eviction_jobs(st, seat, t)
    elif kind == J_DISCARD:
        bit = 1 << (action - sp.discard)
        st.hands[seat] &= ~bit
        st.known[seat] &= ~bit
        st.out |= bit


def _apply_turn(st: ArcheStateData, action: int) -> None:
    cfg = st.config
    sp = cfg.space
    p = st.turn_player
    if action == act.DONE:
        st.pending = [(J_REFILL, 0, 0), (J_END_TURN, 0, 0)]
    elif action == act.PASS:
        st.passed |= 1 << p
        st.pending = [(J_NEXT_END, 0, 0)]
    elif action == act.DRAW_TOP or sp.draw <= action < sp.take:
        if action != act.DRAW_TOP:
            bit = 1 << (action - sp.draw)
            st.display &= ~bit
            st.hands[p] |= bit
            st.known[p] |= bit
        st.pending = [(J_DRAW, p, 0), (J_REFILL, 0, 0), (J_END_TURN, 0, 0)]
    elif sp.play <= action < sp.evict:
        slot, c = divmod(action - sp.play, cfg.deck.n)
        _play(st, p, c, slot, -1)
    else:
        i, t = divmod(action - sp.evict, cfg.deck.n)
        _play(st, p, cfg.deck.evicters[i], -1, t)


def _play(st: ArcheStateData, p: int, c: int, slot: int, target: int) -> None:
    """Card ``c`` from seat ``p``'s hand into the ark: into ``slot`` (a cabin or a new one), or in the place
    of ``target`` (an eviction); then queue what it sets off (module docstring)."""
    cfg = st.config
    opts = cfg.options
    bit = 1 << c
    endgame = st.phase == ENDGAME
    if endgame:
        st.chips[p] -= 1
        st.bank += 1
    st.hands[p] &= ~bit
    st.known[p] &= ~bit
    w = cfg.weight[c]
    new_cabin = False
    if target >= 0:
        side, i = find_cabin(st, target)
        row = st.left if side == 0 else st.right
        row[i] = row[i] & ~(1 << target) | bit
        delta = w - cfg.weight[target]
        st.tilt += delta if side == 0 else -delta
        st.out |= 1 << target
        slot = i + (0 if side == 0 else MAX_ROW)
    elif slot >= NEW_LEFT:
        row = st.left if slot == NEW_LEFT else st.right
        row.append(bit)
        st.tilt += w if slot == NEW_LEFT else -w
        if st.chips[p] > 0:
            st.chips[p] -= 1
            st.chips[(p - 1) % st.players] += 1  # the right-hand neighbour (play goes clockwise, to the left)
        slot = len(row) - 1 + (0 if slot == NEW_LEFT else MAX_ROW)
        new_cabin = True
    else:
        row = st.left if slot < MAX_ROW else st.right
        row[slot % MAX_ROW] |= bit
        st.tilt += w if slot < MAX_ROW else -w
    st.played += 1
    st.first_slot = slot
    jobs: list[tuple[int, int, int]] = []
    abilities = not endgame or bool(opts["endgame_abilities"])
    figures_on = not endgame or bool(opts["endgame_figures"])
    special = cfg.special[c]
    chimp = special == CHIMP and abilities
    if chimp and opts["chimp_order"] == "chip_first":
        jobs.append((J_CHIMP, p, 0))
    if figures_on:
        jobs += _figure_jobs(st, p, c, special == BRONTO and abilities)
    if chimp and opts["chimp_order"] == "figure_first":
        jobs.append((J_CHIMP, p, 0))
    if special == FOX and abilities:
        gain = 2 if opts["bank"] == "unlimited" else max(0, min(2, st.bank))
        st.chips[p] += gain
        st.bank -= gain
    if target >= 0:
        jobs += _eviction_jobs(st, p, target)
    elif abilities and c in cfg.deck.evicters and opts["evict_from"] == "any_cabin":
        jobs.append((J_EVICT, p, c))
    if new_cabin and not endgame:
        jobs.append((J_TAKE, p, 0))
    if endgame:
        jobs.append((J_NEXT_END, 0, 0))
    elif bit & cfg.solo_mask or st.played >= 2:
        jobs += [(J_REFILL, 0, 0), (J_END_TURN, 0, 0)]
    else:
        st.phase = SECOND
    st.pending = jobs


def _figure_jobs(st: ArcheStateData, p: int, c: int, half: bool) -> list[tuple[int, int, int]]:
    """The figure for card ``c`` (docs/arche-rules.md §6.2): on its category's scoring card (``half``: with a
    chip under it, the Bronto), chosen by the player for an uncategorised card
    (``uncategorised_figure=choose``), else none."""
    if half:  # the Bronto's figure goes on the heavy card whatever the card's category (rulebook)
        return [(J_PLACE, p, 2 * HEAVY + 1)]
    k = st.config.category[c]
    if k == NONE:
        if st.config.options["uncategorised_figure"] == "choose":
            return [(J_FIGURE, p, int(half))]
        return []
    return [(J_PLACE, p, 2 * k + int(half))]


def _eviction_jobs(st: ArcheStateData, p: int, t: int) -> list[tuple[int, int, int]]:
    """What evicting ``t`` gives the evicter (docs/arche-rules.md §9.1): a figure on t's category, with a chip
    under it for the Bronto; the Chimpanzee's chip."""
    special = st.config.special[t]
    jobs = []
    if st.phase != ENDGAME or st.config.options["endgame_figures"]:
        jobs += _figure_jobs(st, p, t, special == BRONTO)
    if special == CHIMP:
        jobs.append((J_CHIMP, p, 0))
    return jobs


def _place_figure(st: ArcheStateData, p: int, k: int, half: int) -> None:
    """One of seat ``p``'s figures onto scoring card ``k`` if any is left; ``half``: with a chip from the bank
    under it (if the bank has one)."""
    if st.figures_left[p] <= 0:
        return
    st.figures_left[p] -= 1
    i = N_SCORING * p + k
    st.figures[i] += 1
    opts = st.config.options
    if (
        half
        and (opts["bank"] == "unlimited" or st.bank > 0)
        and (opts["chips_per_figure"] == "any" or st.halves[i] < st.figures[i])
    ):
        st.halves[i] += 1
        st.bank -= 1


# --- the queue --------------------------------------------------------------------------------------------


def settle(st: ArcheStateData) -> None:
    """Run the pending queue until a chance event or a decision is due; then set ``to_act``."""
    st._legal = None
    pending = st.pending
    while True:
        if not pending:
            st.to_act = TERMINAL if st.phase == OVER else st.turn_player
            return
        kind, seat, arg = pending[0]
        if kind in _DRAW_JOBS:  # the most frequent: a card from the deck (skipped when nothing is due)
            if kind != J_DRAW and st.display.bit_count() >= DISPLAY_SIZE:
                pending.pop(0)
                continue
            outcomes = chance_actions(st)
            if outcomes:
                st.to_act = CHANCE
                st._legal = outcomes
                return
            pending.pop(0)
            continue
        if kind in DECISION_JOBS:
            choices = job_actions(st, kind, seat, arg)
            if choices:
                st.to_act = seat
                st._legal = choices
                return
            pending.pop(0)
            continue
        if kind == J_RAIN_IN:
            pending.pop(0)
            _rain_into_deck(st)
            continue
        if kind == J_BEGIN:
            pending.pop(0)
            _begin(st)
            pending = st.pending
            continue
        if kind == J_END_TURN:
            pending.pop(0)
            _end_turn(st)
            pending = st.pending
            continue
        if kind == J_NEXT_END:
            pending.pop(0)
            _next_endgame(st)
            continue
        if kind == J_PLACE:
            pending.pop(0)
            _place_figure(st, seat, arg >> 1, arg & 1)
            continue
        # a chance job: skipped when there is nothing left to draw for it
        if kind == J_OPEN and len(st.left) + len(st.right) >= OPENING_CABINS:
            pending.pop(0)
            continue
        if kind in (J_SHOW, J_REFILL) and st.display.bit_count() >= DISPLAY_SIZE:
            pending.pop(0)
            continue
        outcomes = chance_actions(st)
        if outcomes:
            st.to_act = CHANCE
            st._legal = outcomes
            return
        pending.pop(0)


def _rain_into_deck(st: ArcheStateData) -> None:
    """Spec 4.4: with N cards left, the top N // 2 hold no rain, then rain 1, then the rest with rains 2–5
    (``rain_placement``: all five in the lower half, or anywhere)."""
    placement = st.config.options["rain_placement"]
    n = len(st.stock)
    st.rain_placed = True
    if placement == "middle":
        st.top_left, st.middle_rain, st.lower_rain = n // 2, 1, RAINS - 1
    elif placement == "lower_half":
        st.top_left, st.middle_rain, st.lower_rain = n // 2, 0, RAINS
    else:
        st.top_left, st.middle_rain, st.lower_rain = 0, 0, RAINS


def _begin(st: ArcheStateData) -> None:
    """The end of set-up: chips dealt (docs/arche-rules.md §4.3), the first turn (or a pet round due
    first)."""
    if st.pets_due:
        st.pets_due = False
        st.pending[0:0] = [*_pet_jobs(st), (J_BEGIN, 0, 0)]
        return
    opts = st.config.options
    n = st.players
    first = st.first_player
    for q in range(n):
        extra = 1 if opts["seat_chips"] == "later_plus_one" and q != first else 0
        st.chips[q] = opts["start_chips"] + extra
        st.bank -= st.chips[q]
    st.turn_player = first
    st.turn = 1
    st.played = 0
    st.first_slot = -1
    st.tilt_start = st.tilt
    if st.rain_out >= RAINS:
        _start_endgame(st, (first - 1) % n)
    else:
        st.phase = START


def _end_turn(st: ArcheStateData) -> None:
    """After a turn: discards down to the hand limit, a pet round due, then the next turn or the end-game."""
    p = st.turn_player
    limit = st.config.options["hand_limit"]
    if limit and st.hands[p].bit_count() > limit:
        st.pending[0:0] = [(J_DISCARD, p, 0)] * (st.hands[p].bit_count() - limit) + [(J_END_TURN, 0, 0)]
        return
    if st.pets_due:
        st.pets_due = False
        st.pending[0:0] = [*_pet_jobs(st), (J_END_TURN, 0, 0)]
        return
    if st.rain_out >= RAINS:
        _start_endgame(st, p)
        return
    st.turn_player = (p + 1) % st.players
    st.phase = START
    st.turn += 1
    st.played = 0
    st.first_slot = -1
    st.tilt_start = st.tilt


def _start_endgame(st: ArcheStateData, trigger: int) -> None:
    """Spec 10: the left neighbour (next clockwise) of the player whose turn showed the 5th rain begins."""
    st.endgame_from = trigger
    st.phase = ENDGAME
    st.passed = 0
    st.turn_player = (trigger + 1) % st.players
    st.turn += 1
    st.played = 0
    st.first_slot = -1
    st.tilt_start = st.tilt


def _next_endgame(st: ArcheStateData) -> None:
    """The next player in the end-game who has not passed; the end once everyone has."""
    n = st.players
    for i in range(1, n + 1):
        q = (st.turn_player + i) % n
        if not st.passed >> q & 1:
            st.turn_player = q
            st.turn += 1
            st.played = 0
            st.first_slot = -1
            st.tilt_start = st.tilt
            return
    _finish(st)


def _finish(st: ArcheStateData) -> None:
    """Spec 11.1: the pets are revealed and each gives its owner a figure on its category."""
    for q, pet in enumerate(st.pets):
        if pet >= 0 and st.config.category[pet] != NONE:
            _place_figure(st, q, st.config.category[pet], 0)
    st.phase = OVER
    st.turn_player = -1

"""Arktia's rules (spec sections 5–10): set-up, the opening rounds, turns, removals, melting, the end.

Three entry points work on ``ArktiaStateData``: ``setup`` (the empty continent, then the neutral set-up or
the first turn), ``legal_actions`` (the single source of legality) and ``apply_action`` (one decision, then
every automatic consequence until the next decision: removals without a choice, the end conditions, the
next seat's turn).

A turn (spec 7): the seat places or moves (or stops, 10(d)); cut-off Muglus are removed, the mover choosing
the survivor among tied groups (``KEEP`` steps, one per colour); a seat whose supply is empty melts a field
(``MELT``) or is out (10(b)); then (c) is checked for everybody and the next active seat begins, unless it
can neither place nor move (10(a)). There is no chance: the game is deterministic.
"""

from __future__ import annotations

from floe.games.arktia.actions import STOP, ActionSpace
from floe.games.arktia.board import bits, components
from floe.games.arktia.config import ArktiaConfig
from floe.games.arktia.state import (
    ACTIVE,
    KEEP,
    MELT,
    NEUTRAL_SETUP,
    OUT_LIMIT,
    OUT_NO_MELT,
    OUT_ONE_PIECE,
    OUT_STOPPED,
    OUT_STUCK,
    OVER,
    TURN,
    ArktiaStateData,
)
from floe.games.arktia.towers import (
    ACCEPTS,
    COLOURS,
    COUNT,
    EMPTY,
    HOLE,
    LIFTS,
    MASK,
    N_COLOURS,
    NEUTRAL,
    PIECES_PER_SIZE,
    SIZES_OF,
    SLOT_BITS,
    STRIP,
    TOP,
)

OPENING_TURNS = 2  # rounds 1 and 2 are placements only (spec 5.3, 5.4)


# --- set-up -------------------------------------------------------------------------------------------------
def setup(st: ArktiaStateData, config: ArktiaConfig, space: ActionSpace) -> None:
    """The empty continent, the supplies, and the first decision (a neutral placement or the first turn)."""
    n = config.players
    st.config = config
    st.space = space
    st.n = n
    st.fields = [EMPTY] * space.size
    st.supply = [PIECES_PER_SIZE] * (3 * n)
    # Each seat places one neutral Muglu of each size: 6 in all for 2 players, 9 for 3 (spec 5.2, 12).
    st.neutral_supply = [1 if config.neutrals else 0] * (3 * n)
    st.captured = [0] * n
    st.melted = [0] * n
    st.lost = [0] * (3 * N_COLOURS)
    st.boxed = [0] * (3 * N_COLOURS)
    st.out = [ACTIVE] * n
    st.turns = [0] * n
    st.pending_keep = []
    st.history = []
    st.turn = 0
    st.melt_due = False
    st._legal = None
    st.player = config.first_player
    if config.neutrals:
        starter = config.first_player
        if config.neutral_starter == "previous_player":
            starter = (starter - 1) % n
        _continue_setup(st, starter)
    else:
        begin_turn(st)


def _continue_setup(st: ArktiaStateData, seat: int) -> None:
    # Seats take turns, one neutral each, starting from ``seat``, until every neutral Muglu is placed.
    n = st.n
    for k in range(n):
        q = (seat + k) % n
        if any(st.neutral_supply[3 * q : 3 * q + 3]):
            legal = _neutral_placements(st, q)
            if legal:
                st.step = NEUTRAL_SETUP
                st.player = q
                st._legal = legal
                return
            # No free field touches the neutral group (only on tiny custom layouts): the neutral Muglus
            # not yet placed stay in the box for the whole game; nobody could place them.
            break
    st.player = st.config.first_player
    begin_turn(st)


def _neutral_placements(st: ArktiaStateData, seat: int) -> list[int]:
    # Free fields touching a neutral Muglu (any free field for the first one): the group stays connected.
    neutral = colour_mask(st.fields, NEUTRAL)
    free = free_mask(st.fields)
    targets = _adjacent(st, neutral) & free if neutral else free
    sizes = [s for s in range(3) if st.neutral_supply[3 * seat + s]]
    sp = st.space
    return [sp.neutral(c, s) for c in bits(targets) for s in sizes]


# --- masks --------------------------------------------------------------------------------------------------
def colour_mask(fields: list[int], colour: int) -> int:
    """Bit set of the fields holding at least one Muglu of ``colour`` (at any height)."""
    bit = 1 << colour
    mask = 0
    for c, code in enumerate(fields):
        if code > 0 and COLOURS[code] & bit:
            mask |= 1 << c
    return mask


def free_mask(fields: list[int]) -> int:
    """Bit set of the existing fields with no Muglu."""
    mask = 0
    for c, code in enumerate(fields):
        if code == EMPTY:
            mask |= 1 << c
    return mask


def ice_mask(fields: list[int]) -> int:
    """Bit set of the fields not melted."""
    mask = 0
    for c, code in enumerate(fields):
        if code != HOLE:
            mask |= 1 << c
    return mask


def _adjacent(st: ArktiaStateData, mask: int) -> int:
    nb = st.space.layout.nb_mask
    out = 0
    for c in bits(mask):
        out |= nb[c]
    return out


# --- legality -----------------------------------------------------------------------------------------------
def legal_actions(st: ArktiaStateData) -> list[int]:
    """The legal action ids, ascending (cached on the state until the next action)."""
    if st._legal is not None:
        return st._legal
    step = st.step
    if step == NEUTRAL_SETUP:
        legal = _neutral_placements(st, st.player)
    elif step == TURN:
        legal = _turn_actions(st, st.player)
    elif step == KEEP:
        legal = keep_choices(st)
    elif step == MELT:
        legal = [st.space.melt(c) for c in melt_choices(st)[0]]
    else:
        legal = []
    st._legal = legal
    return legal


def _turn_actions(st: ArktiaStateData, p: int) -> list[int]:
    main = main_actions(st, p)
    if not main or st.turns[p] < OPENING_TURNS:
        return main
    return [STOP, *main]


def main_actions(st: ArktiaStateData, p: int) -> list[int]:
    """Seat ``p``'s placements and moves (opening rounds: placements under their rule, spec 5)."""
    fields = st.fields
    free = free_mask(fields)
    turns = st.turns[p]
    if turns == 0:
        # Round 1: next to any occupied field; the very first Muglu anywhere (spec 5.3).
        occupied = ice_mask(fields) & ~free
        targets = _adjacent(st, occupied) & free if occupied else free
        return _placements(st, p, targets)
    own = colour_mask(fields, p)
    targets = _adjacent(st, own) & free  # spec 6(a): next to a field holding an own Muglu
    places = _placements(st, p, targets)
    if turns < OPENING_TURNS:
        return places
    return places + _moves(st, p, own)


def _placements(st: ArktiaStateData, p: int, targets: int) -> list[int]:
    sizes = [s for s in range(3) if st.supply[3 * p + s]]
    if not sizes:
        return []
    sp = st.space
    return [sp.place(c, s) for c in bits(targets) for s in sizes]


def _moves(st: ArktiaStateData, p: int, own: int) -> list[int]:
    # Spec 6(b): lift a top part of an own-topped stack, go straight any distance over existing fields,
    # land where the tower table allows, and leave the own colour in one connected group.
    nb = st.space.layout.nb_mask
    move_rays = st.space.move_rays
    fields = st.fields
    out: list[int] = []
    append = out.append
    groups_of: dict[int, list[int]] = {}  # the own colour's groups once the mover has left, by field set
    for src, code in enumerate(fields):
        if code <= 0 or TOP[code] != p:
            continue
        for mover in LIFTS[MASK[code]]:
            rest = code & ~SLOT_BITS[mover]
            base = own if rest > 0 and COUNT[rest][p] else own & ~(1 << src)
            parts = groups_of.get(base)
            if parts is None:
                parts = groups_of[base] = components(nb, base)
            accepts = ACCEPTS[mover]
            kind = mover - 1
            if len(parts) == 1:
                # The usual case: the rest of the colour is one group; the mover must land in or next to it.
                part = parts[0]
                for ray in move_rays[src]:
                    for dst, action in ray:
                        dcode = fields[dst]
                        if dcode < 0:
                            break  # a melted field blocks the way (spec 3.2)
                        if accepts[dcode] and (nb[dst] | 1 << dst) & part:
                            append(action + kind)
                continue
            for ray in move_rays[src]:
                for dst, action in ray:
                    dcode = fields[dst]
                    if dcode < 0:
                        break
                    if accepts[dcode]:
                        reach = nb[dst] | 1 << dst
                        if all(part & reach for part in parts):
                            append(action + kind)
    out.sort()
    return out


def groups(st: ArktiaStateData, colour: int) -> list[tuple[int, int]]:
    """(field bit set, number of Muglus) of each connected group of ``colour``, by lowest field (spec 8)."""
    fields = st.fields
    out = []
    for comp in components(st.space.layout.nb_mask, colour_mask(fields, colour)):
        out.append((comp, sum(COUNT[fields[c]][colour] for c in bits(comp))))
    return out


def keep_choices(st: ArktiaStateData) -> list[int]:
    """The ``keep`` ids of the tied largest groups of the first colour awaiting the mover's choice."""
    colour = st.pending_keep[0]
    found = groups(st, colour)
    best = max(size for _, size in found)
    sp = st.space
    return [sp.keep(colour, (comp & -comp).bit_length() - 1) for comp, size in found if size == best]


def melt_choices(st: ArktiaStateData) -> tuple[list[int], bool]:
    """(fields that may melt, whether any free edge field exists at all) (spec 9).

    A field may melt when it holds no Muglu, has fewer than 6 existing neighbours (an edge, holes
    included) and the remaining fields stay one region.
    """
    layout = st.space.layout
    nb = layout.nb_mask
    fields = st.fields
    ice = ice_mask(fields)
    out = []
    any_edge = False
    for c, code in enumerate(fields):
        if code != EMPTY or (nb[c] & ice).bit_count() == 6:
            continue
        any_edge = True
        if layout.is_connected(ice & ~(1 << c)):
            out.append(c)
    return out, any_edge


# --- applying decisions -------------------------------------------------------------------------------------
def apply_action(st: ArktiaStateData, action: int) -> None:
    """Apply a legal action and every automatic consequence up to the next decision."""
    st.history.append(action)
    st._legal = None
    sp = st.space
    p = st.player
    step = st.step
    if step == NEUTRAL_SETUP:
        cell, size = divmod(action - sp.NEUTRAL, 3)
        st.fields[cell] = (NEUTRAL + 1) << 3 * size
        st.neutral_supply[3 * p + size] -= 1
        _continue_setup(st, (p + 1) % st.n)
    elif step == TURN:
        if action == STOP:
            retire(st, p, OUT_STOPPED)
            _end_turn(st)
        elif action < sp.NEUTRAL:
            # Placing never disconnects anything, so no removal check is needed.
            cell, size = divmod(action - 1, 3)
            st.fields[cell] = (p + 1) << 3 * size
            st.supply[3 * p + size] -= 1
            _melt_or_end(st)
        else:
            src, dst, mover = sp.decode_move(action)
            code = st.fields[src]
            moving = code & SLOT_BITS[mover]
            st.fields[src] = code & ~SLOT_BITS[mover]
            st.fields[dst] |= moving
            # Only the colours carried under the top piece changed place, so only they can be cut off
            # (spec 8); the mover's own colour stays connected (that is what made the move legal).
            carried = COLOURS[moving] & ~(1 << p)
            for colour in range(N_COLOURS):
                if carried >> colour & 1:
                    _remove_cut_off(st, colour)
            _after_removals(st)
    elif step == KEEP:
        colour, cell = divmod(action - sp.KEEP, sp.size)
        _remove_groups(st, colour, [comp for comp, _ in groups(st, colour) if not comp >> cell & 1])
        st.pending_keep.pop(0)
        _after_removals(st)
    elif step == MELT:
        st.fields[action - sp.MELT] = HOLE
        st.melted[p] += 1
        _end_turn(st)
    else:
        raise ValueError("the game is over")


def _remove_cut_off(st: ArktiaStateData, colour: int) -> None:
    found = groups(st, colour)
    if len(found) < 2:
        return
    best = max(size for _, size in found)
    largest = [comp for comp, size in found if size == best]
    if len(largest) > 1:
        st.pending_keep.append(colour)  # the mover chooses the survivor (spec 8)
        return
    _remove_groups(st, colour, [comp for comp, _ in found if comp != largest[0]])


def _remove_groups(st: ArktiaStateData, colour: int, comps: list[int]) -> None:
    # The mover takes the removed Muglus; what is left on each field re-settles (towers.STRIP).
    fields = st.fields
    lost = st.lost
    taken = 0
    for comp in comps:
        for c in bits(comp):
            code = fields[c]
            for size in SIZES_OF[code][colour]:
                lost[3 * colour + size] += 1
            taken += COUNT[code][colour]
            fields[c] = STRIP[code][colour]
    st.captured[st.player] += taken


def _after_removals(st: ArktiaStateData) -> None:
    if st.pending_keep:
        st.step = KEEP
        return
    _melt_or_end(st)


def _melt_or_end(st: ArktiaStateData) -> None:
    p = st.player
    # Spec 9 [GUESS]: by default the duty starts the turn after the last Muglu was placed.
    due = st.melt_due if st.config.melt_start == "next_turn" else not any(st.supply[3 * p : 3 * p + 3])
    if due:
        choices, any_edge = melt_choices(st)
        if choices:
            st.step = MELT
            st._legal = [st.space.melt(c) for c in choices]
            return
        if not any_edge or st.config.bridge_melt_ends:
            retire(st, p, OUT_NO_MELT)  # spec 10(b)
    _end_turn(st)


def _end_turn(st: ArktiaStateData) -> None:
    p = st.player
    st.turns[p] += 1
    st.turn += 1
    if all(st.out[q] != ACTIVE or st.turns[q] >= OPENING_TURNS for q in range(st.n)):
        # Spec 10(c) [GUESS]: from the end of round 2 on, after every turn, whoever moved.
        for q in range(st.n):
            if st.out[q] == ACTIVE and st.on_board(q) <= 1:
                retire(st, q, OUT_ONE_PIECE)
    nxt = next_active(st, p)
    if nxt < 0:
        _game_over(st)
        return
    st.player = nxt
    begin_turn(st)


def begin_turn(st: ArktiaStateData) -> None:
    """Start ``st.player``'s turn: its legal actions, its melt duty; or, if it can neither place nor move,
    end its game (spec 10(a)) and go on to the next active seat. Also ends the game at the turn limit."""
    while True:
        p = st.player
        if st.turn >= st.config.max_turns:
            for q in range(st.n):
                if st.out[q] == ACTIVE:
                    st.out[q] = OUT_LIMIT
            _game_over(st)
            return
        legal = _turn_actions(st, p)
        if legal:
            st.step = TURN
            st.melt_due = not any(st.supply[3 * p : 3 * p + 3])
            st._legal = legal
            return
        retire(st, p, OUT_STUCK)
        nxt = next_active(st, p)
        if nxt < 0:
            _game_over(st)
            return
        st.player = nxt


def next_active(st: ArktiaStateData, p: int) -> int:
    """The next seat clockwise after ``p`` whose game goes on (``p`` itself last), or -1."""
    for k in range(1, st.n + 1):
        q = (p + k) % st.n
        if st.out[q] == ACTIVE:
            return q
    return -1


def retire(st: ArktiaStateData, seat: int, reason: int) -> None:
    """End ``seat``'s game for ``reason``; with ``out_pieces="remove"`` its Muglus leave the board."""
    st.out[seat] = reason
    if st.config.out_pieces == "remove":
        fields = st.fields
        for c, code in enumerate(fields):
            if code > 0 and COUNT[code][seat]:
                for size in SIZES_OF[code][seat]:
                    st.boxed[3 * seat + size] += 1
                fields[c] = STRIP[code][seat]


def _game_over(st: ArktiaStateData) -> None:
    st.step = OVER
    st.player = -1
    st.pending_keep = []
    st._legal = []

"""Arktia's rules (docs/arktia-rules.md §5–§10): set-up, the opening rounds, turns, removals, melting, the
end.

Three entry points work on ``ArktiaStateData``: ``setup`` (the empty continent, then the neutral set-up or
the first turn), ``legal_actions`` (the single source of legality) and ``apply_action`` (one decision, then
every automatic consequence until the next decision: removals without a choice, the end conditions, the
next seat's turn).

A turn (docs/arktia-rules.md §7): the seat places or moves (or stops, 10(d)); cut-off Muglus are removed, the
mover choosing the survivor among tied groups (``KEEP`` steps, one per colour); a seat whose supply is empty
melts a field (``MELT``) or is out (10(b)); then (c) is checked for everybody and the next active seat begins,
unless it can neither place nor move (10(a)). There is no chance: the game is deterministic.
"""

from __future__ import annotations

from floe.games.arktia.actions import N_MOVER_KINDS, PLACE, STOP, ActionSpace
from floe.games.arktia.bitsets import ACCEPTING, FREE, HOLES, N_SETS, SHAPE_AT, TOP_AT, current, put
from floe.games.arktia.board import MAX_CELLS, bits, component, components
from floe.games.arktia.config import ArktiaConfig
from floe.games.arktia.native import MOVEGEN
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
    COLOURS,
    COUNT,
    DROP_OK,
    EMPTY,
    HOLE,
    LIFTS,
    MASK,
    N_CODES,
    N_COLOURS,
    NEUTRAL,
    PIECES_PER_SIZE,
    SIZES_OF,
    SLOT_BITS,
    STRIP,
)

OPENING_TURNS = 2  # rounds 1 and 2 are placements only (docs/arktia-rules.md §5.3, §5.4)


def _lift_plans(p: int) -> list[tuple[tuple[int, int, bool], ...]]:
    # For each field code: (mover mask, mover mask - 1, whether an own piece stays on the field) for every
    # mover that may be lifted from it (towers.LIFTS), so move generation reads one table entry per field.
    out = []
    for code in range(N_CODES):
        plan = []
        for mover in LIFTS[MASK[code]]:
            left = code & ~SLOT_BITS[mover]
            plan.append((mover, mover - 1, left > 0 and COUNT[left][p] > 0))
        out.append(tuple(plan))
    return out


# PLACE_IDS[sizes in supply as a mask][cell]: the ids of placing each of those sizes on the cell, ascending.
PLACE_IDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(PLACE + 3 * c + s for s in range(3) if sizes >> s & 1) for c in range(MAX_CELLS))
    for sizes in range(8)
)

# LIFT_PLANS[seat][code], read only for fields the seat tops.
LIFT_PLANS: tuple[list[tuple[tuple[int, int, bool], ...]], ...] = tuple(map(_lift_plans, range(N_COLOURS)))

if MOVEGEN is not None:
    # The C move generator reads the same tables (native.py); it knows no rule of its own.
    MOVEGEN.configure(
        [LIFTS[m] for m in range(8)], DROP_OK, SLOT_BITS, TOP_AT, SHAPE_AT, FREE, HOLES, N_SETS, PLACE
    )


# --- set-up -------------------------------------------------------------------------------------------------
def setup(st: ArktiaStateData, config: ArktiaConfig, space: ActionSpace) -> None:
    """The empty continent, the supplies, and the first decision (a neutral placement or the first turn)."""
    n = config.players
    st.config = config
    st.space = space
    st.n = n
    st.fields = [EMPTY] * space.size
    st._bits_of = None
    current(st)
    st.supply = [PIECES_PER_SIZE] * (3 * n)
    # Each seat places one neutral Muglu of each size: 6 in all for 2 players, 9 for 3
    # (docs/arktia-rules.md §5.2, §12).
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
    sets = current(st)
    neutral = sets[NEUTRAL]
    free = sets[FREE]
    targets = _adjacent(st, neutral) & free if neutral else free
    sizes = [s for s in range(3) if st.neutral_supply[3 * seat + s]]
    sp = st.space
    return [sp.neutral(c, s) for c in bits(targets) for s in sizes]


# --- masks --------------------------------------------------------------------------------------------------
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
    current(st)  # rebuilds the bit sets if ``fields`` was replaced from outside
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
    """Seat ``p``'s placements and moves (opening rounds: placements under their rule, docs/arktia-rules.md
    §5), ascending: from the C move generator where it is built (native.py), else ``python_main_actions``."""
    geometry = st.space.native
    turns = st.turns[p]
    if geometry is None or MOVEGEN is None or turns == 0:
        return python_main_actions(st, p)
    supply = st.supply
    k = 3 * p
    sizes = (supply[k] > 0) | (supply[k + 1] > 0) << 1 | (supply[k + 2] > 0) << 2
    ids: list[int] = MOVEGEN.main_actions(geometry, st.fields, current(st), p, sizes, turns >= OPENING_TURNS)
    return ids


def python_main_actions(st: ArktiaStateData, p: int) -> list[int]:
    """``main_actions`` in Python: the reference the C move generator is tested against."""
    sets = current(st)
    free = sets[FREE]
    turns = st.turns[p]
    layout = st.space.layout
    if turns == 0:
        # Round 1: next to any occupied field; the very first Muglu anywhere (docs/arktia-rules.md §5.3).
        occupied = layout.full & ~sets[HOLES] & ~free
        targets = _adjacent(st, occupied) & free if occupied else free
        return _placements(st, p, targets)
    own = sets[p]
    # One walk over the own colour's groups gives all the fields next to it (``adjacent``), those next to
    # two or more of its fields (``twice``, exact when the colour is one group), and where a mover may land
    # if it leaves the groups as they are: in or next to every group (``near_own``).
    nb = layout.nb_mask
    adjacent = twice = 0
    near_own = layout.full
    n_groups = 0
    rest = own
    while rest:
        comp = frontier = rest & -rest
        touch = 0
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            m = nb[low.bit_length() - 1]
            twice |= touch & m
            touch |= m
            new = m & own & ~comp
            comp |= new
            frontier |= new
        adjacent |= touch
        near_own &= comp | touch
        rest &= ~comp
        n_groups += 1
    # docs/arktia-rules.md §6(a): next to a field holding an own Muglu
    places = _placements(st, p, adjacent & free)
    if turns < OPENING_TURNS:
        return places
    return places + _moves(st, p, own, adjacent, twice if n_groups == 1 else -1, near_own)


def _placements(st: ArktiaStateData, p: int, targets: int) -> list[int]:
    supply = st.supply
    k = 3 * p
    sizes = (supply[k] > 0) | (supply[k + 1] > 0) << 1 | (supply[k + 2] > 0) << 2
    if not sizes:
        return []
    ids = PLACE_IDS[sizes]
    out: list[int] = []
    while targets:
        low = targets & -targets
        targets ^= low
        out += ids[low.bit_length() - 1]
    return out


def _moves(st: ArktiaStateData, p: int, own: int, adjacent: int, twice: int, near_own: int) -> list[int]:
    # Spec 6(b): lift a top part of an own-topped stack, go straight any distance over existing fields,
    # land where the tower table allows, and leave the own colour in one connected group. As bit sets:
    # the fields a mover may reach from ``src`` (its six rays, each up to the first hole,
    # docs/arktia-rules.md §3.2), the
    # fields accepting it, and the fields in or next to every group the own colour leaves behind.
    # ``twice`` is -1 unless the own colour is one group.
    sets = st._bits
    tops = sets[TOP_AT + p]
    if not tops:
        return []
    layout = st.space.layout
    move_ids = st.space.move_ids
    fields = st.fields
    holes = sets[HOLES]
    nb = layout.nb_mask
    one_arc = layout.one_arc
    reach_of = layout.reach
    reach_memo = layout._reach_cache
    near_memo = layout._near_cache
    connected = twice >= 0
    # by mover: the fields that may receive it (docs/arktia-rules.md §4.3), when first needed
    accepts = [-1] * 8
    plans = LIFT_PLANS[p]
    out: list[int] = []
    append = out.append
    while tops:
        bit = tops & -tops
        tops ^= bit
        src = bit.bit_length() - 1
        reach = reach_of[src]
        if reach & holes:  # the memo read inline: most of these are hits
            reach = reach_memo.get((holes & reach) << 6 | src) or layout.reach_around(src, holes & reach)
        ids = move_ids[src]
        near_without = -1  # where a mover that takes the last own piece off src may land; when needed
        for mover, kind, stays in plans[fields[src]]:
            if stays:
                near = near_own
            else:
                if near_without < 0:
                    without = own ^ bit
                    if not without:
                        near_without = reach  # the whole colour moves: anywhere it may land
                    elif connected and nb[src] & without in one_arc[src]:
                        # When the own colour is one group, taking away a field whose own neighbours lie
                        # in one arc around it leaves one group; next to it: the fields next to another
                        # own field than src (those next to src only if next to a second own field).
                        m = nb[src]
                        near_without = without | adjacent & ~m | twice & m
                    else:
                        near_without = near_memo.get(without) or layout.near_every_group(without)
                near = near_without
            acc = accepts[mover]
            if acc < 0:
                acc = 0
                for j in ACCEPTING[mover]:
                    acc |= sets[j]
                accepts[mover] = acc
            targets = reach & acc & near
            while targets:
                low = targets & -targets
                targets ^= low
                append(ids[low.bit_length() - 1] + kind)
    out.sort()
    return out


def groups(st: ArktiaStateData, colour: int) -> list[tuple[int, int]]:
    """(field bit set, number of Muglus) of each connected group of ``colour``, by lowest field
    (docs/arktia-rules.md §8)."""
    fields = st.fields
    out = []
    for comp in components(st.space.layout.nb_mask, current(st)[colour]):
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
    """(fields that may melt, whether any free edge field exists at all) (docs/arktia-rules.md §9).

    A field may melt when it holds no Muglu, has fewer than 6 existing neighbours (an edge, holes
    included) and the remaining fields stay one region.
    """
    layout = st.space.layout
    nb = layout.nb_mask
    sets = current(st)
    ice = layout.full & ~sets[HOLES]
    connected, edge = layout.ice_facts(ice)
    candidates = sets[FREE] & edge
    one_arc = layout.one_arc
    out = []
    for c in bits(candidates):
        # A field whose ice neighbours lie in one arc around it cannot split a connected continent.
        if (connected and nb[c] & ice in one_arc[c]) or layout.is_connected(ice & ~(1 << c)):
            out.append(c)
    return out, candidates != 0


# --- applying decisions -------------------------------------------------------------------------------------
def apply_action(st: ArktiaStateData, action: int) -> None:
    """Apply a legal action and every automatic consequence up to the next decision."""
    st.history.append(action)
    st._legal = None
    fields = st.fields
    sets = current(st)
    sp = st.space
    p = st.player
    step = st.step
    if step == NEUTRAL_SETUP:
        cell, size = divmod(action - sp.NEUTRAL, 3)
        put(fields, sets, cell, (NEUTRAL + 1) << 3 * size)
        st.neutral_supply[3 * p + size] -= 1
        _continue_setup(st, (p + 1) % st.n)
    elif step == TURN:
        if action == STOP:
            retire(st, p, OUT_STOPPED)
            _end_turn(st)
        elif action < sp.NEUTRAL:
            # Placing never disconnects anything, so no removal check is needed.
            cell, size = divmod(action - 1, 3)
            put(fields, sets, cell, (p + 1) << 3 * size)
            st.supply[3 * p + size] -= 1
            _melt_or_end(st)
        else:
            line, kind = divmod(action - sp.MOVE, N_MOVER_KINDS)  # as ActionSpace.decode_move, inline
            src, dst = sp.layout.lines[line]
            mover = kind + 1
            code = fields[src]
            moving = code & SLOT_BITS[mover]
            put(fields, sets, src, code & ~SLOT_BITS[mover])
            put(fields, sets, dst, fields[dst] | moving)
            # Only the colours carried under the top piece changed place, so only they can be cut off
            # (docs/arktia-rules.md §8); the mover's own colour stays connected (that is what made the move
            # legal).
            carried = COLOURS[moving] & ~(1 << p)
            while carried:  # usually none: a lone piece or an own stack moved
                low = carried & -carried
                carried ^= low
                _remove_cut_off(st, low.bit_length() - 1)
            _after_removals(st)
    elif step == KEEP:
        colour, cell = divmod(action - sp.KEEP, sp.size)
        _remove_groups(st, colour, [comp for comp, _ in groups(st, colour) if not comp >> cell & 1])
        st.pending_keep.pop(0)
        _after_removals(st)
    elif step == MELT:
        cell = action - sp.MELT
        sp.layout.melted(sp.layout.full & ~sets[HOLES], cell)
        put(fields, sets, cell, HOLE)
        st.melted[p] += 1
        _end_turn(st)
    else:
        raise ValueError("the game is over")


def _remove_cut_off(st: ArktiaStateData, colour: int) -> None:
    mask = st._bits[colour]
    if component(st.space.layout.nb_mask, mask, mask & -mask) == mask:
        return  # still one group (or none)
    found = groups(st, colour)
    if len(found) < 2:
        return
    best = max(size for _, size in found)
    largest = [comp for comp, size in found if size == best]
    if len(largest) > 1:
        st.pending_keep.append(colour)  # the mover chooses the survivor (docs/arktia-rules.md §8)
        return
    _remove_groups(st, colour, [comp for comp, _ in found if comp != largest[0]])


def _remove_groups(st: ArktiaStateData, colour: int, comps: list[int]) -> None:
    # The mover takes the removed Muglus; what is left on each field re-settles (towers.STRIP).
    fields = st.fields
    sets = st._bits
    lost = st.lost
    taken = 0
    for comp in comps:
        for c in bits(comp):
            code = fields[c]
            for size in SIZES_OF[code][colour]:
                lost[3 * colour + size] += 1
            taken += COUNT[code][colour]
            put(fields, sets, c, STRIP[code][colour])
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
            retire(st, p, OUT_NO_MELT)  # docs/arktia-rules.md §10(b)
    _end_turn(st)


def _end_turn(st: ArktiaStateData) -> None:
    p = st.player
    turns = st.turns
    out = st.out
    turns[p] += 1
    st.turn += 1
    if min(turns) >= OPENING_TURNS or all(out[q] != ACTIVE or turns[q] >= OPENING_TURNS for q in range(st.n)):
        # Spec 10(c) [GUESS]: from the end of round 2 on, after every turn, whoever moved.
        sets = st._bits
        for q in range(st.n):
            if out[q] == ACTIVE:
                # At most one Muglu: at most one field holds the colour, and it holds at most one of them.
                mask = sets[q]
                if not mask & (mask - 1) and (not mask or COUNT[st.fields[mask.bit_length() - 1]][q] <= 1):
                    retire(st, q, OUT_ONE_PIECE)
    nxt = next_active(st, p)
    if nxt < 0:
        _game_over(st)
        return
    st.player = nxt
    begin_turn(st)


def begin_turn(st: ArktiaStateData) -> None:
    """Start ``st.player``'s turn: its legal actions, its melt duty; or, if it can neither place nor move,
    end its game (docs/arktia-rules.md §10(a)) and go on to the next active seat. Also ends the game at the
    turn limit."""
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
        sets = current(st)
        for c in bits(sets[seat]):
            code = fields[c]
            for size in SIZES_OF[code][seat]:
                st.boxed[3 * seat + size] += 1
            put(fields, sets, c, STRIP[code][seat])


def _game_over(st: ArktiaStateData) -> None:
    st.step = OVER
    st.player = -1
    st.pending_keep = []
    st._legal = []

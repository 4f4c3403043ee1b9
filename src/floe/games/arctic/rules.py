"""Arctic's rules: setup, steps A, B and C, the powers, the end of the game (spec sections 4–7).

Three entry points work on ``ArcticStateData``: ``setup`` (the empty table and its chance jobs),
``legal_actions`` (the single source of legality) and ``apply_action`` (one action, then ``settle``, which
runs every automatic transition until a decision or a chance event is due).

Powers: an A power counts only if held since the start of the turn (``held_at_start``); a B or C power
counts if held now, so one taken in this turn's A6 works at once (spec 6.1).
"""

from __future__ import annotations

from bisect import insort

from floe.games.arctic import actions as act
from floe.games.arctic.cards import (
    COMPANION,
    DECK_CARDS,
    DRAW,
    LAST_POSITION,
    MAIN,
    N_ANIMALS,
    PLACEMENT,
    START_POSITION,
    WALRUS,
)
from floe.games.arctic.config import RulesConfig
from floe.games.arctic.state import (
    CARD_JOBS,
    DISCARD,
    EXTRA,
    FACE_DOWN_FLAG,
    GIVE,
    IN_HAND,
    J_BLIND_DRAW,
    J_BLIND_GIVE,
    J_DECKS,
    J_FIRST,
    J_HAND,
    J_PENALTY,
    J_RIVER,
    J_SIDE,
    J_TOTEM,
    MOVE,
    OVER,
    PLACE,
    REFILLED,
    SETUP,
    SWAP_RIVER,
    TAKE_POWER,
    ArcticStateData,
    visible_card,
)
from floe.games.arctic.state import (
    DRAW as STEP_DRAW,
)

CHANCE = -1
TERMINAL = -2
HAND_LIMIT = 7
RIVER_SIZE = 6
HAND_START = 3

# Decks-in-play masks for n players when decks are chosen at random.
DECK_MASKS: dict[int, tuple[int, ...]] = {
    n: tuple(m for m in range(1, 16) if bin(m).count("1") == n) for n in (2, 3, 4)
}


def setup(st: ArcticStateData, config: RulesConfig, n: int) -> None:
    """Lay out the empty table for ``n`` players and queue setup's chance events (spec section 4)."""
    st.config = config
    st.n = n
    st.tokens = [START_POSITION] * N_ANIMALS
    st.river = []
    st.deck = []
    st.holder = [-1] * N_ANIMALS
    st.totems = [-1] * n
    st.powers = [config.power_id(a) or 0 for a in range(N_ANIMALS)]
    st.turns = [0] * n
    st.known = [0] * 120
    st.pushes = [0] * (N_ANIMALS * n)
    st.history = []
    st.hands = [[] for _ in range(n)]
    st.piles = [[] for _ in range(n)]
    st.penalties = [[] for _ in range(n)]
    st.first = -1 if config.first_player is None else config.first_player
    st.reserve_left = 5 * (n - 1)
    st.decks_mask = 0
    st.round = 0
    st.end_triggered = False
    st.trigger_player = -1
    st.final_round = False
    st.player = -1
    st.step = SETUP
    st.to_act = CHANCE
    st.held_at_start = 0
    st.p_value = st.t_min = st.t_max = st.placed = 0
    st.closed = st.puffin_used = st.give_used = False
    st.swap_card = -1
    st.n_min = st.n_max = st.drawn = 0
    st.walrus_token = st.walrus_dir = 0
    st._legal = None
    st._scores = None
    pending: list[tuple[int, int, int]] = []
    if n == 4 or config.deck_selection == "first_n":
        _use_decks(st, (1 << n) - 1)
    else:
        pending.append((J_DECKS, 0, 0))
    pending += [(J_SIDE, a, 0) for a in range(N_ANIMALS) if not st.powers[a]]
    pending += [(J_TOTEM, seat, 0) for seat in range(n)]
    if st.first < 0:
        pending.append((J_FIRST, 0, 0))
    pending += [(J_HAND, seat, 0) for seat in range(n) for _ in range(HAND_START)]
    pending += [(J_RIVER, 0, 0)] * RIVER_SIZE
    st.pending = pending


def _use_decks(st: ArcticStateData, mask: int) -> None:
    st.decks_mask = mask
    st.deck = sorted(c for k in range(4) if mask >> k & 1 for c in DECK_CARDS[k])


# --- powers --------------------------------------------------------------------------------------------


def has_a_power(st: ArcticStateData, power: int) -> bool:
    """An A power: in play and held by the player since the start of this turn."""
    animal = power // 10 - 1
    return st.powers[animal] == power and st.held_at_start >> animal & 1 == 1


def has_power(st: ArcticStateData, power: int) -> bool:
    """A B or C power: in play and held by the player now."""
    animal = power // 10 - 1
    return st.powers[animal] == power and st.holder[animal] == st.player


# --- legality ------------------------------------------------------------------------------------------


def legal_actions(st: ArcticStateData) -> list[int]:
    """Every legal action id, ascending: chance outcomes at a chance node, nothing at the end."""
    step = st.step
    if st.to_act == TERMINAL:
        return []
    if st.to_act == CHANCE:
        return chance_actions(st)
    p = st.player
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
        return [act.PASS, *_give_actions(st, p)]
    return []


def _place_actions(st: ArcticStateData, p: int) -> list[int]:
    hand = st.hands[p]
    k = st.placed
    out: list[int] = []
    pre = k == 0 and not st.puffin_used
    pile = st.piles[p]
    has_visible = bool(pile) and pile[-1] < FACE_DOWN_FLAG
    take_back = pre and has_visible and has_a_power(st, 52)
    if (hand and st.t_min <= k < st.t_max) or (not hand and _pre_placement_open(st, p)):
        out.append(act.STOP)
    if take_back:
        out.append(act.TAKE_BACK)
    give_now = st.config.bear_give_step == "A" and k == 0 and not st.give_used and has_a_power(st, 62)
    if give_now and st.penalties[p] and not st.config.owner_sees_penalties:
        out += [act.GIVE_BLIND + q for q in range(st.n) if q != p]
    if hand and k < st.t_max:
        out += [act.PLACE + c for c in hand]
        fox = 11 if has_a_power(st, 11) else 12 if has_a_power(st, 12) else 0
        if (
            fox
            and has_visible
            and (k + 1 >= st.t_min or len(hand) == 1)
            and not (st.config.fox_first_card_bga_limit and k == 0 and st.p_value > 1)
        ):
            base = act.FACEDOWN if fox == 11 else act.UNDER
            out += [base + c for c in hand]
    if pre and hand and st.river and has_a_power(st, 51):
        out += [act.SWAP + c for c in hand]
    if give_now and st.penalties[p] and st.config.owner_sees_penalties:
        out += _give_actions(st, p)
    return out


def _pre_placement_open(st: ArcticStateData, p: int) -> bool:
    """Whether a pre-placement power could still be used with an empty hand (take-back or an A-step give)."""
    if st.placed:
        return False
    pile = st.piles[p]
    if not st.puffin_used and pile and pile[-1] < FACE_DOWN_FLAG and has_a_power(st, 52):
        return True
    return (
        st.config.bear_give_step == "A" and not st.give_used and bool(st.penalties[p]) and has_a_power(st, 62)
    )


def _placement_done(st: ArcticStateData) -> bool:
    if st.closed or st.placed >= st.t_max:
        return True
    return not st.hands[st.player] and not _pre_placement_open(st, st.player)


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
    if st.n_min <= st.drawn < st.n_max:
        out.append(act.STOP)
    if st.deck and has_power(st, 42):
        out.append(act.DRAW_DECK)
    bear = st.penalties[p] and has_power(st, 61)
    if bear and not st.config.owner_sees_penalties:
        out.append(act.PENALTY_BLIND)
    out += [act.RIVER + c for c in st.river]
    if bear and st.config.owner_sees_penalties:
        out += [act.PENALTY + c for c in st.penalties[p]]
    return out


def _draw_sources(st: ArcticStateData, p: int) -> bool:
    if st.river:
        return True
    if st.deck and has_power(st, 42):
        return True
    return bool(st.penalties[p]) and has_power(st, 61)


def _give_actions(st: ArcticStateData, p: int) -> list[int]:
    if not st.config.owner_sees_penalties:
        return [act.GIVE_BLIND + q for q in range(st.n) if q != p]
    others = [q for q in range(st.n) if q != p]
    return [act.GIVE + 4 * c + q for c in st.penalties[p] for q in others]


def _give_available(st: ArcticStateData) -> bool:
    return (
        st.config.bear_give_step == "C"
        and not st.give_used
        and bool(st.penalties[st.player])
        and has_power(st, 62)
    )


# --- chance --------------------------------------------------------------------------------------------


def chance_actions(st: ArcticStateData) -> list[int]:
    """The outcome ids of the pending chance job, ascending."""
    kind, a, _ = st.pending[0]
    if kind in CARD_JOBS:
        return [act.CARD + c for c in st.deck]
    if kind in (J_BLIND_DRAW, J_BLIND_GIVE):
        return [act.CARD + c for c in st.penalties[a]]
    if kind == J_DECKS:
        return [act.DECKS + m for m in DECK_MASKS[st.n]]
    if kind == J_SIDE:
        return [act.SIDE + act.POWER_IDS.index(10 * (a + 1) + side) for side in (1, 2)]
    if kind == J_TOTEM:
        return [act.TOTEM + t for t in range(N_ANIMALS) if t not in st.totems]
    return [act.FIRST + seat for seat in range(st.n)]


def apply_chance(st: ArcticStateData, action: int) -> None:
    """Resolve the pending chance job with outcome ``action``."""
    kind, a, b = st.pending.pop(0)
    if kind in CARD_JOBS:
        card = action - act.CARD
        _take_from_deck(st, card)
        if kind == J_HAND:
            insort(st.hands[a], card)
        elif kind == J_RIVER:
            insort(st.river, card)
        else:
            insort(st.penalties[a], card)
    elif kind == J_BLIND_DRAW:
        card = action - act.CARD
        st.penalties[a].remove(card)
        insort(st.hands[a], card)
    elif kind == J_BLIND_GIVE:
        card = action - act.CARD
        st.penalties[a].remove(card)
        insort(st.penalties[b], card)
    elif kind == J_DECKS:
        _use_decks(st, action - act.DECKS)
    elif kind == J_SIDE:
        st.powers[a] = act.POWER_IDS[action - act.SIDE]
    elif kind == J_TOTEM:
        st.totems[a] = action - act.TOTEM
    else:
        st.first = action - act.FIRST


def _take_from_deck(st: ArcticStateData, card: int) -> None:
    st.deck.remove(card)
    if st.end_triggered:
        return
    if st.reserve_left > len(st.deck):
        # Only under end_trigger="bga": the draw went past the main deck into the reserve before the
        # end-of-turn check noticed (spec 7.1, D3).
        st.reserve_left = len(st.deck)
    if st.config.end_trigger == "deck_emptied" and len(st.deck) == st.reserve_left:
        _trigger_end(st)


def _trigger_end(st: ArcticStateData) -> None:
    """The main deck is done: the reserve becomes the deck and this round is the last normal one."""
    st.end_triggered = True
    st.trigger_player = st.player
    st.reserve_left = 0


def _bga_refill_check(st: ArcticStateData) -> None:
    # BGA's test on entering its refill routine: main deck <= 1 card triggers the end (spec 7.1).
    if st.config.end_trigger == "bga" and not st.end_triggered and len(st.deck) - st.reserve_left <= 1:
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
    p = st.player
    step = st.step
    if action == act.STOP:
        if step == PLACE:
            st.closed = True
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
        st.pending.append((J_HAND, p, 0))
    elif action == act.PENALTY_BLIND:
        st.drawn += 1
        st.pending.append((J_BLIND_DRAW, p, 0))
    elif act.GIVE_BLIND <= action < act.GIVE_BLIND + 4:
        to = action - act.GIVE_BLIND
        st.pending.append((J_BLIND_GIVE, p, to))
        _after_give(st, p, to)
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
        st.closed = True
    elif action < act.SWAP:
        card = action - act.FACEDOWN
        st.hands[p].remove(card)
        pile = st.piles[p]
        pile.insert(len(pile) - 1, card + FACE_DOWN_FLAG)
        _hide_hand_outflow(st, p)
        st.placed += 1
        st.closed = True
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
            if has_power(st, 41):
                _bga_refill_check(st)
                st.pending += [(J_RIVER, 0, 0)] * (RIVER_SIZE - len(st.river))
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
                    and len(st.deck) == st.reserve_left
                ):
                    _trigger_end(st)
                if not st.deck:
                    # Deck and reserve are both exhausted: the draw is skipped (spec 5.4, D4).
                    st.pending.pop(0)
                    continue
            st.to_act = CHANCE
            return
        step = st.step
        if step == PLACE:
            if _placement_done(st):
                _finish_placement(st)
                continue
            st.to_act = st.player
            return
        if step == TAKE_POWER:
            _take_power_and_move(st)
            continue
        if step == STEP_DRAW:
            if st.drawn >= st.n_max or not _draw_sources(st, st.player):
                _end_drawing(st)
                continue
            st.to_act = st.player
            return
        if step == REFILLED:
            st.step = DISCARD
            continue
        if step == DISCARD:
            if len(st.hands[st.player]) > HAND_LIMIT:
                st.to_act = st.player
                return
            st.step = GIVE
            continue
        if step == GIVE:
            if _give_available(st):
                st.to_act = st.player
                return
            _end_turn(st)
            continue
        if step == SETUP:
            st.round = 1
            _start_turn(st, st.first)
            continue
        if step == OVER:
            st.to_act = TERMINAL
            return
        st.to_act = st.player  # SWAP_RIVER, MOVE, EXTRA: a decision
        return


def _start_turn(st: ArcticStateData, seat: int) -> None:
    st.player = seat
    held = 0
    for animal in range(N_ANIMALS):
        if st.holder[animal] == seat:
            held |= 1 << animal
    st.held_at_start = held
    st.placed = 0
    st.closed = st.puffin_used = st.give_used = False
    st.swap_card = -1
    st.drawn = 0
    st.step = PLACE
    _set_placement_target(st)


def _set_placement_target(st: ArcticStateData) -> None:
    """P and the allowed targets T (spec A2, A3, D12), from the current visible card."""
    top = visible_card(st.piles[st.player])
    p_value = PLACEMENT[top] if top >= 0 else 1
    st.p_value = p_value
    if has_a_power(st, 22):
        if top >= 0:
            st.t_min, st.t_max = max(0, p_value - 1), p_value + 1
        else:
            st.t_min, st.t_max = 1, 2 if st.config.moose_no_visible == "one_or_two" else 1
    else:
        st.t_min = st.t_max = p_value


def _finish_placement(st: ArcticStateData) -> None:
    """A5: a hand that ran out before the target draws the shortfall as penalty cards."""
    short = st.t_min - st.placed
    if short > 0:
        st.pending += [(J_PENALTY, st.player, 0)] * short
    st.step = TAKE_POWER


def _take_power_and_move(st: ArcticStateData) -> None:
    """A6, then step B's base move: a decision only when neither token is on an edge (spec 5.2)."""
    p = st.player
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
    if st.holder[WALRUS] == st.player:
        if st.powers[WALRUS] == 31:
            st.walrus_token, st.walrus_dir = MAIN[top], main_delta
        else:
            st.walrus_token, st.walrus_dir = COMPANION[top], comp_delta
        st.step = EXTRA
    else:
        _begin_draw(st)


def _begin_draw(st: ArcticStateData) -> None:
    if st.final_round:
        _end_turn(st)  # the final round is steps A and B only (spec 7.3)
        return
    top = visible_card(st.piles[st.player])
    n_draw = DRAW[top] if top >= 0 else 0
    if has_power(st, 21):
        st.n_min, st.n_max = max(0, n_draw - 1), n_draw + 1
    else:
        st.n_min = st.n_max = n_draw
    st.drawn = 0
    st.step = STEP_DRAW


def _end_drawing(st: ArcticStateData) -> None:
    """C3: refill the river (the end may trigger here); then C4 discards and C5 the Bear gift."""
    _bga_refill_check(st)
    missing = RIVER_SIZE - len(st.river)
    if missing > 0:
        st.pending += [(J_RIVER, 0, 0)] * missing
    st.step = REFILLED


def _end_turn(st: ArcticStateData) -> None:
    p = st.player
    st.turns[p] += 1
    nxt = (p + 1) % st.n
    if nxt == st.first:
        if st.final_round:
            st.step = OVER
            return
        st.round += 1
        if st.end_triggered:
            st.final_round = True
    _start_turn(st, nxt)

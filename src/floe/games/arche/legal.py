"""Arche's legality, the one source of it: the turn's decisions, the decision jobs and the chance outcomes.

``legal_actions(state)`` lists the legal ids in ascending order. Plays are generated cabin by cabin from
bit masks: the hand's cards that fit the scale on that side (``config.fit``), that every card of the
cabin accepts (``config.cabin_ok``, the tabulated predicate of docs/arche-rules.md §7.3) and, for shy animals,
whose neighbouring cabins hold no carnivore. A play's id is ``play + slot * n + card``, so the ids of one
cabin follow each other; the tuple of a (slot, cards) pair is memoised, since random play and search meet the
same hands and cabins again and again.
"""

from __future__ import annotations

from floe.games.arche import actions as act
from floe.games.arche.cards import NONE, PROVISIONS
from floe.games.arche.config import MAX_ROW, MAX_TILT, NEW_LEFT, NEW_RIGHT, RulesConfig
from floe.games.arche.state import (
    ENDGAME,
    J_CHIMP,
    J_DEAL,
    J_DISCARD,
    J_DRAW,
    J_EVICT,
    J_FIGURE,
    J_FIRST,
    J_OPEN,
    J_PET,
    J_REFILL,
    J_TAKE,
    SECOND,
    START,
    ArcheStateData,
    bits,
)

CHANCE = -1
TERMINAL = -2
N_SCORING = PROVISIONS + 1
_MEMO_LIMIT = 200_000  # emitted id tuples kept per configuration before the memo starts afresh


def legal_actions(st: ArcheStateData) -> list[int]:
    """Every legal action id, ascending: chance outcomes at a chance node, nothing at the end."""
    if st.to_act == TERMINAL:
        return []
    if st.pending:
        kind, seat, arg = st.pending[0]
        if st.to_act == CHANCE:
            return chance_actions(st)
        return job_actions(st, kind, seat, arg)
    p = st.turn_player
    phase = st.phase
    out: list[int] = []
    if phase == START:
        display = st.display
        if display:
            draws = st.config.draw_cache.get(display)
            if draws is None:
                base = st.config.space.draw
                draws = st.config.draw_cache[display] = tuple(base + c for c in bits(display))
            out += draws
        else:
            out.append(act.DRAW_TOP)
        plays(st, p, st.hands[p], out, second=False)
    elif phase == SECOND:
        out.append(act.DONE)
        plays(st, p, st.hands[p] & ~st.config.solo_mask, out, second=True)
    elif phase == ENDGAME:
        out.append(act.PASS)
        if st.chips[p] >= 1:
            plays(st, p, st.hands[p] & ~st.config.solo_mask, out, second=False)
    return out


def scary(row: list[int], other: list[int], i: int, scare: int, opposite: bool) -> bool:
    """Whether cabin ``i`` of ``row`` (or a new cabin at ``i == len(row)``) has a carnivore next to it:
    before or after it in its row, or (``opposite``) at the same place in the other row."""
    if i > 0 and row[i - 1] & scare:
        return True
    if i + 1 < len(row) and row[i + 1] & scare:
        return True
    return opposite and i < len(other) and bool(other[i] & scare)


def can_open(st: ArcheStateData, p: int) -> bool:
    """Whether seat ``p`` has the chips to open a new cabin (docs/arche-rules.md §6 1b; in the end-game one
    more, 10)."""
    need = 2 if st.phase == ENDGAME else 1
    if st.config.options["open_without_chips"]:
        need -= 1
    return st.chips[p] >= need


def _emit(cfg: RulesConfig, out: list[int], slot: int, m: int) -> None:
    """Append the play ids of the cards in mask ``m`` into ``slot`` (ascending), through the memo."""
    key = m | slot << 64
    memo = cfg.ids_cache
    ids = memo.get(key)
    if ids is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        start = cfg.space.play + slot * cfg.deck.n
        ids = memo[key] = tuple(start + c for c in bits(m))
    out += ids


def plays(st: ArcheStateData, p: int, hand: int, out: list[int], *, second: bool) -> None:
    """Append the plays of the cards in ``hand`` (ascending ids): into each cabin, into a new cabin, and
    the evictions."""
    if not hand:
        return
    cfg = st.config
    opts = cfg.options
    tilt = st.tilt
    fit = cfg.fit
    lw = hand & fit[MAX_TILT - tilt]
    rw = hand & fit[MAX_TILT + tilt]
    if second and opts["second_card_scale"] == "both":
        lw &= fit[MAX_TILT - st.tilt_start]
        rw &= fit[MAX_TILT + st.tilt_start]
    left, right = st.left, st.right
    shy = cfg.shy_mask
    scare = cfg.scare_mask
    opposite = cfg.opposite
    skip = st.first_slot if second else -1
    forced: dict[int, int] = {}
    evictions: dict[int, list[int]] = {}
    if hand & cfg.evicter_mask and cfg.own_cabin and (st.phase != ENDGAME or opts["endgame_abilities"]):
        _evictions(st, hand, second, skip, evictions, forced)
    join = cfg.join_cache
    memo = cfg.ids_cache
    for row, other, allowed, offset in ((left, right, lw, 0), (right, left, rw, MAX_ROW)):
        if not allowed:
            continue
        i = -1
        for cab in row:
            i += 1
            ok = join.get(cab)
            if ok is None:
                ok = cfg.joinable(cab)
            m = allowed & ok
            if not m:
                continue
            slot = offset + i
            if slot == skip:
                continue
            if m & shy and scary(row, other, i, scare, opposite):
                m &= ~shy
            if forced:
                m &= ~forced.get(slot, 0)
            if m:
                # _emit inlined: this loop is the hottest of random play and search
                ids = memo.get(m | slot << 64)
                if ids is None:
                    _emit(cfg, out, slot, m)
                else:
                    out += ids
    if can_open(st, p):
        for slot, row, other, allowed in ((NEW_LEFT, left, right, lw), (NEW_RIGHT, right, left, rw)):
            if not allowed or len(row) >= MAX_ROW:
                continue
            m = allowed
            if m & shy and scary(row, other, len(row), scare, opposite):
                m &= ~shy
            if m:
                ids = memo.get(m | slot << 64)
                if ids is None:
                    _emit(cfg, out, slot, m)
                else:
                    out += ids
    if evictions:
        n = cfg.deck.n
        ebase = cfg.space.evict
        for e in sorted(evictions):
            start = ebase + cfg.evict_index[e] * n
            out += [start + t for t in sorted(evictions[e])]


def _evictions(
    st: ArcheStateData,
    hand: int,
    second: bool,
    skip: int,
    evictions: dict[int, list[int]],
    forced: dict[int, int],
) -> None:
    """The legal own-cabin evictions of the evicters in ``hand`` (docs/arche-rules.md §9.1): the evicter takes
    the place of a card it may evict, fitting the cabin without that card and the scale with the weights
    exchanged. With ``eviction=mandatory`` an evicter that can evict in a cabin may not enter it otherwise
    (``forced``)."""
    cfg = st.config
    opts = cfg.options
    mandatory = opts["eviction"] == "mandatory"
    weight = cfg.weight
    both = second and opts["second_card_scale"] == "both"
    for e in cfg.deck.evicters:
        if not hand >> e & 1:
            continue
        targets = cfg.targets[e]
        we = weight[e]
        shy_e = cfg.shy_mask >> e & 1
        for sign, row, other, offset in ((1, st.left, st.right, 0), (-1, st.right, st.left, MAX_ROW)):
            for i, cab in enumerate(row):
                cand = cab & targets
                if not cand or offset + i == skip:
                    continue
                if shy_e and scary(row, other, i, cfg.scare_mask, cfg.opposite):
                    continue
                for t in bits(cand):
                    delta = sign * (we - weight[t])
                    if abs(st.tilt + delta) > MAX_TILT or (both and abs(st.tilt_start + delta) > MAX_TILT):
                        continue
                    if not cfg.cabin_ok(cab & ~(1 << t)) >> e & 1:
                        continue
                    evictions.setdefault(e, []).append(t)
                    if mandatory:
                        forced[offset + i] = forced.get(offset + i, 0) | 1 << e


def job_actions(st: ArcheStateData, kind: int, seat: int, arg: int) -> list[int]:
    """The choices of a decision job (empty: the job has nothing to decide and is skipped)."""
    cfg = st.config
    sp = cfg.space
    opts = cfg.options
    if kind == J_PET:
        # Always a decision, ``no-pet`` the only one without an eligible card: whether a seat has one is
        # hidden, so skipping it would tell the table before the seat says so.
        eligible = st.hands[seat] & cfg.pet_mask
        choices = [sp.pet + c for c in bits(eligible)]
        return [act.NO_PET, *choices] if opts["pet"] == "voluntary" or not choices else choices
    if kind == J_TAKE:
        return [sp.take + c for c in bits(st.display)]
    if kind == J_CHIMP:
        if opts["bank"] == "finite" and st.bank <= 0:
            return []
        base = N_SCORING * seat
        any_chips = opts["chips_per_figure"] == "any"
        chips = [
            act.CHIP + k
            for k in range(PROVISIONS)
            if st.figures[base + k] > 0 and (any_chips or st.halves[base + k] < st.figures[base + k])
        ]
        # The rulebook: the chip "kann" (may) be placed; chimp_chip=must reads it as forced.
        return [*chips, act.NO_CHIP] if chips and opts["chimp_chip"] == "may" else chips  # ids ascending
    if kind == J_FIGURE:
        return [act.FIGURE + k for k in range(N_SCORING)] if st.figures_left[seat] > 0 else []
    if kind == J_EVICT:
        targets = any_cabin_targets(st, arg)
        if not targets:
            return []
        choices = [sp.evict_any + t for t in targets]
        return choices if opts["eviction"] == "mandatory" else [act.NO_EVICT, *choices]
    if kind == J_DISCARD:
        hand = st.hands[seat]
        if hand.bit_count() <= opts["hand_limit"]:
            return []
        return [sp.discard + c for c in bits(hand)]
    return []


def any_cabin_targets(st: ArcheStateData, evicter: int) -> list[int]:
    """``evict_from=any_cabin``: the cards anywhere in the ark the evicter (already placed) may evict, the
    scale staying within bounds without them."""
    cfg = st.config
    targets = cfg.targets[evicter]
    out = []
    for sign, row in ((1, st.left), (-1, st.right)):
        for cab in row:
            for t in bits(cab & targets):
                if abs(st.tilt - sign * cfg.weight[t]) <= MAX_TILT:
                    out.append(t)
    return sorted(out)


# --- chance -----------------------------------------------------------------------------------------------


def opening_mask(st: ArcheStateData) -> int:
    """The cards that may still open the ark: weight 1 or 2, and not a third of a category
    (docs/arche-rules.md §4.2)."""
    cfg = st.config
    mask = cfg.opening_mask
    counts = [0] * (NONE + 1)
    for cab in (*st.left, *st.right):
        for c in bits(cab):
            counts[cfg.category[c]] += 1
    for k in range(NONE):
        if counts[k] >= 2:
            mask &= ~cfg.category_mask[k]
    return mask


def chance_actions(st: ArcheStateData) -> list[int]:
    """The outcomes of the chance job at the head of the queue (empty: it has nothing to draw)."""
    kind, _, _ = st.pending[0]
    cfg = st.config
    sp = cfg.space
    base = sp.card
    if kind == J_FIRST:
        return [sp.first + q for q in range(st.players)]
    if kind == J_OPEN and cfg.options["opening_rejects"] == "shuffle_back":
        fit = opening_mask(st)
        return [base + c for c in st.stock if fit >> c & 1]
    cards = [base + c for c in st.stock]
    if kind in (J_OPEN, J_DEAL) or st.top_left > 0:
        return cards
    # a draw from the deck (J_SHOW, J_REFILL, J_DRAW): rain may come
    if kind == J_DRAW:
        rain = True
    elif kind == J_REFILL:
        rain = cfg.options["refill_rain"] == "counts"
    else:
        rain = cfg.options["setup_rain"] == "counts"
    if st.middle_rain:
        return [sp.rain] if rain else cards
    if rain and st.lower_rain > 0:
        cards.append(sp.rain)
    return cards


def chance_probabilities(st: ArcheStateData, outcomes: list[int]) -> list[float]:
    """The probability of each outcome: uniform, but a rain mixed with cards is as likely as its count."""
    rain = st.config.space.rain
    if len(outcomes) > 1 and outcomes[-1] == rain:
        total = len(outcomes) - 1 + st.lower_rain
        p = 1.0 / total
        return [p] * (len(outcomes) - 1) + [st.lower_rain / total]
    p = 1.0 / len(outcomes)
    return [p] * len(outcomes)


__all__ = [
    "CHANCE",
    "J_REFILL",
    "TERMINAL",
    "can_open",
    "chance_actions",
    "chance_probabilities",
    "job_actions",
    "legal_actions",
    "opening_mask",
    "plays",
    "scary",
]

"""Invariant checks for Arctic positions, shared by the conformance tests (not a test module itself).

``check_state`` looks at one position; ``Watcher`` also compares consecutive positions (hand limit when a
turn passes, power-card transfers, token moves against the table of docs/arctic-rules.md §5.2).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np

from floe.core.game import CHANCE, TERMINAL
from floe.games.arctic import actions as act
from floe.games.arctic.cards import COMPANION, DECK_CARDS, LAST_POSITION, MAIN
from floe.games.arctic.game import ArcticGame, ArcticState
from floe.games.arctic.powers import power_id
from floe.games.arctic.state import EXTRA, FACE_DOWN_FLAG, GIVE, MOVE, OVER, visible_card

HAND_LIMIT = 7


def cards_in_play(st: ArcticState) -> list[int]:
    """The sorted card ids of the decks in play (empty before the decks are chosen)."""
    return sorted(c for k in range(4) if st.decks_in_play >> k & 1 for c in DECK_CARDS[k])


def all_locations(st: ArcticState) -> list[int]:
    """Every card in hands, piles (face-down flag removed), penalty zones, river and stock, unsorted."""
    out: list[int] = []
    for q in range(st.players):
        out += st.hands[q]
        out += [e - FACE_DOWN_FLAG if e >= FACE_DOWN_FLAG else e for e in st.piles[q]]
        out += st.penalties[q]
    out += st.river
    out += st.deck
    return out


def check_conservation(st: ArcticState) -> None:
    """Every card of the decks in play is in exactly one place, and 30·n cards are accounted for."""
    located = all_locations(st)
    if st.decks_in_play == 0:
        assert located == [], "cards on the table before the decks are chosen"
        return
    assert len(located) == 30 * st.players, f"{len(located)} cards for {st.players} players"
    assert sorted(located) == cards_in_play(st), "a card is missing, duplicated or from a deck not in play"


def expected_base_moves(m: int, c: int) -> set[tuple[int, int]]:
    """(main delta, companion delta) options of docs/arctic-rules.md §5.2 for main/companion token positions m
    and c."""
    m_edge = m in (0, LAST_POSITION)
    c_edge = c in (0, LAST_POSITION)
    if not m_edge and not c_edge:
        return {(1, -1), (-1, 1)}
    if m_edge and c_edge:
        return {(1 if m == 0 else -1, 1 if c == 0 else -1)}
    if m_edge:
        d = 1 if m == 0 else -1
        return {(d, -d)}
    e = 1 if c == 0 else -1
    return {(-e, e)}


def check_state(st: ArcticState, rng: random.Random | None = None, *, sample_illegal: int = 2) -> None:
    """Checks of a single position (cheap enough to run after every action)."""
    check_conservation(st)
    n = st.players
    assert all(0 <= t <= LAST_POSITION for t in st.tokens), st.tokens
    dealt = [t for t in st.totems if t >= 0]
    assert len(set(dealt)) == len(dealt) and all(t < 6 for t in dealt), f"totems {st.totems}"
    if st.turn_player >= 0:
        assert all(t >= 0 for t in st.totems), "a totem missing after setup"
    for a in range(6):
        h = st.holder[a]
        assert -1 <= h < n, st.holder
        if h >= 0:
            assert st.powers[a] in (power_id(a, 1), power_id(a, 2)), "a holder for a power not in play"
    for q in range(n):
        assert st.hands[q] == sorted(st.hands[q])
        assert st.penalties[q] == sorted(st.penalties[q])
    assert st.river == sorted(st.river) and len(st.river) <= 6
    # Cards unseen by their owner are penalty cards, and exist only when penalty cards arrive face down.
    assert st.unseen_penalties == sorted(set(st.unseen_penalties))
    assert set(st.unseen_penalties) <= {c for zone in st.penalties for c in zone}
    assert st.config.penalties == "hidden_look" or not st.unseen_penalties
    assert st.deck == sorted(st.deck)  # the engine finds a drawn card by binary search
    if st._draws is not None:  # a draw's outcomes, derived draw by draw from the last ones: still the deck's
        assert st._draws == [act.CARD + c for c in st.deck]
    legal = st.legal_actions()
    player = st.current_player()
    if player == TERMINAL:
        assert legal == [], "legal actions at the end"
        assert st.step == OVER
        assert len(set(st.turns)) == 1, f"unequal turn counts {st.turns}"
        assert st.final_round and st.end_triggered
        return
    assert legal, "no legal action before the end"
    assert all(a < b for a, b in itertools.pairwise(legal)), "legal actions not sorted/unique"
    assert all(0 <= a < act.N_ACTIONS for a in legal)
    if player == CHANCE:
        assert all(act.decode(a).is_chance for a in legal), "a decision offered at a chance node"
        outcomes = st.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    else:
        assert 0 <= player < n and player == st.turn_player
        assert not any(act.decode(a).is_chance for a in legal), "a chance outcome offered to a player"
    if MOVE <= st.step <= GIVE:  # after step A the pile of the seat in turn has a face-up card on top
        assert visible_card(st.piles[st.turn_player]) >= 0, "no visible card after step A"
    if rng is not None:
        legal_set = set(legal)
        for a in rng.sample(legal, min(2, len(legal))):
            assert st.is_legal(a)
        for _ in range(sample_illegal):
            a = rng.randrange(-5, act.N_ACTIONS + 50)
            assert st.is_legal(a) == (a in legal_set), a


class Watcher:
    """Follows a game action by action and checks the transitions, not just the positions."""

    def __init__(self, game: ArcticGame, st: ArcticState, rng: random.Random, *, vectors: bool) -> None:
        self.game = game
        self.spec = game.spec
        self.rng = rng
        self.vectors = vectors
        self.trigger_seen: list[tuple[int, int]] = []
        self.snapshot(st)
        check_state(st, rng)

    def snapshot(self, st: ArcticState) -> None:
        self.turns_total = sum(st.turns)
        self.turns = st.turns[:]
        self.final_round = st.final_round
        self.holder = st.holder[:]
        self.tokens = st.tokens[:]
        self.step = st.step
        self.player = st.turn_player
        self.top = visible_card(st.piles[st.turn_player]) if st.turn_player >= 0 else -1
        self.walrus_token = st.walrus_token
        self.end_triggered = st.end_triggered

    def after(self, st: ArcticState, action: int) -> None:
        check_state(st, self.rng)
        p = self.player
        # A turn passed: the hand limit holds for every turn that had a step C.
        passed = sum(st.turns) - self.turns_total
        if passed:
            assert passed >= 1 and st.turns[p] == self.turns[p] + 1, "the wrong seat's turn was counted"
            if not self.final_round:
                assert passed == 1, "two turns passed in one action before the final round"
                assert len(st.hands[p]) <= HAND_LIMIT, f"P{p + 1} ends a normal turn with {len(st.hands[p])}"
        if passed > 1:
            # In the final round a seat with an empty hand has nothing to decide: its whole turn (a power
            # re-taken, a forced token move) is played within the action that ended the turn before. The
            # checks below follow one seat's turn, so they skip this action.
            self.snapshot(st)
            return
        # Power cards change hands only in A6: to the seat in turn, for its visible card's animal.
        changed = [a for a in range(6) if st.holder[a] != self.holder[a]]
        if changed:
            assert len(changed) == 1, "two power cards moved at once"
            a = changed[0]
            assert st.holder[a] == p, "a power card went to a seat not in turn"
            top = visible_card(st.piles[p])
            assert top >= 0 and MAIN[top] == a, "the power taken is not the visible card's animal"
        # Token moves: the base move follows docs/arctic-rules.md §5.2; the Walrus extra step moves one token
        # by 1.
        if st.tokens != self.tokens:
            delta = [st.tokens[a] - self.tokens[a] for a in range(6)]
            if self.step == EXTRA:
                moved = [a for a in range(6) if delta[a]]
                assert moved == [self.walrus_token] and abs(delta[moved[0]]) == 1, delta
            else:
                top = visible_card(st.piles[p])
                main, comp = MAIN[top], COMPANION[top]
                got = (delta[main], delta[comp])
                assert got in expected_base_moves(self.tokens[main], self.tokens[comp]), (got, self.tokens)
                assert sum(1 for x in delta if x) == 2, delta
        if st.end_triggered and not self.end_triggered:
            self.trigger_seen.append((p, st.round))
        if self.vectors and (st.current_player() >= 0 or st.is_terminal()):
            seat = st.turn_player if st.turn_player >= 0 else 0
            vec = st.observation_vector(seat)
            assert isinstance(vec, np.ndarray) and vec.dtype == np.float32
            assert vec.shape == (self.spec.observation_size,)
            assert np.isfinite(vec).all()
        self.snapshot(st)

    def final(self, st: ArcticState) -> None:
        assert st.is_terminal()
        assert len(st.history) <= self.spec.max_game_length
        returns = st.returns()
        assert len(returns) == st.players
        assert all(self.spec.min_utility <= r <= self.spec.max_utility for r in returns)
        assert sorted(st.ranking()) == list(range(st.players))
        assert len(set(st.turns)) == 1
        scores = st.scores()
        assert len(scores) == st.players and all(isinstance(s, int) for s in scores)
        assert len(self.trigger_seen) == 1, "the end must trigger exactly once"


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    """A random mix of preset and flags (each value of every flag shows up over many games)."""
    opts: dict[str, Any] = {"preset": rng.choice(["rules", "bga"])}
    choices = {
        "end_trigger": ["deck_emptied", "refill_fails", "bga"],
        "deck_selection": ["random", "first_n"],
        "walrus_mode": ["extra_step", "double_move"],
        "bear_give_step": ["C", "A"],
        "wildcard_scoring": ["free_max", "bga_adjacent"],
        "fox_first_card_bga_limit": [False, True],
        "moose_no_visible": ["one_or_two", "bga_exactly_one"],
        "penalties": ["hidden_look", "seen", "hidden_blind"],
        "piles_public": [True, False],
        "first_player": ["random", *range(players)],
    }
    for key, values in choices.items():
        if rng.random() < 0.5:
            opts[key] = rng.choice(values)
    if rng.random() < 0.7:
        opts["power_sides"] = [rng.choice([0, 1, 2]) for _ in range(6)]
    return opts


def play_checked(
    players: int, seed: int, *, vectors: bool = False, options: dict[str, Any] | None = None
) -> ArcticState:
    """One seeded random game under random (or given) options, checked after every action."""
    rng = random.Random(seed * 1_000_003 + players)
    if options is None:
        options = random_options(rng, players)
    game = ArcticGame(players, options)
    st = game.new_initial_state()
    watcher = Watcher(game, st, rng, vectors=vectors)
    while not st.is_terminal():
        assert len(st.history) < 4000, "the game does not end"
        action = rng.choice(st.legal_actions())
        st.apply(action)
        watcher.after(st, action)
    watcher.final(st)
    return st

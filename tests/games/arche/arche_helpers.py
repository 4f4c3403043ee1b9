"""Helpers for the Arche tests (not a test module): option mixes, positions by hand, and the invariants
checked after every action of the conformance games.

The invariants are written from the spec, independently of the engine's masks where it matters: the cabin
predicate is ``pair_ok`` on every pair of cards in a cabin (itself checked against the rules reference's table
in ``test_arche_cabins``), the scale is summed from the cards, and every card is looked for in every place.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from floe.core.game import State
from floe.games.arche.cards import CARNIVORE, N_SCORING, PROVISIONS, SHY
from floe.games.arche.config import CABIN_SIZE, MAX_TILT, TOTAL_DISCS
from floe.games.arche.game import ArcheGame, ArcheState
from floe.games.arche.options import OPTIONS
from floe.games.arche.rules import settle
from floe.games.arche.state import OVER, SETUP, START, bits

RAINS = 5


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    """A random mix of every option but the deck (each choice option, each bool; small ints)."""
    out: dict[str, Any] = {}
    for option in OPTIONS.options:
        if option.name == "deck" or rng.random() < 0.5:
            continue
        if option.kind == "choice":
            out[option.name] = rng.choice(option.choices).value
        elif option.kind == "bool":
            out[option.name] = rng.random() < 0.5
        elif option.name == "start_chips":
            out[option.name] = rng.randint(1, 4 if players < 5 else 3)
        elif option.name == "figures":
            out[option.name] = rng.randint(10, 19)
        elif option.name == "hand_limit":
            out[option.name] = rng.choice((0, 0, 3, 5, 8))
        elif option.name == "first_player":
            out[option.name] = rng.choice((None, rng.randrange(players)))
    if out.get("seat_chips") == "later_plus_one" and out.get("start_chips", 3) * players + players - 1 > 22:
        out["start_chips"] = 3
    if players == 5 and out.get("seat_chips") == "later_plus_one" and out.get("start_chips", 3) > 3:
        out["start_chips"] = 3
    return out


def locations(st: ArcheState) -> list[int]:
    """Every card in a hand, a pet, the display, the ark, the stock or out of the game (with repeats)."""
    out: list[int] = []
    for h in st.hands:
        out += bits(h)
    out += [p for p in st.pets if p >= 0]
    out += bits(st.display)
    for cab in (*st.left, *st.right):
        out += bits(cab)
    out += list(st.stock)
    out += bits(st.out)
    return out


def check_state(state: State) -> None:
    """Arche's invariants of one position (the issue's list, and a few more)."""
    assert isinstance(state, ArcheState)
    st = state
    cfg = st.config
    n = cfg.deck.n
    opts = cfg.options
    # every card in exactly one place; the five rain cards counted
    seen = count = 0
    for m in (*st.hands, st.display, st.out, *st.left, *st.right):
        seen |= m
        count += m.bit_count()
    for c in (*st.stock, *(p for p in st.pets if p >= 0)):
        seen |= 1 << c
        count += 1
    assert count == n and seen == cfg.deck.all_mask, "a card is missing or in two places"
    in_deck = st.middle_rain + st.lower_rain
    assert in_deck + st.rain_out + (0 if st.rain_placed else RAINS) == RAINS, "rain cards miscounted"
    assert 0 <= st.top_left <= len(st.stock), "more cards before the middle rain than in the deck"
    assert st.stock == sorted(st.stock), "the stock is kept sorted"
    # the scale
    weight = cfg.weight
    left = sum(weight[c] for cab in st.left for c in bits(cab))
    right = sum(weight[c] for cab in st.right for c in bits(cab))
    assert st.tilt == left - right, f"tilt {st.tilt} but the ark weighs {left} - {right}"
    assert abs(st.tilt) <= MAX_TILT, f"the ark tipped: {st.tilt}"
    # the cabins: at most three cards, every pair allowed (config.compat is pair_ok, test_arche_cabins)
    compat = cfg.compat
    for cab in (*st.left, *st.right):
        assert cab.bit_count() <= CABIN_SIZE, f"{cab.bit_count()} cards in a cabin"
        for x in bits(cab):
            others = cab & ~(1 << x)
            if others & ~compat[x]:
                y = bits(others & ~compat[x])[0]
                raise AssertionError(f"{cfg.deck.names[x]} and {cfg.deck.names[y]} share a cabin")
    if st.phase == SETUP:
        cats = [cfg.category[c] for cab in (*st.left, *st.right) for c in bits(cab)]
        assert all(cats.count(k) <= 2 for k in range(PROVISIONS + 1)), "the opening has 3 of a category"
        assert all(weight[c] in (1, 2) for cab in (*st.left, *st.right) for c in bits(cab))
    assert st.display.bit_count() <= 3
    # figures
    total = opts["figures"]
    for q in range(st.players):
        placed = sum(st.figures[N_SCORING * q : N_SCORING * q + N_SCORING])
        assert placed + st.figures_left[q] == total, "figures miscounted"
        assert st.figures_left[q] >= 0 and placed <= total <= 19, f"{placed} figures placed of {total}"
        for k in range(N_SCORING):
            i = N_SCORING * q + k
            assert st.halves[i] >= 0
            if opts["chips_per_figure"] == "one":
                assert st.halves[i] <= st.figures[i], "two chips under one figure"
        assert st.halves[N_SCORING * q + PROVISIONS] == 0 or opts["uncategorised_figure"] == "choose"
    # chips: players + bank + half-point markers = the 22 discs
    assert sum(st.chips) + st.bank + sum(st.halves) == TOTAL_DISCS, "chips are not conserved"
    assert all(c >= 0 for c in st.chips), "a seat has negative chips"
    if opts["bank"] == "finite":
        assert st.bank >= 0, "the finite bank went negative"
    # pets and public knowledge
    for q, pet in enumerate(st.pets):
        if pet >= 0:
            assert cfg.pet_mask >> pet & 1, "a pet that may not be a pet"
        hidden = st.hands[q] | (1 << pet if pet >= 0 else 0)
        assert st.known[q] & ~hidden == 0 or st.phase == OVER, "a card known in a hand is not there"
    if st.passed:
        assert st.phase in (3, OVER)


def neighbours(st: ArcheState, card: int) -> int:
    """The cards in the cabins next to ``card``'s cabin (same row, and opposite if the option says so)."""
    for side, row in ((0, st.left), (1, st.right)):
        for i, cab in enumerate(row):
            if cab >> card & 1:
                other = st.right if side == 0 else st.left
                near = [row[j] for j in (i - 1, i + 1) if 0 <= j < len(row)]
                if st.config.options["shy_neighbours"] == "row_and_opposite" and i < len(other):
                    near.append(other[i])
                out = 0
                for m in near:
                    out |= m
                return out
    raise AssertionError("the card is in no cabin")


def shy_neighbours_ok(st: ArcheState, card: int) -> bool:
    """Whether no cabin next to ``card``'s cabin holds a carnivore (the shy rule at placement)."""
    return not neighbours(st, card) & st.config.scare_mask


class Watcher:
    """Checks of transitions: a shy animal placed next to a carnivore; figures only for the seat acting
    (or pets at the end); chips moving only as the rules move them; the counts of what happened."""

    def __init__(self, game: ArcheGame, state: ArcheState, rng: random.Random) -> None:
        self.game = game
        self.prev = state.clone()
        self.seen: dict[str, int] = {}

    def note(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    def after(self, state: State, action: int) -> None:
        assert isinstance(state, ArcheState)
        before, st = self.prev, state
        cfg = st.config
        ark_before = 0
        for cab in (*before.left, *before.right):
            ark_before |= cab
        ark_now = 0
        for cab in (*st.left, *st.right):
            ark_now |= cab
        placed = ark_now & ~ark_before
        actor = before.to_act
        if before.phase != SETUP:
            for c in bits(placed):
                self.note("placed")
                if cfg.category[c] == SHY:
                    assert shy_neighbours_ok(st, c), f"shy {cfg.deck.names[c]} next to a carnivore"
                    self.note("shy placed")
                if cfg.deck.diet[c] == CARNIVORE and neighbours(st, c) & cfg.shy_mask:
                    self.note("carnivore next to a shy animal")
            if placed:
                assert actor >= 0 and placed.bit_count() == 1, "cards entered the ark without a player"
        evicted = st.out & ~before.out & ark_before
        if evicted:
            self.note("evicted")
        changed = [
            q for q in range(st.players) if st.figures[5 * q : 5 * q + 5] != before.figures[5 * q : 5 * q + 5]
        ]
        if st.phase != OVER:
            assert not changed or changed == [actor], "another seat's figures moved"
        if st.rain_out > before.rain_out:
            self.note(f"rain {st.rain_out}")
        if st.phase == 3 and before.phase != 3:
            self.note("endgame")
        if any(p >= 0 for p in st.pets) and not any(p >= 0 for p in before.pets):
            self.note("pets")
        if st.halves != before.halves:
            self.note("half point")
        if len(st.left) + len(st.right) > len(before.left) + len(before.right) and before.phase != SETUP:
            self.note("new cabin")
        self.prev = st.clone()

    def final(self, state: State) -> None:
        assert isinstance(state, ArcheState) and state.is_terminal()
        scores = state.scores()
        assert len(scores) == state.players
        self.note("finished")


def make_state(players: int = 4, options: Mapping[str, Any] | None = None, seed: int = 0) -> ArcheState:
    """A state after set-up (chance drawn from ``seed``), the first player to act."""
    game = ArcheGame(players, {"first_player": 0, **(options or {})})
    st = game.new_initial_state()
    rng = random.Random(seed)
    while st.is_chance_node():
        st.apply(st.sample_chance(rng))
    return st


def card(st: ArcheState, slug: str) -> int:
    """The id of the card whose notation is ``slug``."""
    return st.config.deck.card_id(slug)


def mask(st: ArcheState, slugs: Iterable[str]) -> int:
    out = 0
    for slug in slugs:
        out |= 1 << card(st, slug)
    return out


def position(
    players: int = 4,
    *,
    options: Mapping[str, Any] | None = None,
    left: Sequence[Sequence[str]] = (),
    right: Sequence[Sequence[str]] = (),
    hands: Mapping[int, Sequence[str]] | None = None,
    display: Sequence[str] = (),
    chips: Sequence[int] | None = None,
    turn_player: int = 0,
    rain_out: int = 0,
    top_left: int | None = None,
) -> ArcheState:
    """A position by hand: the ark's rows (cabins as card slugs), hands, display and chips; every other
    card in the stock; rain placed (``rain_out`` already out, the others mixed into the lower part unless
    ``top_left`` cards come before the middle rain); ``turn_player`` to start a turn. The tilt follows."""
    game = ArcheGame(players, {"first_player": 0, **(options or {})})
    st = game.new_initial_state()
    cfg = st.config
    used = 0
    st.left = [mask(st, cab) for cab in left]
    st.right = [mask(st, cab) for cab in right]
    for cab in (*st.left, *st.right):
        used |= cab
    st.hands = [0] * players
    for q, slugs in (hands or {}).items():
        st.hands[q] = mask(st, slugs)
        used |= st.hands[q]
    st.display = mask(st, display)
    used |= st.display
    weight = cfg.weight
    st.tilt = sum(weight[c] for cab in st.left for c in bits(cab)) - sum(
        weight[c] for cab in st.right for c in bits(cab)
    )
    st.stock = [c for c in range(cfg.deck.n) if not used >> c & 1]
    st.out = 0
    st.rain_placed = True
    st.rain_out = rain_out
    if top_left is None:
        st.top_left, st.middle_rain, st.lower_rain = 0, 0, RAINS - rain_out
    else:
        st.top_left, st.middle_rain, st.lower_rain = top_left, 1, RAINS - 1 - rain_out
    st.chips = list(chips) if chips is not None else [3] * players
    st.bank = TOTAL_DISCS - sum(st.chips)
    st.first_player = 0
    st.turn_player = turn_player
    st.turn = 1
    st.phase = START
    st.played = 0
    st.first_slot = -1
    st.tilt_start = st.tilt
    st.pending = []
    st.history = []
    settle(st)
    return st


def notations(st: ArcheState) -> list[str]:
    """The legal actions in notation."""
    return [st.action_to_string(a) for a in st.legal_actions()]


def play(st: ArcheState, *texts: str) -> ArcheState:
    """Apply actions given in notation (validated), resolving no chance."""
    for text in texts:
        st.apply(st.string_to_action(text))
    return st


def draw(st: ArcheState, *outcomes: str) -> ArcheState:
    """Resolve chance nodes with the given outcomes in notation (``card hare``, ``rain``)."""
    for text in outcomes:
        assert st.is_chance_node(), f"no chance node for {text}"
        st.apply(st.string_to_action(text))
    return st

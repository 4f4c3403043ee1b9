"""Build Arctic positions for rule tests (a helper module, not a test module).

``new_game`` makes a game with fixed powers and first player and completes setup with seeded chance
outcomes. ``arrange`` then overwrites hands, piles, penalty zones, river, stock sizes, tokens and power
holders, starts the turn of a chosen seat and calls ``rules.settle``; every card of the decks in play stays
in exactly one place (cards not placed explicitly go to the stock, a surplus goes to the bottom of a pile).

>>> game, st = new_game(2)
>>> st = arrange(st, player=0, hands={0: ["fox-moose-5"]})
>>> legal(st)
['place fox-moose-5']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from floe.games.arctic import actions as act
from floe.games.arctic import rules
from floe.games.arctic.actions import ActionKind, ArcticAction
from floe.games.arctic.cards import ANIMALS, COMPANION, DECK_CARDS, MAIN, PLACEMENT, parse_card
from floe.games.arctic.game import ArcticGame, ArcticState
from floe.games.arctic.powers import POWER_BY_SLUG, Power
from floe.games.arctic.state import FACE_DOWN_FLAG

CardSpec = int | str
POSITION_OF_VALUE = {0: 0, 1: 1, 3: 2, 6: 3, 10: 4, 15: 5}


def card(spec: CardSpec) -> int:
    """A card id from an id or a notation such as ``fox-moose-5``."""
    return spec if isinstance(spec, int) else parse_card(spec)


def fd(spec: CardSpec) -> int:
    """A face-down pile entry for a card."""
    return card(spec) + FACE_DOWN_FLAG


def new_game(
    players: int = 2,
    *,
    powers: Iterable[str] = (),
    first: int = 0,
    seed: int = 0,
    **options: Any,
) -> tuple[ArcticGame, ArcticState]:
    """A game after setup. Powers not named in ``powers`` (slugs) are side 1; decks 1..n are used."""
    sides = [1] * 6
    for slug in powers:
        power = Power(POWER_BY_SLUG[slug])
        sides[power.animal] = power.side
    opts: dict[str, Any] = {"deck_selection": "first_n", "first_player": first, "power_sides": sides}
    opts.update(options)
    game = ArcticGame(players, opts)
    st = game.new_initial_state()
    rng = random.Random(seed)
    while st.is_chance_node():
        st.apply(st.sample_chance(rng))
    return game, st


def in_play(st: ArcticState) -> list[int]:
    return sorted(c for k in range(4) if st.decks_in_play >> k & 1 for c in DECK_CARDS[k])


def pick(
    st: ArcticState,
    main: str,
    companion: str | None = None,
    placement: int | None = None,
    *,
    exclude: Iterable[int] = (),
) -> int:
    """A card of the decks in play with these properties, not in ``exclude``."""
    skip = set(exclude)
    for c in in_play(st):
        if c in skip or ANIMALS[MAIN[c]] != main:
            continue
        if companion is not None and ANIMALS[COMPANION[c]] != companion:
            continue
        if placement is not None and PLACEMENT[c] != placement:
            continue
        return c
    raise LookupError(f"no free card {main}/{companion}/{placement} in play")


def filler(st: ArcticState, count: int, *, exclude: Iterable[int] = (), main: str | None = None) -> list[int]:
    """``count`` cards of the decks in play that are not in ``exclude`` (optionally of one main animal)."""
    skip = set(exclude)
    out = [c for c in in_play(st) if c not in skip and (main is None or ANIMALS[MAIN[c]] == main)]
    if len(out) < count:
        raise LookupError(f"only {len(out)} free cards, {count} wanted")
    return out[:count]


def arrange(
    st: ArcticState,
    *,
    player: int | None = None,
    hands: Mapping[int, Sequence[CardSpec]] | None = None,
    piles: Mapping[int, Sequence[CardSpec]] | None = None,
    penalties: Mapping[int, Sequence[CardSpec]] | None = None,
    unseen: Sequence[CardSpec] | None = None,
    river: Sequence[CardSpec] | None = None,
    stock: Sequence[CardSpec] | None = None,
    main_deck: int | None = None,
    reserve: int | None = None,
    tokens: Mapping[str, int] | Sequence[int] | None = None,
    holder: Mapping[str, int] | None = None,
    dump_seat: int | None = None,
    round: int | None = None,
    turns: Sequence[int] | None = None,
    end_triggered: bool | None = None,
    final_round: bool | None = None,
    start_turn: bool = True,
) -> ArcticState:
    """Overwrite parts of ``st`` (in place; returned for chaining) and settle. See the module docstring.

    ``tokens`` maps animal names to landscape *positions* 0..5 (value 0, 1, 3, 6, 10, 15). ``main_deck`` and
    ``reserve`` set the stock's size (cards beyond it go to the bottom of ``dump_seat``'s pile, by default
    the last seat that is not ``player``). Unless ``start_turn`` is false, ``player``'s turn starts afresh
    (powers it holds now count as held since the start of the turn). ``unseen`` names the penalty cards
    their owners have not seen (``penalties=hidden_look``); by default every arranged penalty card is seen.
    """
    hands = {q: [card(c) for c in v] for q, v in (hands or {}).items()}
    piles = {q: [c if isinstance(c, int) else card(c) for c in v] for q, v in (piles or {}).items()}
    penalties = {q: [card(c) for c in v] for q, v in (penalties or {}).items()}
    river_cards = None if river is None else [card(c) for c in river]
    stock_cards = None if stock is None else [card(c) for c in stock]
    claimed: list[int] = []
    for part in (*hands.values(), *penalties.values()):
        claimed += part
    for part in piles.values():
        claimed += [e - FACE_DOWN_FLAG if e >= FACE_DOWN_FLAG else e for e in part]
    claimed += river_cards or []
    claimed += stock_cards or []
    if len(set(claimed)) != len(claimed):
        raise ValueError("a card is placed twice")
    everything = set(in_play(st))
    if not set(claimed) <= everything:
        raise ValueError("a card is not in play")
    taken = set(claimed)

    def keep(cards: list[int]) -> list[int]:
        return [c for c in cards if (c - FACE_DOWN_FLAG if c >= FACE_DOWN_FLAG else c) not in taken]

    n = st.players
    st.hands = [sorted(hands[q]) if q in hands else keep(st.hands[q]) for q in range(n)]
    st.penalties = [sorted(penalties[q]) if q in penalties else keep(st.penalties[q]) for q in range(n)]
    st.piles = [list(piles[q]) if q in piles else keep(st.piles[q]) for q in range(n)]
    st.river = sorted(river_cards) if river_cards is not None else keep(st.river)
    zones = {c for zone in st.penalties for c in zone}
    st.unseen_penalties = sorted(
        [card(c) for c in unseen] if unseen is not None else [c for c in st.unseen_penalties if c in zones]
    )
    if not set(st.unseen_penalties) <= zones:
        raise ValueError("an unseen card is not a penalty card")
    st.deck = []
    if stock_cards is not None:
        free = sorted(stock_cards)
        surplus = sorted(everything - set(all_cards(st)) - set(free))
    else:
        free = sorted(everything - set(all_cards(st)))
        surplus = []
    if main_deck is not None or reserve is not None:
        if reserve is None:
            reserve = (
                0 if (end_triggered if end_triggered is not None else st.end_triggered) else st.reserve_count
            )
        want = (main_deck if main_deck is not None else max(0, len(free) - reserve)) + reserve
        if want > len(free):
            raise ValueError(f"a stock of {want} wanted, only {len(free)} cards free")
        surplus += free[want:]
        free = free[:want]
        st.reserve_count = reserve
    st.reserve_count = min(st.reserve_count, len(free))
    if surplus:
        who = dump_seat
        if who is None:
            who = next(q for q in reversed(range(n)) if q != player)
        st.piles[who] = sorted(surplus) + st.piles[who]
    st.deck = free
    if tokens is not None:
        if isinstance(tokens, Mapping):
            for name, pos in tokens.items():
                st.tokens[ANIMALS.index(name)] = pos
        else:
            st.tokens = list(tokens)
    if holder is not None:
        for name, seat in holder.items():
            st.holder[ANIMALS.index(name)] = seat
    if round is not None:
        st.round = round
    if turns is not None:
        st.turns = list(turns)
    if end_triggered is not None:
        st.end_triggered = end_triggered
        if end_triggered:
            st.reserve_count = 0
            if st.trigger_player < 0:
                st.trigger_player = player if player is not None else 0
        else:
            st.trigger_player = -1
    if final_round is not None:
        st.final_round = final_round
    st.known = [0] * 120
    st.pending = []
    st.forget_derived()
    if start_turn:
        rules._start_turn(st, st.turn_player if player is None else player)
    rules.settle(st)
    located = sorted(all_cards(st))
    assert located == sorted(everything), "arrange lost or duplicated a card"
    return st


def all_cards(st: ArcticState) -> list[int]:
    out: list[int] = []
    for q in range(st.players):
        out += st.hands[q] + st.penalties[q]
        out += [e - FACE_DOWN_FLAG if e >= FACE_DOWN_FLAG else e for e in st.piles[q]]
    return out + st.river + st.deck


# --- driving a position ----------------------------------------------------------------------------------


def legal(st: ArcticState) -> list[str]:
    """The legal actions as notation."""
    return [act.action_to_string(a) for a in st.legal_actions()]


def play(st: ArcticState, *texts: str) -> ArcticState:
    """Apply each action given in exact notation (validated), in order."""
    for text in texts:
        st.apply(act.string_to_action(text))
    return st


def deal(st: ArcticState, *cards: CardSpec) -> ArcticState:
    """Resolve pending chance events with these cards, in order."""
    for c in cards:
        assert st.is_chance_node(), "no chance event is pending"
        st.apply(act.encode(ArcticAction(ActionKind.CARD, card=card(c))))
    return st


def resolve(st: ArcticState, seed: int = 0) -> ArcticState:
    """Resolve every pending chance event at random."""
    rng = random.Random(seed)
    while st.is_chance_node():
        st.apply(st.sample_chance(rng))
    return st


def finish_turn(st: ArcticState, seed: int = 0) -> list[str]:
    """Play random legal actions (chance included) until the turn passes or the game ends.

    Returns the step names at which the player made decisions.
    """
    rng = random.Random(seed)
    turns = sum(st.turns)
    start = len(st.history)
    steps = []
    while not st.is_terminal() and sum(st.turns) == turns:
        assert len(st.history) - start < 1000, "the turn does not end"
        if not st.is_chance_node():
            steps.append(step_name(st))
        st.apply(rng.choice(st.legal_actions()))
    return steps


def value(st: ArcticState, animal: str) -> int:
    """The landscape value under an animal's token."""
    return (0, 1, 3, 6, 10, 15)[st.tokens[ANIMALS.index(animal)]]


def pos(st: ArcticState, animal: str) -> int:
    """The position 0..5 of an animal's token."""
    return st.tokens[ANIMALS.index(animal)]


def step_name(st: ArcticState) -> str:
    from floe.games.arctic.state import STEP_NAMES

    return STEP_NAMES[st.step]


def holder_of(st: ArcticState, animal: str) -> int:
    return st.holder[ANIMALS.index(animal)]


def main_deck(st: ArcticState) -> int:
    return len(st.deck) - st.reserve_count


__all__ = [
    "POSITION_OF_VALUE",
    "arrange",
    "card",
    "deal",
    "fd",
    "filler",
    "finish_turn",
    "holder_of",
    "legal",
    "main_deck",
    "new_game",
    "pick",
    "play",
    "pos",
    "resolve",
    "step_name",
    "value",
]

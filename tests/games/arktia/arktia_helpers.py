"""Helpers for the Arktia tests (not a test module): positions by hand, a slow reference rules model, and
the invariant checks run after every action of the conformance games.

The reference model is written from the spec, independently of the engine's bit tricks: stacks are lists of
(size letter, colour) bottom to top, the tower table is spelled out, straight lines are walked in axial
coordinates and connectivity is a breadth-first search over coordinates. The engine's legal placements,
moves and melts must equal the reference's.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from floe.games.arktia import rules
from floe.games.arktia.actions import STOP
from floe.games.arktia.game import ArktiaGame, ArktiaState
from floe.games.arktia.state import ACTIVE, KEEP, MELT, NEUTRAL_SETUP, OVER, TURN
from floe.games.arktia.towers import HOLE, NEUTRAL

# --- spec tables, spelled out -------------------------------------------------------------------------------
# Spec 4.2: the only legal stacks, by sizes bottom to top ("gt" is C: the Globus inside the Torus).
LEGAL_ORDERS = {"", "g", "d", "t", "dg", "td", "gt", "tdg"}
# Spec 4.3, "What can be lifted": per stack shape, the top parts that may move.
LIFTABLE = {
    "g": ("g",),
    "d": ("d",),
    "t": ("t",),
    "dg": ("g", "dg"),
    "td": ("d", "td"),
    "gt": ("t", "gt"),
    "tdg": ("g", "dg", "tdg"),
}
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
COLOUR_CHARS = {"1": 0, "2": 1, "3": 2, "4": 3, "n": NEUTRAL, "N": NEUTRAL}


# --- stacks as lists ----------------------------------------------------------------------------------------
def stack(code: int) -> list[tuple[str, int]]:
    """(size letter, colour) bottom to top, decoded from a field code without the engine's tables."""
    if code <= 0:
        return []
    slots = {letter: (code >> (3 * i) & 7) - 1 for i, letter in enumerate("gdt")}
    present = "".join(letter for letter in "gdt" if slots[letter] >= 0)
    order = {"g": "g", "d": "d", "t": "t", "gd": "dg", "gt": "gt", "dt": "td", "gdt": "tdg"}[present]
    return [(letter, slots[letter]) for letter in order]


def encode(pieces: Iterable[tuple[str, int]]) -> int:
    """A field code from (size letter, colour) pieces."""
    return sum((colour + 1) << (3 * "gdt".index(letter)) for letter, colour in pieces)


def parse_stack(text: str) -> list[tuple[str, int]]:
    """``"t1 dn g2"``: pieces bottom to top, each a size letter and a colour (1..4 or n)."""
    out = []
    for word in text.split():
        out.append((word[0].lower(), COLOUR_CHARS[word[1:]]))
    order = "".join(letter for letter, _ in out)
    assert order in LEGAL_ORDERS, f"{text!r} is not a legal stack"
    return out


# --- hand-built positions -----------------------------------------------------------------------------------
def position(
    players: int = 2,
    board: Mapping[str, str] | None = None,
    *,
    player: int = 0,
    melted: Iterable[str] = (),
    supply: Mapping[int, tuple[int, int, int]] | None = None,
    turns: Iterable[int] | None = None,
    out: Mapping[int, int] | None = None,
    options: Mapping[str, Any] | None = None,
) -> ArktiaState:
    """A position in normal play (every seat past its opening unless ``turns`` says otherwise).

    ``board`` maps field names to stacks (``parse_stack``); ``melted`` lists melted fields; supplies default
    to 3 of each size minus what is on the board, and neutral supplies are empty. The turn of ``player``
    begins (its legal actions and melt duty are computed as at a real turn start).

    >>> st = position(2, {"c3": "t1 d2 g1"}, supply={0: (0, 0, 0)})
    >>> names(st)[:4]
    ['stop', 'tdg c3-c1', 'tdg c3-e1', 'g c3-c2']
    """
    opts = {"neutrals": False, **(options or {})}
    game = ArktiaGame(players, opts)
    st = game.new_initial_state()
    layout = st.space.layout
    st.fields = [0] * layout.size
    for name, text in (board or {}).items():
        st.fields[layout.index(name)] = encode(parse_stack(text))
    for name in melted:
        c = layout.index(name)
        assert st.fields[c] == 0, f"{name} is melted but holds pieces"
        st.fields[c] = HOLE
    st.supply = [3] * (3 * players)
    for code in st.fields:
        for letter, colour in stack(code):
            if colour != NEUTRAL:
                st.supply[3 * colour + "gdt".index(letter)] -= 1
    for seat, counts in (supply or {}).items():
        st.supply[3 * seat : 3 * seat + 3] = list(counts)
    assert min(st.supply) >= 0, "more pieces on the board than a colour has"
    st.neutral_supply = [0] * (3 * players)
    st.turns = list(turns) if turns is not None else [2] * players
    st.out = [ACTIVE] * players
    for seat, reason in (out or {}).items():
        st.out[seat] = reason
    st.history = []
    st.pending_keep = []
    st.player = player
    st._legal = None
    rules.begin_turn(st)
    return st


def names(st: ArktiaState, actions: Iterable[int] | None = None) -> list[str]:
    """Notation of ``actions`` (default: the legal ones)."""
    return [st.action_to_string(a) for a in (st.legal_actions() if actions is None else actions)]


def board_text(st: ArktiaState) -> dict[str, str]:
    """The occupied and melted fields as ``{"c3": "t1 d2 g1", "a1": "~"}`` (the inverse of ``position``)."""
    out = {}
    for c, code in enumerate(st.fields):
        if code == HOLE:
            out[st.space.layout.names[c]] = "~"
        elif code > 0:
            out[st.space.layout.names[c]] = " ".join(
                f"{letter}{'n' if colour == NEUTRAL else colour + 1}" for letter, colour in stack(code)
            )
    return out


# --- the reference model ------------------------------------------------------------------------------------
def _ref_connected(cells: set[tuple[int, int]]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = deque([start])
    while todo:
        q, r = todo.popleft()
        for dq, dr in DIRS:
            nxt = (q + dq, r + dr)
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen == cells


def ref_groups(st: ArktiaState, colour: int) -> list[set[tuple[int, int]]]:
    """The connected groups of ``colour`` as sets of coordinates."""
    cells = st.space.layout.cells
    rest = {cells[c] for c, code in enumerate(st.fields) if any(k == colour for _, k in stack(code))}
    out = []
    while rest:
        start = rest.pop()
        group = {start}
        todo = deque([start])
        while todo:
            q, r = todo.popleft()
            for dq, dr in DIRS:
                nxt = (q + dq, r + dr)
                if nxt in rest:
                    rest.discard(nxt)
                    group.add(nxt)
                    todo.append(nxt)
        out.append(group)
    return out


def ref_placements(st: ArktiaState, p: int) -> set[str]:
    """Placements by docs/arktia-rules.md §5.3, §5.4 and §6(a)."""
    layout = st.space.layout
    cells = layout.cells
    index = {cell: c for c, cell in enumerate(cells)}
    sizes = [letter for i, letter in enumerate("gdt") if st.supply[3 * p + i] > 0]
    occupied = {cells[c] for c, code in enumerate(st.fields) if code > 0}
    own = {cells[c] for c, code in enumerate(st.fields) if any(k == p for _, k in stack(code))}
    anchor = occupied if st.turns[p] == 0 else own
    out = set()
    for c, code in enumerate(st.fields):
        if code != 0:
            continue
        q, r = cells[c]
        near = any((q + dq, r + dr) in anchor for dq, dr in DIRS)
        if near or (st.turns[p] == 0 and not occupied):
            out.update(f"{letter}@{layout.names[c]}" for letter in sizes)
    assert all(index[cells[c]] == c for c in range(len(cells)))
    return out


def ref_moves(st: ArktiaState, p: int) -> set[str]:
    """Moves by docs/arktia-rules.md §3.2, §4.3 and §6(b), in notation."""
    layout = st.space.layout
    cells = layout.cells
    index = {cell: c for c, cell in enumerate(cells)}
    stacks = [stack(code) for code in st.fields]
    out = set()
    for src, s in enumerate(stacks):
        if not s or s[-1][1] != p:
            continue
        shape = "".join(letter for letter, _ in s)
        for lift in LIFTABLE[shape]:
            mover = s[len(s) - len(lift) :]
            rest = s[: len(s) - len(lift)]
            for dq, dr in DIRS:
                q, r = cells[src]
                while True:
                    q, r = q + dq, r + dr
                    dst = index.get((q, r), -1)
                    if dst < 0 or st.fields[dst] == HOLE:
                        break  # off the continent or a hole: the line ends
                    landed = stacks[dst] + mover
                    if "".join(letter for letter, _ in landed) not in LEGAL_ORDERS:
                        continue
                    after = list(stacks)
                    after[src] = rest
                    after[dst] = landed
                    own = {cells[c] for c, t in enumerate(after) if any(k == p for _, k in t)}
                    if _ref_connected(own):
                        out.add(f"{lift} {layout.names[src]}-{layout.names[dst]}")
    return out


def ref_melts(st: ArktiaState) -> set[str]:
    """Fields that may melt by docs/arktia-rules.md §9."""
    layout = st.space.layout
    cells = layout.cells
    ice = {cells[c] for c, code in enumerate(st.fields) if code != HOLE}
    out = set()
    for c, code in enumerate(st.fields):
        if code != 0:
            continue
        q, r = cells[c]
        if all((q + dq, r + dr) in ice for dq, dr in DIRS):
            continue  # not at the edge
        if _ref_connected(ice - {cells[c]}):
            out.add(f"melt {layout.names[c]}")
    return out


def check_against_reference(st: ArktiaState) -> None:
    """The engine's legal actions equal the reference model's at a turn start or a melt."""
    legal = set(names(st))
    if st.step == TURN:
        p = st.player
        expected = ref_placements(st, p)
        if st.turns[p] >= 2:
            expected |= ref_moves(st, p)
            if expected:
                expected.add("stop")
        assert legal == expected, (sorted(legal - expected), sorted(expected - legal))
    elif st.step == MELT:
        assert legal == ref_melts(st)


# --- invariants ---------------------------------------------------------------------------------------------
def neutral_total(st: ArktiaState) -> int:
    """Neutral Muglus of each size in the game (one per seat with neutrals, docs/arktia-rules.md §5.2 /
    §12)."""
    return st.n if st.config.neutrals else 0


def check_conservation(st: ArktiaState) -> None:
    """For every colour and size: on the board + in a supply + captured + boxed = what the colour has."""
    counts = [0] * 15
    for code in st.fields:
        for letter, colour in stack(code):
            counts[3 * colour + "gdt".index(letter)] += 1
    for colour in (*range(st.n), NEUTRAL):
        for size in range(3):
            i = 3 * colour + size
            if colour == NEUTRAL:
                supply = sum(st.neutral_supply[3 * q + size] for q in range(st.n))
                total = neutral_total(st)
            else:
                supply = st.supply[i]
                total = 3
            assert supply >= 0
            assert counts[i] + supply + st.lost[i] + st.boxed[i] == total, (colour, size, counts[i], supply)
    for colour in range(st.n, NEUTRAL):
        assert all(counts[3 * colour + s] == 0 for s in range(3)), "a colour nobody plays"
    assert sum(st.captured) == sum(st.lost), "captured Muglus must match removed ones"


def check_fields(st: ArktiaState) -> None:
    """Every field is a hole, empty or a legal stack (docs/arktia-rules.md §4.2), and the ice is one region
    (docs/arktia-rules.md §9)."""
    cells = st.space.layout.cells
    for code in st.fields:
        if code == HOLE:
            continue
        assert 0 <= code < 512
        for i in range(3):
            slot = (code >> (3 * i) & 7) - 1
            assert slot == -1 or slot < st.n or slot == NEUTRAL, f"bad colour in code {code}"
        assert "".join(letter for letter, _ in stack(code)) in LEGAL_ORDERS
    assert _ref_connected({cells[c] for c, code in enumerate(st.fields) if code != HOLE}), "the ice split"


def check_state(st: ArktiaState, rng: random.Random | None = None, *, reference: bool = False) -> None:
    """Checks of one position (cheap enough after every action, except the reference comparison)."""
    check_conservation(st)
    check_fields(st)
    legal = st.legal_actions()
    n_actions = st.space.N_ACTIONS
    if st.is_terminal():
        assert st.step == OVER and legal == []
        assert all(o != ACTIVE for o in st.out), "the game ended with an active seat"
        return
    p = st.current_player()
    assert 0 <= p < st.n and st.out[p] == ACTIVE, "the seat to act is out"
    assert legal, "no legal action before the end"
    assert all(a < b for a, b in itertools.pairwise(legal)), "legal actions not sorted/unique"
    assert all(0 <= a < n_actions for a in legal)
    sp = st.space
    kinds = {_kind(sp, a) for a in legal}
    if st.step == NEUTRAL_SETUP:
        assert kinds == {"neutral"}
    elif st.step == TURN:
        assert kinds <= {"stop", "place", "move"}
        assert (STOP in legal) == (st.turns[p] >= 2)
        # Spec 8: every colour is one connected group at the start of each turn.
        for colour in (*range(st.n), NEUTRAL):
            assert len(ref_groups(st, colour)) <= 1, f"colour {colour} is split at the start of a turn"
    elif st.step == KEEP:
        assert kinds == {"keep"} and len(legal) >= 2 and st.pending_keep
    elif st.step == MELT:
        assert kinds == {"melt"}
    if reference:
        check_against_reference(st)
    if rng is not None:
        legal_set = set(legal)
        for a in rng.sample(legal, min(2, len(legal))):
            assert st.is_legal(a)
        for _ in range(2):
            a = rng.randrange(-3, n_actions + 20)
            assert st.is_legal(a) == (a in legal_set)


def _kind(sp: Any, action: int) -> str:
    if action == STOP:
        return "stop"
    if action < sp.NEUTRAL:
        return "place"
    if action < sp.KEEP:
        return "neutral"
    if action < sp.MELT:
        return "keep"
    if action < sp.MOVE:
        return "melt"
    return "move"


class Watcher:
    """Follows a game and checks each transition, not only each position."""

    def __init__(self, game: ArktiaGame, st: ArktiaState, rng: random.Random, *, reference: bool) -> None:
        self.game = game
        self.spec = game.spec
        self.rng = rng
        self.reference = reference
        self.seen: set[str] = set()  # kinds of events seen (for coverage)
        check_state(st, rng, reference=reference)
        self.snapshot(st)

    def snapshot(self, st: ArktiaState) -> None:
        self.fields = st.fields[:]
        self.supply = st.supply[:]
        self.captured = st.captured[:]
        self.melted = st.melted[:]
        self.out = st.out[:]
        self.player = st.player
        self.step = st.step
        self.turns = st.turns[:]

    def after(self, st: ArktiaState, action: int) -> None:
        check_state(st, self.rng, reference=self.reference)
        p = self.player
        sp = st.space
        kind = _kind(sp, action)
        self.seen.add(kind)
        # A seat whose game ended never comes back.
        for q in range(st.n):
            if self.out[q] != ACTIVE:
                assert st.out[q] == self.out[q]
            elif st.out[q] != ACTIVE:
                self.seen.add(f"out{st.out[q]}")
        # Only the seat in turn captures and melts, and only by its own action.
        for q in range(st.n):
            if q != p:
                assert st.captured[q] == self.captured[q] and st.melted[q] == self.melted[q]
        if st.captured[p] != self.captured[p]:
            assert kind in ("move", "keep"), "a capture without a move"
            self.seen.add("capture")
        if kind == "place":
            cell, size = divmod(action - 1, 3)
            assert self.fields[cell] == 0, "placed on an occupied field"
            assert st.supply[3 * p + size] == self.supply[3 * p + size] - 1
        if kind == "move":
            src, dst, mover = sp.decode_move(action)
            before = stack(self.fields[src])
            assert before[-1][1] == p, "moved a stack topped by someone else"
            landed = stack(self.fields[dst]) + before[len(before) - bin(mover).count("1") :]
            assert "".join(letter for letter, _ in landed) in LEGAL_ORDERS
            if len(before) > 1 or self.fields[dst] > 0:
                self.seen.add("tower-move")
        if kind == "melt":
            cell = action - sp.MELT
            assert self.fields[cell] == 0 and st.fields[cell] == HOLE
            assert st.melted[p] == self.melted[p] + 1
        if kind == "keep":
            self.seen.add("keep")
        holes_before = sum(1 for code in self.fields if code == HOLE)
        holes_after = sum(1 for code in st.fields if code == HOLE)
        assert holes_after == holes_before + (kind == "melt"), "a field melted without a melt action"
        if not st.is_terminal() and st.current_player() >= 0:
            vec = st.observation_vector(st.current_player())
            assert isinstance(vec, np.ndarray) and vec.dtype == np.float32
            assert vec.shape == (self.spec.observation_size,) and np.isfinite(vec).all()
        self.snapshot(st)

    def final(self, st: ArktiaState) -> None:
        assert st.is_terminal()
        assert len(st.history) <= self.spec.max_game_length
        returns = st.returns()
        assert len(returns) == st.n and all(-1.0 <= r <= 1.0 for r in returns)
        assert abs(sum(returns)) < 1e-9, "returns are zero-sum by construction"
        assert sorted(st.ranking()) == list(range(st.n))
        scores = st.scores()
        for q, b in enumerate(st.score_breakdowns()):
            assert b["total"] == b["captured"] + b["controlled"] + b["melted"] == scores[q]
        best = max(scores)
        winners = st.winners()
        assert winners and all(scores[q] == best for q in winners)


# --- random games -------------------------------------------------------------------------------------------
# Custom layouts for the option mix: a ring (a hex of radius 2 without its centre: an interior gap from the
# start), a 3 x 9 parallelogram, and the radius-3 hexagon without one corner (docs/arktia-rules.md §3.3's
# alternative).
RING_18 = [[q, r] for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2 and (q, r) != (0, 0)]
STRIP_27 = [[q, r] for q in range(9) for r in range(3)]
HEX_36 = [[q, r] for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3 and (q, r) != (3, -3)]


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    """A random mix of options (each value of every flag shows up over many games)."""
    opts: dict[str, Any] = {}
    choices: dict[str, list[Any]] = {
        "neutral_starter": ["start_player", "previous_player"],
        "melt_start": ["next_turn", "same_turn"],
        "bridge_melt_ends": [True, False],
        "out_pieces": ["stay", "remove"],
        "tie_break": ["shared", "fewer_lost"],
        "first_player": list(range(players)),
    }
    for key, values in choices.items():
        if rng.random() < 0.5:
            opts[key] = rng.choice(values)
    if players == 3 and rng.random() < 0.5:
        opts["neutrals"] = True  # variant 1 (docs/arktia-rules.md §12)
    if players == 2 and rng.random() < 0.1:
        opts["neutrals"] = False
    if rng.random() < 0.25:
        opts["layout"] = {2: RING_18, 3: STRIP_27, 4: HEX_36}[players]
    if rng.random() < 0.1:
        opts["max_turns"] = rng.randrange(10, 60)
    return opts


def choose(rng: random.Random, legal: list[int]) -> int:
    """A random legal action; ``stop`` only rarely, so games run into melting and the end conditions."""
    if legal[0] == STOP and len(legal) > 1 and rng.random() < 0.97:
        return rng.choice(legal[1:])
    return rng.choice(legal)


def play_checked(
    players: int, seed: int, *, reference: bool = False, options: Mapping[str, Any] | None = None
) -> tuple[ArktiaState, set[str]]:
    """One seeded random game under random (or given) options, checked after every action."""
    rng = random.Random(seed * 1_000_003 + players)
    if options is None:
        options = random_options(rng, players)
    game = ArktiaGame(players, options)
    st = game.new_initial_state()
    watcher = Watcher(game, st, rng, reference=reference)
    while not st.is_terminal():
        assert len(st.history) <= game.spec.max_game_length, "the game does not end"
        action = choose(rng, st.legal_actions())
        st.apply(action)
        watcher.after(st, action)
    watcher.final(st)
    return st, watcher.seen

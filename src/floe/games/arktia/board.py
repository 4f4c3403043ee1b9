"""The ice continent: hexagonal fields as data, their neighbours, straight lines and a typeable cell notation.

A layout is a set of hexagonal cells in axial coordinates ``(q, r)``, pointy-top (docs/arktia-rules.md §3.1).
The six neighbours of a cell are the edge directions ``(+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) (0,+1)`` (east,
north-east, north-west, west, south-west, south-east). Layouts are translated so the smallest ``q`` and
``r`` are 0, and the cells are indexed in reading order (by ``r``, then ``q``); the engine uses those indices.

Cell notation, as in the game Hex: the column letter is ``q`` (``a`` for 0) and the row number is ``r + 1``,
so row 1 is the top row and each column runs diagonally down to the right. The placeholder 18-field layout
(docs/arktia-rules.md §3.3, rows 4-5-5-4) reads::

     b1  c1  d1  e1
   a2  b2  c2  d2  e2
     a3  b3  c3  d3  e3
       a4  b4  c4  d4

The default 18/27/36-field layouts are **placeholders**, not the printed ones (the rulebook's figure is
lost): the most compact hex-convex shapes of that size (docs/arktia-rules.md §3.3). Any other layout can be
supplied as a list of cells.

>>> b = Layout.named("placeholder-18")
>>> len(b.cells), b.name_of(0), b.index("a2")
(18, 'b1', 4)
>>> [b.name_of(c) for c in b.neighbours[b.index("b2")] if c >= 0]
['c2', 'c1', 'b1', 'a2', 'a3', 'b3']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from floe.core.errors import OptionError
from floe.core.i18n import Msg
from floe.games.arktia.i18n import L_, _

# The six edge directions (docs/arktia-rules.md §3.1) in a fixed order: E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
COLUMNS = "abcdefghijklmnopqrstuvwxyz"
MIN_CELLS = 3
# The largest board a table may ask for: the biggest placeholder has 36 fields, and the engine's cost grows
# with the square of the fields (straight lines), so a bound keeps one table's work small.
MAX_CELLS = 64
# Entries of each memo of a layout (``Layout.ice_facts``, ``reach_around``, ``near_every_group``): at most
# about half a megabyte each, and the lru cache below keeps at most 128 layouts. (65,536 entries measured no
# faster in random play.)
MEMO_MAX = 4096


def _placeholder(q_max: int, r_max: int, s_min: int, s_max: int) -> tuple[tuple[int, int], ...]:
    return tuple((q, r) for r in range(r_max + 1) for q in range(q_max + 1) if s_min <= q + r <= s_max)


# Spec 3.3 [GUESS]: compact placeholder shapes, NOT the printed layouts (the rulebook's figure is lost).
PLACEHOLDERS: dict[str, tuple[tuple[int, int], ...]] = {
    "placeholder-18": _placeholder(4, 3, 1, 6),  # rows 4-5-5-4
    "placeholder-27": _placeholder(5, 5, 2, 7),  # rows 4-5-6-5-4-3
    "placeholder-36": _placeholder(6, 5, 2, 9),  # rows 5-6-7-7-6-5
}
DEFAULT_LAYOUT = {2: "placeholder-18", 3: "placeholder-27", 4: "placeholder-36"}


@dataclass(frozen=True, eq=False)
class Layout:
    """One board shape with its precomputed geometry (shared, never mutated).

    ``neighbours[i][d]`` is the cell next to ``i`` in direction ``d`` (-1 if none); ``rays[i][d]`` lists the
    cells from ``i`` outwards in direction ``d`` while they belong to the layout; ``nb_mask[i]`` has bit ``j``
    set for each neighbour ``j``; ``lines`` lists every (from, to) pair on a straight line of layout cells,
    and ``line_index`` maps ``from * size + to`` to its position in ``lines``.

    For the move generator and melting (bit sets of cells): ``full`` has every cell; ``ray_masks[i]``
    holds, per direction, the ray's cells and whether their indices rise outwards (cells are in reading
    order, so along a straight line they always rise or always fall); ``reach[i]`` is the union of ``i``'s
    six rays; ``interior`` has the cells with six neighbours; ``one_arc[i]`` lists the sets of ``i``'s
    neighbours that lie in one unbroken arc around it (the empty set too): taking ``i`` out of a connected
    region whose cells next to ``i`` are such a set leaves the region connected, as consecutive neighbours
    touch each other. The ``_..._cache`` dicts memoise board facts (bounded, shared by all games on the
    layout).
    """

    name: str  # a placeholder name, or "custom"
    cells: tuple[tuple[int, int], ...]
    size: int = field(init=False)
    neighbours: tuple[tuple[int, ...], ...] = field(init=False)
    nb_mask: tuple[int, ...] = field(init=False)
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False)
    lines: tuple[tuple[int, int], ...] = field(init=False)
    line_index: dict[int, int] = field(init=False)
    names: tuple[str, ...] = field(init=False)
    _by_name: dict[str, int] = field(init=False)
    full: int = field(init=False)
    ray_masks: tuple[tuple[tuple[int, bool], ...], ...] = field(init=False)
    reach: tuple[int, ...] = field(init=False)
    interior: int = field(init=False)
    one_arc: tuple[frozenset[int], ...] = field(init=False)
    _ice_cache: dict[int, tuple[bool, int]] = field(init=False)
    _reach_cache: dict[int, int] = field(init=False)
    _near_cache: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        index = {cell: i for i, cell in enumerate(self.cells)}
        n = len(self.cells)
        neighbours = tuple(
            tuple(index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in self.cells
        )
        nb_mask = tuple(sum(1 << j for j in row if j >= 0) for row in neighbours)
        rays = []
        for i in range(n):
            per_dir = []
            for d in range(6):
                ray = []
                j = neighbours[i][d]
                while j >= 0:
                    ray.append(j)
                    j = neighbours[j][d]
                per_dir.append(tuple(ray))
            rays.append(tuple(per_dir))
        lines = sorted((i, j) for i in range(n) for ray in rays[i] for j in ray)
        names = tuple(f"{COLUMNS[q]}{r + 1}" for q, r in self.cells)
        set_ = object.__setattr__
        set_(self, "size", n)
        set_(self, "neighbours", neighbours)
        set_(self, "nb_mask", nb_mask)
        set_(self, "rays", tuple(rays))
        set_(self, "lines", tuple(lines))
        set_(self, "line_index", {i * n + j: k for k, (i, j) in enumerate(lines)})
        set_(self, "names", names)
        set_(self, "_by_name", {name: i for i, name in enumerate(names)})
        set_(self, "full", (1 << n) - 1)
        ray_masks = tuple(
            tuple((sum(1 << j for j in ray), bool(ray) and ray[0] > i) for ray in rays[i]) for i in range(n)
        )
        set_(self, "ray_masks", ray_masks)
        set_(self, "reach", tuple(sum(m for m, _ in row) for row in ray_masks))
        set_(self, "interior", sum(1 << i for i in range(n) if min(neighbours[i]) >= 0))
        set_(self, "one_arc", tuple(_one_arc_sets(row) for row in neighbours))
        set_(self, "_ice_cache", {})
        set_(self, "_reach_cache", {})
        set_(self, "_near_cache", {})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.cells == other.cells

    def __hash__(self) -> int:
        return hash(self.cells)

    # --- construction -----------------------------------------------------------------------------------
    @classmethod
    def named(cls, name: str) -> Layout:
        """A placeholder layout by name (``placeholder-18``, ``-27``, ``-36``; ``18``/``27``/``36`` too)."""
        key = str(name).strip().lower()
        if key.isdigit():
            key = f"placeholder-{key}"
        if key not in PLACEHOLDERS:
            known = ", ".join(PLACEHOLDERS)
            said = L_(
                "unknown layout %(name)s; layouts: %(known)s or a list of cells", name=repr(name), known=known
            )
            raise OptionError(said)
        return _layout(key, PLACEHOLDERS[key])

    @classmethod
    def from_cells(cls, cells: Iterable[Any]) -> Layout:
        """A custom layout from cells given as ``[q, r]`` pairs or names such as ``"c3"`` (or one string
        of names separated by spaces or commas). It must be one connected region of at least 3 cells.

        >>> Layout.from_cells("a1 b1 a2").names
        ('a1', 'b1', 'a2')
        >>> Layout.from_cells([[-1, 0], [0, 0]]).names
        Traceback (most recent call last):
        ...
        floe.core.errors.OptionError: a layout needs at least 3 cells, not 2
        """
        items: Sequence[Any] = cells.replace(",", " ").split() if isinstance(cells, str) else list(cells)
        if len(items) > MAX_CELLS:
            raise OptionError(_too_many_cells(len(items)))
        coords = [_parse_coord(item) for item in items]
        if len(set(coords)) != len(coords):
            raise OptionError(L_("a layout lists a cell twice"))
        if len(coords) < MIN_CELLS:
            said = L_("a layout needs at least %(least)s cells, not %(n)s", least=MIN_CELLS, n=len(coords))
            raise OptionError(said)
        if len(coords) > MAX_CELLS:
            raise OptionError(_too_many_cells(len(coords)))
        q0 = min(q for q, _ in coords)
        r0 = min(r for _, r in coords)
        shifted = sorted(((q - q0, r - r0) for q, r in coords), key=lambda c: (c[1], c[0]))
        if max(q for q, _ in shifted) >= len(COLUMNS):
            raise OptionError(L_("a layout may span at most %(n)s columns", n=len(COLUMNS)))
        placeholder = next((k for k, v in PLACEHOLDERS.items() if v == tuple(shifted)), None)
        layout = _layout(placeholder or "custom", tuple(shifted))
        if not layout.is_connected((1 << layout.size) - 1):
            raise OptionError(L_("a layout must be one connected region of cells"))
        return layout

    def to_option(self) -> str | list[list[int]]:
        """How the layout goes into a record: its name, or the list of ``[q, r]`` cells if custom."""
        if self.name in PLACEHOLDERS:
            return self.name
        return [[q, r] for q, r in self.cells]

    # --- notation ---------------------------------------------------------------------------------------
    def name_of(self, cell: int) -> str:
        """The notation of cell index ``cell`` (``c3``)."""
        return self.names[cell]

    def index(self, name: str) -> int:
        """The cell index for a notation such as ``c3``; ``ValueError`` if the layout has no such cell."""
        key = name.strip().lower()
        if key not in self._by_name:
            raise ValueError(_("no field %(name)r on this board") % {"name": name.strip()})
        return self._by_name[key]

    # --- geometry ---------------------------------------------------------------------------------------
    def is_connected(self, mask: int) -> bool:
        """Whether the cells in bit set ``mask`` form one region (an empty set counts as connected)."""
        return mask == 0 or component(self.nb_mask, mask, mask & -mask) == mask

    # --- memoised board facts for the rules (each bounded: emptied when full; refilling is cheap) ---------
    def ice_facts(self, ice: int) -> tuple[bool, int]:
        """(whether the cells of ``ice`` form one region, which of them are edge fields: fewer than six
        neighbours in ``ice``), memoised per ``ice``: a game melts only a few fields, so its boards repeat."""
        facts = self._ice_cache.get(ice)
        if facts is None:
            holes = self.full & ~ice
            edge = ice & ~self.interior
            for c in bits(ice & self.interior):
                if self.nb_mask[c] & holes:
                    edge |= 1 << c
            facts = (self.is_connected(ice), edge)
            _remember(self._ice_cache, ice, facts)
        return facts

    def melted(self, ice: int, cell: int) -> None:
        """Note that ``cell`` melted out of ``ice`` by the rules: what is left is one region
        (docs/arktia-rules.md §9 lets a field melt only then) and the edge gains the field's neighbours. Saves
        ``ice_facts`` a walk over the board after each melt."""
        facts = self._ice_cache.get(ice)
        if facts is not None:
            bit = 1 << cell
            left = ice & ~bit
            _remember(self._ice_cache, left, (True, (facts[1] | self.nb_mask[cell] & left) & ~bit))

    def reach_around(self, cell: int, holes: int) -> int:
        """The cells on ``cell``'s six rays up to (not including) the first of ``holes`` on each, memoised
        per (cell, holes on its rays). Along a ray the cell indices only rise or only fall, so the first
        hole is the lowest or the highest hole bit of that ray."""
        key = holes << 6 | cell  # cell < MAX_CELLS = 64
        out = self._reach_cache.get(key)
        if out is None:
            out = 0
            for ray, rising in self.ray_masks[cell]:
                blocked = ray & holes
                if not blocked:
                    out |= ray
                elif rising:
                    out |= ray & ((blocked & -blocked) - 1)
                else:
                    out |= ray & ~((1 << blocked.bit_length()) - 1)
            _remember(self._reach_cache, key, out)
        return out

    def near_every_group(self, mask: int) -> int:
        """The cells in or next to every connected group of ``mask`` (every cell if ``mask`` is empty),
        memoised per ``mask``: where a Muglu may land and leave its colour's groups one group."""
        out = self._near_cache.get(mask)
        if out is None:
            nb = self.nb_mask
            out = self.full
            rest = mask
            while rest:
                comp = frontier = rest & -rest
                touch = 0
                while frontier:
                    low = frontier & -frontier
                    frontier ^= low
                    m = nb[low.bit_length() - 1]
                    touch |= m
                    new = m & mask & ~comp
                    comp |= new
                    frontier |= new
                out &= comp | touch
                rest &= ~comp
            _remember(self._near_cache, mask, out)
        return out

    def render_position(self, cell: int) -> tuple[int, int]:
        """(row, column in half-hex steps) of a cell for text rendering, rows offset as in
        docs/arktia-rules.md §3.3."""
        q, r = self.cells[cell]
        return r, 2 * q + r


@lru_cache(maxsize=128)
def _layout(name: str, cells: tuple[tuple[int, int], ...]) -> Layout:
    # Layouts are immutable and their geometry costs about a millisecond to precompute; states rebuilt from
    # records or observations (search, presenters) ask for the same few layouts over and over.
    return Layout(name, cells)


def _remember(memo: dict[int, Any], key: int, value: Any) -> None:
    # A bound, not an eviction policy: a full memo is emptied; refilling costs microseconds per entry.
    if len(memo) >= MEMO_MAX:
        memo.clear()
    memo[key] = value


def _one_arc_sets(row: tuple[int, ...]) -> frozenset[int]:
    # Every subset of the existing neighbours (as a bit set of cells) whose directions form at most one run
    # around the circle of six.
    present = [d for d in range(6) if row[d] >= 0]
    out = set()
    for pick in range(1 << len(present)):
        chosen = {present[k] for k in range(len(present)) if pick >> k & 1}
        starts = sum(1 for d in chosen if (d - 1) % 6 not in chosen)
        if starts <= 1:
            out.add(sum(1 << row[d] for d in chosen))
    return frozenset(out)


def component(nb_mask: Sequence[int], mask: int, seed: int) -> int:
    """The cells of ``mask`` connected to the cells of ``seed`` (bit sets; ``seed`` within ``mask``)."""
    comp = frontier = seed
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = nb_mask[low.bit_length() - 1] & mask & ~comp
        comp |= new
        frontier |= new
    return comp


def components(nb_mask: Sequence[int], mask: int) -> list[int]:
    """The connected regions of bit set ``mask``, ordered by their lowest cell."""
    out = []
    rest = mask
    while rest:
        comp = component(nb_mask, mask, rest & -rest)
        out.append(comp)
        rest &= ~comp
    return out


def bits(mask: int) -> list[int]:
    """The cell indices in bit set ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _too_many_cells(n: int) -> Msg:
    return L_("a layout may have at most %(most)s cells, not %(n)s", most=MAX_CELLS, n=n)


def _parse_coord(item: Any) -> tuple[int, int]:
    if isinstance(item, str):
        text = item.strip().lower()
        row = text[1:]
        if (
            len(text) >= 2
            and text[0] in COLUMNS
            and row.isascii()
            and row.isdigit()
            and 1 <= int(row) <= 1000
        ):
            return COLUMNS.index(text[0]), int(text[1:]) - 1
        said = L_("cannot read %(item)s as a cell: write a column letter and a row, like c3", item=repr(item))
        raise OptionError(said)
    if (
        isinstance(item, list | tuple)
        and len(item) == 2
        and all(type(v) is int and abs(v) <= 1000 for v in item)
    ):
        return int(item[0]), int(item[1])
    raise OptionError(L_("cannot read %(item)s as a cell: give [q, r] or a name like c3", item=repr(item)))

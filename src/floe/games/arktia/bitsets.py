"""Bit sets of the fields of one position, kept in step with ``fields`` so the rules never scan the board.

``ArktiaStateData._bits`` is a list of ints, each a set of field indices (bit ``c`` for field ``c``):

- ``bits[k]`` for colour ``k`` (0..4): the fields holding at least one Muglu of that colour, at any height;
- ``bits[TOP_AT + k]``: the fields whose top piece (the one controlling the field) is colour ``k``;
- ``bits[SHAPE_AT + m]`` for size mask ``m`` (``towers.MASK``): the fields holding exactly those sizes;
  ``bits[FREE]`` (mask 0) is the fields with no Muglu;
- ``bits[HOLES]``: the melted fields.

The rules change ``fields`` only through ``put``, which updates both. Anything else that edits a position
assigns a new ``fields`` list (as ``load_fields`` and hand-built test positions do); ``current`` notices a
list it has not seen and rebuilds the sets from scratch, so a position built that way is still read right.
``test_arktia_bitsets.py`` checks that the kept sets equal rebuilt ones along random games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from floe.games.arktia.towers import COLOURS, DROP_OK, MASK, N_CODES, N_COLOURS, TOP

if TYPE_CHECKING:
    from floe.games.arktia.state import ArktiaStateData

TOP_AT = N_COLOURS
SHAPE_AT = 2 * N_COLOURS
FREE = SHAPE_AT
HOLES = SHAPE_AT + 8
N_SETS = HOLES + 1


def _toggles(code: int) -> tuple[int, ...]:
    # The sets a field with this code belongs to.
    if code < 0:
        return (HOLES,)
    out = [k for k in range(N_COLOURS) if COLOURS[code] >> k & 1]
    if TOP[code] >= 0:
        out.append(TOP_AT + TOP[code])
    out.append(SHAPE_AT + MASK[code])
    return tuple(out)


# TOGGLES[code]: the indices of the sets holding a field with that code; a hole (-1) reads the last entry.
TOGGLES: list[tuple[int, ...]] = [_toggles(code) for code in range(N_CODES)] + [(HOLES,)]

# ACCEPTING[mover mask]: the shape sets whose fields may receive that mover (towers.DROP_OK).
ACCEPTING: tuple[tuple[int, ...], ...] = tuple(
    tuple(SHAPE_AT + m for m in range(8) if DROP_OK[m][mover]) for mover in range(8)
)


def build(fields: list[int]) -> list[int]:
    """The sets of a board, computed from scratch."""
    sets = [0] * N_SETS
    for c, code in enumerate(fields):
        bit = 1 << c
        for i in TOGGLES[code]:
            sets[i] |= bit
    return sets


def current(st: ArktiaStateData) -> list[int]:
    """The sets of ``st``, rebuilt first if ``st.fields`` is a list they were not kept for."""
    fields = st.fields
    if st._bits_of is not fields:
        st._bits = build(fields)
        st._bits_of = fields
    return st._bits


def put(fields: list[int], sets: list[int], cell: int, code: int) -> None:
    """Set field ``cell`` to ``code`` and move its bit between the sets accordingly."""
    bit = 1 << cell
    for i in TOGGLES[fields[cell]]:
        sets[i] ^= bit
    for i in TOGGLES[code]:
        sets[i] ^= bit
    fields[cell] = code

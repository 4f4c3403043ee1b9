"""Muglus, stacks and the tower table (docs/arktia-rules.md §4 and §8) as lookup tables over one small int per
field.

Every legal stack holds at most one Muglu of each size, so a field is three slots (Globus, Diskus, Torus),
each empty or holding one colour. A field's **code** packs them: bits 0–2 the Globus's colour + 1, bits 3–5
the Diskus's, bits 6–8 the Torus's (0 = no piece). A melted field is ``HOLE`` (-1).

Which sizes are present (the size **mask**: 1 Globus, 2 Diskus, 4 Torus) decides the shape, so the order
bottom → top follows from the mask:

====  =========================  ===========================  ==========
mask  shape                      bottom → top                 controls
====  =========================  ===========================  ==========
1/2/4 a lone Globus/Diskus/Torus the piece                    the piece
3     tower A                    Diskus, Globus               Globus
6     tower B                    Torus, Diskus                Diskus
5     tower C                    Globus inside Torus          Torus
7     tower D                    Torus, Diskus, Globus        Globus
====  =========================  ===========================  ==========

(C is stored as "Globus, Torus": the Torus encloses the Globus and is the top, controlling piece.)

A mover is the top piece, the top two pieces of D, or a whole stack: any top part of the bottom → top order,
so every mover is itself a legal shape. Dropping a mover on a field is legal exactly when the field's order
followed by the mover's order is the order of a legal shape; that reproduces the table of docs/arktia-rules.md
§4.3 (``DROP_OK``). When pieces leave a stack by removal (docs/arktia-rules.md §8), the rest re-settles into
the one shape its sizes allow: D without its Diskus becomes C (the Globus drops into the Torus), and control
follows the new top.

>>> ORDER[7], TOP_SIZE[5], SHAPE[5]
((2, 1, 0), 2, 'C')
>>> DROP_OK[4][1], DROP_OK[1][4], DROP_OK[4][3], DROP_OK[1][6]
(False, True, True, False)
"""

from __future__ import annotations

GLOBUS, DISKUS, TORUS = 0, 1, 2
SIZE_LETTERS = "gdt"
SIZE_NAMES = ("Globus", "Diskus", "Torus")
PIECES_PER_SIZE = 3  # each colour has 3 Muglus of each size (docs/arktia-rules.md §2)
PIECES_PER_COLOUR = 3 * PIECES_PER_SIZE

NEUTRAL = 4  # colours 0..3 are the seats' colours; 4 is the neutral colour
N_COLOURS = 5
HOLE = -1
EMPTY = 0
N_CODES = 512

# Bottom → top order of the sizes present (docs/arktia-rules.md §4.2; mask 5 is C: Globus inside, Torus on
# top).
ORDER: dict[int, tuple[int, ...]] = {
    0: (),
    1: (GLOBUS,),
    2: (DISKUS,),
    4: (TORUS,),
    3: (DISKUS, GLOBUS),
    6: (TORUS, DISKUS),
    5: (GLOBUS, TORUS),
    7: (TORUS, DISKUS, GLOBUS),
}
SHAPE = {0: "", 1: "g", 2: "d", 4: "t", 3: "A", 6: "B", 5: "C", 7: "D"}
TOP_SIZE = {m: order[-1] for m, order in ORDER.items() if order}


def _mask(sizes: tuple[int, ...]) -> int:
    return sum(1 << s for s in sizes)


# What may be lifted from a stack: each top part of its order, smallest first (docs/arktia-rules.md §4.3).
LIFTS: dict[int, tuple[int, ...]] = {
    m: tuple(_mask(order[k:]) for k in range(len(order) - 1, -1, -1)) for m, order in ORDER.items()
}

# DROP_OK[field mask][mover mask]: the docs/arktia-rules.md §4.3 table (empty fields accept any mover).
DROP_OK: list[list[bool]] = [
    [d & m == 0 and m != 0 and ORDER[d | m] == ORDER[d] + ORDER[m] for m in range(8)] for d in range(8)
]

# Bits of a code that hold the slots of the sizes in a mask.
SLOT_BITS: tuple[int, ...] = tuple(sum(7 << (3 * s) for s in range(3) if m >> s & 1) for m in range(8))


def colour_of(code: int, size: int) -> int:
    """The colour in ``size``'s slot of a field code, or -1 if that slot is empty."""
    return (code >> (3 * size) & 7) - 1


def make_code(pieces: dict[int, int]) -> int:
    """A field code from ``{size: colour}``.

    >>> make_code({DISKUS: 0, GLOBUS: 1})
    10
    """
    return sum((colour + 1) << (3 * size) for size, colour in pieces.items())


def _tables() -> tuple[list[int], list[int], list[tuple[int, ...]], list[list[int]], list[int]]:
    masks, tops, counts, strips, colours = [], [], [], [], []
    for code in range(N_CODES):
        slots = [(code >> (3 * s) & 7) - 1 for s in range(3)]
        valid = all(c < N_COLOURS for c in slots)
        mask = sum(1 << s for s in range(3) if slots[s] >= 0)
        masks.append(mask)
        tops.append(slots[TOP_SIZE[mask]] if mask and valid else -1)
        counts.append(tuple(sum(1 for c in slots if c == colour) for colour in range(N_COLOURS)))
        strips.append(
            [code & ~sum(7 << (3 * s) for s in range(3) if slots[s] == c) for c in range(N_COLOURS)]
        )
        colours.append(sum(1 << c for c in set(slots) if 0 <= c < N_COLOURS))
    return masks, tops, counts, strips, colours


# MASK[code] sizes present; TOP[code] colour controlling the field (-1 if empty); COUNT[code][colour] pieces
# of that colour; STRIP[code][colour] the code with that colour's pieces taken off; COLOURS[code] bit set of
# the colours present.
MASK, TOP, COUNT, STRIP, COLOURS = _tables()
# ACCEPTS[mover mask][code]: whether a field with that code may receive the mover (DROP_OK by code).
ACCEPTS: list[list[bool]] = [[DROP_OK[MASK[code]][m] for code in range(N_CODES)] for m in range(8)]
# ON_BOARD_COUNT[colour][code]: COUNT by colour first, so ``sum(map(row.__getitem__, fields))`` counts a
# colour's Muglus on the board (a hole, -1, reads entry 511, which holds no real colour).
ON_BOARD_COUNT: list[list[int]] = [[COUNT[code][k] for code in range(N_CODES)] for k in range(N_COLOURS)]
# SIZES_OF[code][colour]: the sizes of that colour's pieces on the field.
SIZES_OF: list[list[tuple[int, ...]]] = [
    [tuple(s for s in range(3) if (code >> (3 * s) & 7) == colour + 1) for colour in range(N_COLOURS)]
    for code in range(N_CODES)
]


def is_legal_code(code: int) -> bool:
    """Whether ``code`` is a hole, an empty field or a legal stack (every slot a real colour)."""
    if code == HOLE:
        return True
    if not 0 <= code < N_CODES:
        return False
    return all((code >> (3 * s) & 7) <= N_COLOURS for s in range(3))


def pieces_bottom_up(code: int) -> list[tuple[int, int]]:
    """The (size, colour) pieces of a field, bottom to top.

    >>> pieces_bottom_up(make_code({TORUS: 0, DISKUS: 4, GLOBUS: 1}))
    [(2, 0), (1, 4), (0, 1)]
    """
    if code <= 0:
        return []
    return [(s, colour_of(code, s)) for s in ORDER[MASK[code]]]

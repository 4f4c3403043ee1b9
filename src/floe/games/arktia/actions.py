"""Arktia's fixed action space for one layout: every decision is one small integer with a notation.

With ``N`` fields and ``L`` straight-line (from, to) pairs of the layout (``Layout.lines``):

==================  ==========================================  =============================
ids                 action                                      notation
==================  ==========================================  =============================
0                   stop: end one's own game (docs/arktia-rules.md §10(d))        ``stop``
PLACE + 3c + s      place a Muglu of size s from supply on c     ``g@c3`` ``d@c3`` ``t@c3``
NEUTRAL + 3c + s    set-up: place a neutral Muglu of size s      ``neutral g@c3``
KEEP + N·k + c      removal tie: keep colour k's group whose     ``keep p2 c3``, ``keep n c3``
                    first field is c; the other groups go
MELT + c            melt the empty edge field c                  ``melt c3``
MOVE + 7l + m - 1   lift the pieces of size mask m (1..7) and    ``g c3-c5``, ``dg c3-c5``,
                    move them along line l = (from, to)         ``tdg c3-c5``, ``gt c3-c5``
==================  ==========================================  =============================

Sizes are ``g`` Globus, ``d`` Diskus, ``t`` Torus. A mover is written by the letters of its pieces from
bottom to top (``dg``: a Globus on a Diskus, tower A; ``td``: tower B; ``gt``: tower C, the Globus inside
the Torus; ``tdg``: tower D); parsing accepts the letters in any order. Colours are ``p1``..``p4`` and ``n``
(neutral). Notation is lowercase; parsing ignores case and extra spaces, and also reads ``place g c3`` and
``g c3`` for a placement.

>>> from floe.games.arktia.board import Layout
>>> space = ActionSpace(Layout.named("placeholder-18"))
>>> a = space.string_to_action("DG c3-e3"); space.action_to_string(a)
'dg c3-e3'
>>> space.action_to_string(space.string_to_action("place t a2"))
't@a2'
"""

from __future__ import annotations

from typing import NamedTuple

from floe.core.errors import InvalidActionError
from floe.games.arktia.board import Layout
from floe.games.arktia.i18n import _
from floe.games.arktia.native import MOVEGEN
from floe.games.arktia.towers import NEUTRAL, ORDER, SIZE_LETTERS

STOP = 0
PLACE = 1
N_MOVER_KINDS = 7  # size masks 1..7


def colour_name(colour: int) -> str:
    """``p1``..``p4`` for a seat's colour, ``n`` for the neutral colour."""
    return "n" if colour == NEUTRAL else f"p{colour + 1}"


def parse_colour(text: str) -> int:
    """The colour for ``p2``/``P2``/``n``/``neutral``."""
    key = text.strip().lower()
    if key in ("n", "neutral"):
        return NEUTRAL
    digits = key.removeprefix("p")
    if digits.isdigit() and 1 <= int(digits) <= 4:
        return int(digits) - 1
    raise InvalidActionError(_("no colour %(text)r: write p1..p4 or n") % {"text": text})


def mover_letters(mask: int) -> str:
    """The letters of a mover, bottom to top (``dg`` for tower A)."""
    return "".join(SIZE_LETTERS[s] for s in ORDER[mask])


def parse_mover(text: str) -> int:
    """The size mask of a mover written as letters in any order (``gd`` = ``dg`` = 3)."""
    key = text.strip().lower()
    mask = 0
    for ch in key:
        if ch not in SIZE_LETTERS or mask >> SIZE_LETTERS.index(ch) & 1:
            raise InvalidActionError(
                _("cannot read %(text)r as pieces: use g, d, t, each at most once") % {"text": text}
            )
        mask |= 1 << SIZE_LETTERS.index(ch)
    if not mask:
        raise InvalidActionError(_("name the pieces to move: g, d, t or a tower such as dg"))
    return mask


class ArktiaAction(NamedTuple):
    """An action id decoded: what it does and where (fields are cell indices; -1 where not used).

    ``kind`` is ``stop``, ``place``, ``neutral``, ``keep``, ``melt`` or ``move``; ``cell`` the field placed
    on, kept, melted or moved to; ``size`` a placed Muglu's size; ``colour`` a kept group's colour; ``src``
    a move's origin and ``mover`` its size mask (1..7).
    """

    kind: str
    cell: int = -1
    size: int = -1
    colour: int = -1
    src: int = -1
    mover: int = 0


class ActionSpace:
    """The id layout and notation for one board layout (ids are stable for that layout)."""

    __slots__ = ("KEEP", "MELT", "MOVE", "NEUTRAL", "N_ACTIONS", "layout", "move_ids", "native", "size")

    def __init__(self, layout: Layout) -> None:
        n = layout.size
        self.layout = layout
        self.size = n
        self.NEUTRAL = PLACE + 3 * n
        self.KEEP = self.NEUTRAL + 3 * n
        self.MELT = self.KEEP + 5 * n
        self.MOVE = self.MELT + n
        self.N_ACTIONS = self.MOVE + N_MOVER_KINDS * len(layout.lines)
        # Move generation's lookup: ``move_ids[src][dst]`` is the id of moving size mask 1 (a Globus) from
        # src to dst (other movers add ``mask - 1``), -1 where the two are not on one straight line.
        self.move_ids: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.move(src, dst, 1) if src * n + dst in layout.line_index else -1 for dst in range(n))
            for src in range(n)
        )
        # The C move generator's copy of the geometry (native.py), or None where it is not built.
        self.native = MOVEGEN.geometry(layout.neighbours, self.move_ids) if MOVEGEN is not None else None

    def __reduce__(self) -> tuple[type[ActionSpace], tuple[Layout]]:
        # Rebuilt from its layout: the C geometry does not pickle, and everything else follows the layout.
        return ActionSpace, (self.layout,)

    # --- ids --------------------------------------------------------------------------------------------
    def place(self, cell: int, size: int) -> int:
        """The id of placing a Muglu of ``size`` from supply on ``cell``."""
        return PLACE + 3 * cell + size

    def neutral(self, cell: int, size: int) -> int:
        """The id of placing a neutral Muglu of ``size`` on ``cell`` during set-up."""
        return self.NEUTRAL + 3 * cell + size

    def keep(self, colour: int, cell: int) -> int:
        """The id of keeping ``colour``'s group whose first field is ``cell``."""
        return self.KEEP + self.size * colour + cell

    def melt(self, cell: int) -> int:
        """The id of melting ``cell``."""
        return self.MELT + cell

    def move(self, src: int, dst: int, mover: int) -> int:
        """The id of moving the pieces of size mask ``mover`` from ``src`` to ``dst`` (a straight line)."""
        return self.MOVE + N_MOVER_KINDS * self.layout.line_index[src * self.size + dst] + mover - 1

    def decode_move(self, action: int) -> tuple[int, int, int]:
        """(from, to, mover mask) of a move id."""
        line, kind = divmod(action - self.MOVE, N_MOVER_KINDS)
        src, dst = self.layout.lines[line]
        return src, dst, kind + 1

    def decode(self, action: int) -> ArktiaAction:
        """What ``action`` does; ``InvalidActionError`` if the id is outside the space."""
        if action == STOP:
            return ArktiaAction("stop")
        if PLACE <= action < self.NEUTRAL:
            cell, size = divmod(action - PLACE, 3)
            return ArktiaAction("place", cell=cell, size=size)
        if self.NEUTRAL <= action < self.KEEP:
            cell, size = divmod(action - self.NEUTRAL, 3)
            return ArktiaAction("neutral", cell=cell, size=size)
        if self.KEEP <= action < self.MELT:
            colour, cell = divmod(action - self.KEEP, self.size)
            return ArktiaAction("keep", cell=cell, colour=colour)
        if self.MELT <= action < self.MOVE:
            return ArktiaAction("melt", cell=action - self.MELT)
        if self.MOVE <= action < self.N_ACTIONS:
            src, dst, mover = self.decode_move(action)
            return ArktiaAction("move", cell=dst, src=src, mover=mover)
        raise InvalidActionError(_("no Arktia action has id %(id)d") % {"id": action})

    # --- notation ---------------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """Canonical notation; ``InvalidActionError`` if the id is outside the space."""
        name = self.layout.names
        d = self.decode(action)
        if d.kind == "stop":
            return "stop"
        if d.kind == "place":
            return f"{SIZE_LETTERS[d.size]}@{name[d.cell]}"
        if d.kind == "neutral":
            return f"neutral {SIZE_LETTERS[d.size]}@{name[d.cell]}"
        if d.kind == "keep":
            return f"keep {colour_name(d.colour)} {name[d.cell]}"
        if d.kind == "melt":
            return f"melt {name[d.cell]}"
        return f"{mover_letters(d.mover)} {name[d.src]}-{name[d.cell]}"

    def string_to_action(self, text: str) -> int:
        """Parse notation (case and extra spaces ignored); ``InvalidActionError`` if it names no action."""
        key = " ".join(text.strip().lower().split())
        if key == "stop":
            return STOP
        words = key.split(" ")
        try:
            if words[0] == "neutral" and len(words) == 2 and "@" in words[1]:
                size, cell = self._drop(words[1])
                return self.neutral(cell, size)
            if words[0] == "place":
                words = words[1:]
            if len(words) == 1 and "@" in words[0]:
                size, cell = self._drop(words[0])
                return self.place(cell, size)
            if len(words) == 2 and words[0] in SIZE_LETTERS and "-" not in words[1]:
                return self.place(self.layout.index(words[1]), SIZE_LETTERS.index(words[0]))
            if words[0] == "keep" and len(words) == 3:
                return self.keep(parse_colour(words[1]), self.layout.index(words[2]))
            if words[0] == "melt" and len(words) == 2:
                return self.melt(self.layout.index(words[1]))
            if len(words) == 2 and words[1].count("-") == 1:
                mover = parse_mover(words[0])
                src_text, dst_text = words[1].split("-")
                src, dst = self.layout.index(src_text), self.layout.index(dst_text)
                if src * self.size + dst not in self.layout.line_index:
                    raise InvalidActionError(
                        _("%(src)s and %(dst)s are not on one straight line")
                        % {"src": src_text, "dst": dst_text}
                    )
                return self.move(src, dst, mover)
        except InvalidActionError:
            raise
        except ValueError as exc:
            raise InvalidActionError(str(exc)) from None
        raise InvalidActionError(_("cannot read %(text)r as an Arktia action") % {"text": text.strip()})

    def _drop(self, word: str) -> tuple[int, int]:
        size_text, _at, cell_text = word.partition("@")
        if len(size_text) != 1 or size_text not in SIZE_LETTERS:
            raise InvalidActionError(
                _("cannot read %(text)r as a Muglu: use g, d or t") % {"text": size_text}
            )
        return SIZE_LETTERS.index(size_text), self.layout.index(cell_text)

    def all_action_ids(self) -> range:
        """Every id of the space (it has no gaps)."""
        return range(self.N_ACTIONS)

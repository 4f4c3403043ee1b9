"""Arktia as plain text: the hex board with one token per field, then towers, seats and whose turn it is.

Tokens: an empty field shows its name (``c3``), a melted one ``~``; a field with Muglus shows the
controlling colour (``1``..``4``, ``N`` neutral) and the shape: ``g``/``d``/``t`` for a lone Globus, Diskus
or Torus, ``A``..``D`` for the towers of docs/arktia-rules.md §4.2. Every tower is then listed bottom to top.
"""

from __future__ import annotations

from floe.games.arktia.state import KEEP, MELT, NEUTRAL_SETUP, OUT_NAMES, OVER, STEP_NAMES, ArktiaStateData
from floe.games.arktia.towers import MASK, NEUTRAL, SHAPE, SIZE_LETTERS, TOP, pieces_bottom_up


def colour_char(colour: int) -> str:
    """``1``..``4`` for a seat's colour, ``N`` for neutral."""
    return "N" if colour == NEUTRAL else str(colour + 1)


def field_token(name: str, code: int) -> str:
    """The short text of one field (see the module docstring)."""
    if code < 0:
        return "~"
    if code == 0:
        return name
    return colour_char(TOP[code]) + SHAPE[MASK[code]]


def board_lines(st: ArktiaStateData) -> list[str]:
    """The board as rows of tokens, each row offset half a field from the one above
    (docs/arktia-rules.md §3.3)."""
    layout = st.space.layout
    placed = [
        (layout.render_position(c), field_token(layout.names[c], st.fields[c])) for c in range(layout.size)
    ]
    x0 = min(x for (_, x), _ in placed)
    rows: dict[int, list[tuple[int, str]]] = {}
    for (r, x), token in placed:
        rows.setdefault(r, []).append((2 * (x - x0), token))
    lines = []
    for r in sorted(rows):
        line = ""
        for col, token in sorted(rows[r]):
            line = line.ljust(col) + token
        lines.append(line.rstrip())
    return lines


def _sizes(counts: list[int], seat: int) -> str:
    return " ".join(f"{SIZE_LETTERS[s]}{counts[3 * seat + s]}" for s in range(3))


def render_plain(st: ArktiaStateData, seat: int | None) -> str:
    """Everything on the table as plain lines (perfect information: the same for every seat)."""
    layout = st.space.layout
    head = f"turn {st.turn + 1}  step {STEP_NAMES[st.step]}"
    if st.step != OVER:
        head += f"  P{st.player + 1} to act"
        if st.step == NEUTRAL_SETUP:
            head += " (placing neutral Muglus)"
        elif st.step == KEEP:
            head += f" (choose which {colour_char(st.pending_keep[0])} group survives)"
        elif st.step == MELT:
            head += " (melt a field)"
        elif st.turns[st.player] < 2:
            head += f" (opening round {st.turns[st.player] + 1})"
        elif st.melt_due:
            head += " (must melt after this turn)"
    lines = [head, *("  " + row for row in board_lines(st))]
    towers = [
        f"{layout.names[c]} {SHAPE[MASK[code]]}: "
        + " ".join(f"{SIZE_LETTERS[s]}{colour_char(k)}" for s, k in pieces_bottom_up(code))
        for c, code in enumerate(st.fields)
        if code > 0 and MASK[code] not in (1, 2, 4)
    ]
    if towers:
        lines.append("towers (bottom to top): " + ", ".join(towers))
    for q in range(st.n):
        you = " (you)" if seat == q else ""
        lines.append(
            f"P{q + 1}{you}: supply {_sizes(st.supply, q)}  on board {st.on_board(q)}"
            f"  captured {st.captured[q]}  melted {st.melted[q]}  {OUT_NAMES[st.out[q]]}"
        )
    if st.lost_by(NEUTRAL) or st.on_board(NEUTRAL):
        lines.append(f"neutral: on board {st.on_board(NEUTRAL)}  removed {st.lost_by(NEUTRAL)}")
    if st.step == NEUTRAL_SETUP:
        lines.append(
            "neutral Muglus to place: "
            + ", ".join(f"P{q + 1} {_sizes(st.neutral_supply, q)}" for q in range(st.n))
        )
    return "\n".join(lines)

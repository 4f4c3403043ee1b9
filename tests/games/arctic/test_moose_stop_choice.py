"""The Moose's "place no card" (docs/arctic-rules.md §D25) in the prompt: offered, since the rules allow it,
but after the placements in the terminal's numbering and in words that say what it leads to (issue 13, item
13)."""

from __future__ import annotations

from floe.games.arctic.terminal import VIEW

from .positions import arrange, legal, new_game


def test_the_moose_place_no_card_choice_comes_last_and_says_what_it_does() -> None:
    """Moose "place ±1" on a visible card of placement value 1 allows placing 0 cards
    (docs/arctic-rules.md §D25): legal, but not choice 1, and worded so it does not read as a plain "stop"."""
    _, st = new_game(2, powers=["moose-place"])
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: ["puffin-moose-3", "walrus-fox-2"]},
            holder={"moose": 0})  # fmt: skip
    assert (st.place_min, st.place_max) == (0, 2) and legal(st)[0] == "stop"
    ordered = VIEW.choice_order(st.legal_actions())
    assert st.action_to_string(ordered[-1]) == "stop"
    assert st.action_to_string(ordered[0]).startswith("place ")
    words = st.describe_action(ordered[-1])
    assert words.startswith("Moose: place no card this turn") and "tokens" in words
    st.apply(ordered[0])
    assert st.describe_action(st.string_to_action("stop")) == "Stop placing cards (1 placed)"

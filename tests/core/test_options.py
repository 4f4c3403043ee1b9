"""The option schema: every value checked and bounded before a game sees it, with one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floe.core.errors import OptionError
from floe.core.options import Choice, Option, OptionSchema, choices, read_file_options


def _lines(value: Any, players: int) -> list[str]:
    if not isinstance(value, str):
        raise OptionError("deck must be text")
    return [line for line in value.splitlines() if line]


SCHEMA = OptionSchema(
    (
        Option("mode", "choice", "a", "a mode", choices=choices(("a", "A"), ("B", "b"))),
        Option("fast", "bool", False, "fast"),
        Option("turns", "int", 10, "turns", low=1, high=100),
        Option("first", "seat", None, "first", random_ok=True),
        Option("name", "text", "", "a name", max_length=20),
        Option(
            "sides",
            "list",
            [0, 0],
            "sides",
            items=(
                Option("x", "choice", 0, "x", choices=(Choice(0, "random", ("random",)), Choice(1, "one"))),
                Option("y", "choice", 0, "y", choices=(Choice(0, "random", ("random",)), Choice(1, "one"))),
            ),
        ),
        Option("deck", "file", [], "a deck", max_length=200, parser=_lines),
    )
)


def test_values_are_read_and_normalised() -> None:
    parsed = SCHEMA.parse(
        {
            "mode": "b",
            "fast": "yes",
            "turns": " 12 ",
            "first": "random",
            "sides": "random,1",
            "deck": "a\nb\n",
        },
        players=3,
    )
    assert parsed == {
        "mode": "B",
        "fast": True,
        "turns": 12,
        "first": None,
        "sides": [0, 1],
        "deck": ["a", "b"],
    }
    assert SCHEMA.parse({"first": 2, "turns": 7.0}, players=3) == {"first": 2, "turns": 7}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"speed": 1}, "unknown option 'speed'"),
        ({"turns": "Infinity"}, "turns must be a whole number"),
        ({"turns": 1e400}, "turns must be a whole number"),
        ({"turns": float("nan")}, "turns must be a whole number"),
        ({"turns": "¹"}, "turns must be a whole number"),
        ({"turns": True}, "turns must be a whole number"),
        ({"turns": 101}, "turns must be between 1 and 100"),
        ({"first": 3}, "first must be between 0 and 2"),
        ({"mode": ["a"]}, "mode must be one of a, B"),
        ({"fast": "maybe"}, "fast must be true or false"),
        ({"name": "x" * 21}, "name is too long"),
        ({"name": [[[["x"]]]]}, "name must be text"),
        ({"sides": [0]}, "sides must be 2 values"),
        ({"deck": "[" * 100_000}, "deck is too long"),
        ({"deck": {"a": 1}}, "deck must be text, a number or a list, not dict"),
    ],
)
def test_bad_values_are_one_line_errors(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError) as info:
        SCHEMA.parse(raw, players=3)
    assert message in str(info.value) and "\n" not in str(info.value) and len(str(info.value)) < 300


def test_deep_nesting_is_refused_before_anything_walks_it() -> None:
    value: Any = "x"
    for _ in range(100_000):
        value = [value]
    with pytest.raises(OptionError, match="sides is too long"):
        SCHEMA.parse({"sides": value}, players=2)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([o.name for o in SCHEMA.options] + ["other"]),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
            lambda inner: st.lists(inner, max_size=4),
            max_leaves=10,
        ),
        max_size=4,
    )
)
def test_any_json_value_gives_a_result_or_an_option_error(raw: dict[str, Any]) -> None:
    try:
        SCHEMA.parse(raw, players=2)
    except OptionError as exc:
        assert "\n" not in str(exc)


def test_file_options_are_read_from_paths_on_the_command_line(tmp_path: Path) -> None:
    deck = tmp_path / "deck.csv"
    deck.write_text("one\ntwo\n", encoding="utf-8")
    assert SCHEMA.parse(read_file_options(SCHEMA, {"deck": str(deck), "turns": "3"}), 2)["deck"] == [
        "one",
        "two",
    ]
    with pytest.raises(OptionError, match=r"deck: cannot read .*missing\.csv: No such file"):
        read_file_options(SCHEMA, {"deck": str(tmp_path / "missing.csv")})
    deck.write_text("x" * 1000, encoding="utf-8")
    with pytest.raises(OptionError, match="too big"):
        read_file_options(SCHEMA, {"deck": str(deck)})


def test_an_unknown_option_suggests_close_names_and_lists_a_short_line_of_the_others() -> None:
    many = OptionSchema([Option(f"rule_number_{k}", "bool", default=False, help="a rule") for k in range(30)])
    with pytest.raises(OptionError) as close:
        many.parse({"rule_numbr_7": True}, 2)
    assert "did you mean rule_number_7" in str(close.value)
    with pytest.raises(OptionError) as far:
        many.parse({"zzz": True}, 2)
    message = str(far.value)
    assert message.startswith("unknown option 'zzz'; known options: rule_number_0, rule_number_1")
    assert message.endswith("more (floe options GAME)") and len(message) < 300
    with pytest.raises(OptionError, match=r"^unknown option 'zzz'; known options: rule_number_0$"):
        OptionSchema([Option("rule_number_0", "bool", default=False, help="a rule")]).parse({"zzz": 1}, 2)


def test_a_number_option_reads_plain_finite_numbers_within_its_bounds() -> None:
    """The ``number`` kind (bot parameters such as ``c`` and ``ms``): plain ASCII decimals, JSON numbers,
    ``low`` excluded with ``above_low``; NaN, infinities, booleans and other scripts' digits refused."""
    c = Option("c", "number", 0.7, "exploration", low=0, high=100, above_low=True)
    mix = Option("mix", "number", 0.0, "mix", low=0, high=1)
    assert [c.parse(v, 2) for v in ("0.7", ".5", "1e2", " 3 ", 12, 2.5)] == [0.7, 0.5, 100, 3, 12, 2.5]
    assert mix.parse("0", 2) == 0 and mix.parse("1", 2) == 1
    for bad in ("0", "100.5", "nan", "inf", "1e400", "١", "1_0", "-1", "0x10", True, None, [1]):
        with pytest.raises(OptionError, match=r"^c must be a positive number up to 100, not "):
            c.parse(bad, 2)
    with pytest.raises(OptionError, match=r"^mix must be a number from 0 to 1, not '1\.5'$"):
        mix.parse("1.5", 2)
    assert c.to_dict()["above_low"] is True and (c.to_dict()["low"], c.to_dict()["high"]) == (0, 100)
    with pytest.raises(ValueError, match="needs low and high"):
        Option("x", "number", 1, "x")


def test_a_whole_number_too_long_to_convert_is_out_of_range() -> None:
    with pytest.raises(OptionError, match=r"^turns must be between 1 and 100, not '9999999999999999'$"):
        SCHEMA.parse({"turns": "9" * 16}, 2)

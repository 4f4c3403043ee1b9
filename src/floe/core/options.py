"""A game's options, declared once: the schema every door into a game reads.

Each ``Option`` says its name, kind, default, bounds or choices, a one-line help and which rulebook
passage or decision it follows. ``OptionSchema.parse`` is the one validator: the command line's
``--option key=value`` (text), the web lobby's JSON and a stored record's options all go through it, and
every value is checked against its bounds before a game builds anything from it. The lobby's form
(``describe``) and the option tables in the docs (``markdown``) are generated from the same schema.

>>> schema = OptionSchema((Option("turns", "int", 10, "turn limit", low=1, high=99),))
>>> schema.parse({"turns": "12"}, players=2)
{'turns': 12}
>>> schema.parse({"turns": "0"}, players=2)
Traceback (most recent call last):
...
floe.core.errors.OptionError: turns must be between 1 and 99, not '0'
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from floe.core.errors import OptionError
from floe.core.i18n import L_, NL_, Msg

# A review marker of a rules spec in an option's source (``[GUESS]``, ``[CONFLICT]``): for the docs only.
_MARKER = re.compile(r"\s*\[[A-Z]+\]")

Kind = Literal["choice", "bool", "int", "number", "seat", "text", "list", "file"]
# A custom parser for a ``text`` option: (value, players) -> the normalised, JSON-ready value.
Parser = Callable[[Any, int], Any]

# No option value, whatever its kind, may be larger than this (characters of text, or items and characters
# of nested lists together); a game's own bound on an option may be smaller.
MAX_VALUE_SIZE = 4000
MAX_OPTIONS = 64  # more keys than any schema has: refused before any is read
KNOWN_CHARS = 200  # the known option names an "unknown option" message lists at most (one short line)
_INT = re.compile(r"[+-]?[0-9]{1,12}")  # ASCII digits only: "¹".isdigit() is True, int("¹") fails
_DIGITS = re.compile(r"[+-]?[0-9]+")  # longer: out of any range (its length is bounded before)
# A plain decimal number (``0.7``, ``.5``, ``1e3``): Python's float() also reads other scripts' digits,
# underscores, ``nan`` and ``inf``, which an option should not.
_DECIMAL = re.compile(r"(?:[0-9]{1,15}(?:\.[0-9]{0,15})?|\.[0-9]{1,15})(?:[eE][+-]?[0-9]{1,3})?")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True)
class Choice:
    """One allowed value of a ``choice`` option, with words for people and other spellings accepted."""

    value: str | int | bool
    text: str = ""
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    """One option of a game (see the module docstring).

    ``kind``: ``choice`` (one of ``choices``), ``bool``, ``int`` (``low``..``high``), ``number`` (a decimal
    number from ``low`` to ``high``; above ``low`` only with ``above_low``), ``seat`` (a seat
    number 0..players-1; with ``random_ok`` also ``random``, read as None), ``text`` (at most
    ``max_length`` characters, read by ``parser``; ``choices`` are then suggestions for the lobby),
    ``list`` (one value per option of ``items``, given as a list or comma-separated text) or ``file``
    (the contents of a file the player supplies, at most ``max_length`` characters, read by ``parser``
    into the value stored in records: the command line reads ``key=PATH``, the lobby uploads the file; a
    server never opens a path it is sent).
    ``stored=False``: an input-only convenience folded into other options by the game (not in records).
    ``lobby=False``: not offered in the web lobby's form. ``advanced``: shown under "more rules".
    ``default_text`` words a default that depends on other things (the player count, a preset).
    """

    name: str
    kind: Kind
    default: Any
    help: str
    source: str = ""
    label: str = ""
    choices: tuple[Choice, ...] = ()
    low: int | None = None
    high: int | None = None
    random_ok: bool = False
    above_low: bool = False
    max_length: int = 200
    parser: Parser | None = None
    items: tuple[Option, ...] = ()
    stored: bool = True
    lobby: bool = True
    advanced: bool = False
    default_text: str = ""

    def __post_init__(self) -> None:
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option {self.name}: a choice option needs choices")
        if self.kind in ("int", "number") and (self.low is None or self.high is None):
            raise ValueError(f"option {self.name}: an {self.kind} option needs low and high bounds")
        if self.kind == "list" and not self.items:
            raise ValueError(f"option {self.name}: a list option needs items")
        if self.kind == "text" and self.parser is None and self.choices:
            raise ValueError(f"option {self.name}: a text option with suggestions needs a parser")
        if self.kind == "file" and self.parser is None:
            raise ValueError(f"option {self.name}: a file option needs a parser")

    @property
    def title(self) -> str:
        """The label shown to people (the name when no label is given)."""
        return self.label or self.name.replace("_", " ")

    # --- reading a value ----------------------------------------------------------------------------------
    def parse(self, value: Any, players: int) -> Any:
        """``value`` (text from a command line, or JSON) checked and normalised; ``OptionError`` if bad."""
        _check_size(self.name, value, min(self.max_length, MAX_VALUE_SIZE))
        if self.kind == "choice":
            return self._choice(value)
        if self.kind == "bool":
            return parse_bool(self.name, value)
        if self.kind == "int":
            assert self.low is not None and self.high is not None
            return parse_int(self.name, value, self.low, self.high)
        if self.kind == "number":
            assert self.low is not None and self.high is not None
            return parse_number(self.name, value, self.low, self.high, above_low=self.above_low)
        if self.kind == "seat":
            if self.random_ok and (value is None or str(value).strip().lower() in ("random", "none", "")):
                return None
            what = L_("a seat number or random") if self.random_ok else L_("a seat number")
            # People name a seat P1, P2, … (as everywhere they read one); a bare number is the seat's
            # index from 0, as records and the API keep it.
            if isinstance(value, str) and re.fullmatch(r"[pP]\d{1,2}", value.strip()):
                seat = int(value.strip()[1:]) - 1
                if not 0 <= seat < players:
                    raise OptionError(
                        L_(
                            "%(name)s must be a seat from P1 to P%(players)s, not %(value)s",
                            name=self.name,
                            players=players,
                            value=_show(value),
                        )
                    )
                return seat
            return parse_int(self.name, value, 0, players - 1, what=what)
        if self.kind in ("text", "file"):
            if self.parser is not None:
                return self.parser(value, players)
            if not isinstance(value, str):
                raise OptionError(
                    L_("%(name)s must be text, not %(value)s", name=self.name, value=_show(value))
                )
            return value.strip()
        return self._list(value, players)

    def _choice(self, value: Any) -> Any:
        if isinstance(value, bool | int | str):
            key = str(value).strip().lower()
            for choice in self.choices:
                if key == str(choice.value).lower() or key in choice.aliases:
                    return choice.value
        allowed = ", ".join(str(c.value) for c in self.choices)
        raise OptionError(
            L_(
                "%(name)s must be one of %(allowed)s, not %(value)s",
                name=self.name,
                allowed=allowed,
                value=_show(value),
            )
        )

    def _list(self, value: Any, players: int) -> list[Any]:
        parts = value.split(",") if isinstance(value, str) else value
        if not isinstance(parts, list | tuple) or len(parts) != len(self.items):
            said = L_(
                "%(name)s must be %(n)s values (%(items)s)",
                name=self.name,
                n=len(self.items),
                items=self.describe_items(),
            )
            raise OptionError(said)
        return [item.parse(part, players) for item, part in zip(self.items, parts, strict=True)]

    def default_words(self) -> str:
        """The default for people: ``default_text``, or the default value written out."""
        return self.default_text or _value_words(self, self.default)

    def source_words(self) -> str:
        """Which rule the option follows, for people: the source without the spec's review markers
        (``4.3 [CONFLICT], 12 #3`` -> ``4.3, 12 #3``; the markers are for the docs)."""
        return _MARKER.sub("", self.source)

    def values_words(self) -> str:
        """What values the option takes, in words (Markdown)."""
        return _values_words(self)

    def describe_items(self) -> str:
        """``fox, moose, …`` — the items of a list option in order."""
        return ", ".join(item.name for item in self.items)

    # --- describing ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON for the lobby's form (``GET /api/games``)."""
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "label": self.title,
            "help": self.help,
            "source": self.source,
            "default": self.default,
            "default_text": self.default_words(),
            "advanced": self.advanced,
        }
        if self.choices:
            data["choices"] = [{"value": c.value, "text": c.text or str(c.value)} for c in self.choices]
        if self.kind in ("int", "number"):
            data["low"], data["high"] = self.low, self.high
        if self.above_low:
            data["above_low"] = True
        if self.kind == "seat":
            data["random_ok"] = self.random_ok
        if self.kind in ("text", "file"):
            data["max_length"] = self.max_length
        if self.items:
            data["items"] = [item.to_dict() for item in self.items]
        return data


@dataclass(frozen=True)
class OptionSchema:
    """Every option of a game, in the order people read them."""

    options: tuple[Option, ...] = ()
    by_name: dict[str, Option] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate option names in {names}")
        object.__setattr__(self, "by_name", {o.name: o for o in self.options})

    def names(self) -> list[str]:
        """The option names, in order."""
        return [o.name for o in self.options]

    def _known(self, unknown: str) -> Msg:
        """What to tell someone who gave the option ``unknown``: the close names if any, else the known
        names, as many as fit one short line (a game may have dozens: `floe options GAME` lists them all)."""
        names = self.names()
        close = difflib.get_close_matches(unknown, names, n=3)
        if close:
            return _did_you_mean(close)
        shown: list[str] = []
        for name in names:
            if sum(len(n) + 2 for n in shown) + len(name) > KNOWN_CHARS:
                more = len(names) - len(shown)
                return L_(
                    "known options: %(names)s and %(more)s more (floe options GAME)",
                    names=", ".join(shown),
                    more=more,
                )
            shown.append(name)
        if not shown:
            return L_("known options: none")
        return L_("known options: %(names)s", names=", ".join(shown))

    def parse(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        """The options given in ``raw``, each checked and normalised (defaults are not filled in).

        ``OptionError`` names the first unknown option or bad value, and lists what is allowed.
        """
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            raise OptionError(L_("options must be a mapping of names to values"))
        if len(raw) > MAX_OPTIONS:
            said = L_(
                "too many options (%(given)s); this game has %(n)s", given=len(raw), n=len(self.options)
            )
            raise OptionError(said)
        out: dict[str, Any] = {}
        for key, value in raw.items():
            option = self.by_name.get(key) if isinstance(key, str) else None
            if option is None:
                shown = key if isinstance(key, str) and len(key) <= 40 else "…"
                said = L_("unknown option %(name)s; %(known)s", name=repr(shown), known=self._known(shown))
                raise OptionError(said)
            out[key] = option.parse(value, players)
        return out

    def defaults(self) -> dict[str, Any]:
        """Every stored option's default."""
        return {o.name: o.default for o in self.options if o.stored}

    def describe(self) -> list[dict[str, Any]]:
        """JSON for the lobby: the options it offers, in order."""
        return [o.to_dict() for o in self.options if o.lobby]

    def markdown(self) -> str:
        """The options as a Markdown table (the docs embed it; a test keeps the two equal)."""
        lines = ["| option | values | default | what it does | follows |", "|---|---|---|---|---|"]
        for o in self.options:
            default = o.default_text or f"`{_value_words(o, o.default)}`"
            cells = (f"`{o.name}`", o.values_words(), default, o.help, o.source or "—")
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"


def read_file_options(schema: OptionSchema, raw: Mapping[str, Any]) -> dict[str, Any]:
    """``raw`` with the value of every ``file`` option read as a path on this machine and replaced by the
    file's text (for the command line; bounded before reading, ``OptionError`` naming the file if it cannot
    be read). A server must not call this: it takes the text itself."""
    out = dict(raw)
    for name, value in raw.items():
        option = schema.by_name.get(name)
        if option is None or option.kind != "file" or not isinstance(value, str):
            continue
        path = Path(value).expanduser()
        try:
            if path.stat().st_size > 4 * option.max_length:  # UTF-8 takes at most 4 bytes a character
                said = L_(
                    "%(name)s: %(file)s is too big (at most %(n)s characters)",
                    name=name,
                    file=value,
                    n=option.max_length,
                )
                raise OptionError(said)
            out[name] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else L_("not UTF-8 text")
            said = L_("%(name)s: cannot read %(file)s: %(reason)s", name=name, file=value, reason=reason)
            raise OptionError(said) from None
    return out


def _did_you_mean(close: list[str]) -> Msg:
    """ "did you mean a or b?" for up to three close names (a sentence per count: word order differs)."""
    if len(close) == 1:
        return L_("did you mean %(a)s?", a=close[0])
    if len(close) == 2:
        return L_("did you mean %(a)s or %(b)s?", a=close[0], b=close[1])
    return L_("did you mean %(a)s or %(b)s or %(c)s?", a=close[0], b=close[1], c=close[2])


# --- shared readers (also used by games for values outside a schema) ------------------------------------
def parse_bool(name: str, value: Any) -> bool:
    """``true``/``false``, ``yes``/``no``, ``on``/``off``, ``1``/``0`` (or a JSON boolean)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str | int) and not isinstance(value, bool):
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    raise OptionError(L_("%(name)s must be true or false, not %(value)s", name=name, value=_show(value)))


def parse_int(name: str, value: Any, low: int, high: int, *, what: str | Msg | None = None) -> int:
    """A whole number in ``low``..``high``, from an int or from ASCII digits; floats, booleans, infinities
    and other digits (``"¹"``) are refused with a one-line ``OptionError`` (``what`` the value should be: a
    whole number unless said)."""
    said = L_(
        "%(name)s must be %(what)s, not %(value)s",
        name=name,
        what=what or L_("a whole number"),
        value=_show(value),
    )
    if isinstance(value, bool):
        raise OptionError(said)
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) < 1e12:
        number = int(value)
    elif isinstance(value, str) and _INT.fullmatch(value.strip()):
        number = int(value.strip())
    elif isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        number = high + 1  # a whole number too long to be in range (not converted)
    else:
        raise OptionError(said)
    if not low <= number <= high:
        said = L_(
            "%(name)s must be between %(low)s and %(high)s, not %(value)s",
            name=name,
            low=low,
            high=high,
            value=_show(value),
        )
        raise OptionError(said)
    return number


def parse_number(name: str, value: Any, low: int, high: int, *, above_low: bool = False) -> float:
    """A finite number from ``low`` (excluded with ``above_low``) to ``high``, from an int, a float or plain
    ASCII decimal text (``0.7``, ``.5``, ``1e3``); NaN, infinities, booleans and other digits are refused
    with a one-line ``OptionError`` that says the range."""
    if above_low and low == 0:
        what = L_("a positive number up to %(high)s", high=high)
    else:
        what = L_("a number from %(low)s to %(high)s", low=low, high=high)
    said = L_("%(name)s must be %(what)s, not %(value)s", name=name, what=what, value=_show(value))
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise OptionError(said)
    if isinstance(value, str):
        if not _DECIMAL.fullmatch(value.strip()):
            raise OptionError(said)
        value = value.strip()
    number = float(value)
    if not math.isfinite(number) or number > high or number < low or (above_low and number == low):
        raise OptionError(said)
    return number


def _check_size(name: str, value: Any, limit: int) -> None:
    """Refuse a value bigger than ``limit`` before anything reads it (walks nested lists without
    recursion, and stops as soon as the limit is passed)."""
    size = 0
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list | tuple):
            size += 1 + len(item)
            stack.extend(item)
        elif isinstance(item, str):
            size += len(item)
        elif isinstance(item, bool | int | float) or item is None:
            size += 1
        else:
            said = L_(
                "%(name)s must be text, a number or a list, not %(kind)s", name=name, kind=type(item).__name__
            )
            raise OptionError(said)
        if size > limit:
            raise OptionError(
                NL_(
                    "%(name)s is too long (at most %(n)s character)",
                    "%(name)s is too long (at most %(n)s characters)",
                    limit,
                    name=name,
                )
            )


def _show(value: Any) -> str:
    """A value as a short quotation for an error message (never thousands of characters)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _value_words(option: Option, value: Any) -> str:
    if value is None:
        return "random" if option.random_ok else "—"
    if option.kind == "seat" and isinstance(value, int):
        return f"P{value + 1}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _values_words(option: Option) -> str:
    if option.kind == "choice":
        return ", ".join(f"`{c.value}`" for c in option.choices)
    if option.kind == "bool":
        return "`true`, `false`"
    if option.kind == "int":
        return f"{option.low}–{option.high}"
    if option.kind == "number":
        return f"a number {'above' if option.above_low else 'from'} {option.low}, up to {option.high}"
    if option.kind == "seat":
        return "a seat, `P1`, `P2`, …" + (" or `random`" if option.random_ok else "")
    if option.kind == "list":
        return f"{len(option.items)} values: {option.describe_items()}"
    if option.kind == "file":
        return f"a file (≤ {option.max_length} characters)"
    suggestions = ", ".join(f"`{c.value}`" for c in option.choices)
    return f"text (≤ {option.max_length} characters)" + (f": {suggestions}, …" if suggestions else "")


def choices(*pairs: tuple[str | int | bool, str]) -> tuple[Choice, ...]:
    """``Choice`` records from (value, words) pairs."""
    return tuple(Choice(value, text) for value, text in pairs)


__all__ = [
    "MAX_VALUE_SIZE",
    "Choice",
    "Kind",
    "Option",
    "OptionSchema",
    "Parser",
    "choices",
    "parse_bool",
    "parse_int",
    "parse_number",
    "read_file_options",
]

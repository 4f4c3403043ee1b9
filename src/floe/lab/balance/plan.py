"""What a balance run plays and where its results go: the duplicate plan, one game, the results file.

A balance run is a tournament's plan (``floe.lab.tournament.Tournament``: deal d uses seed ``seed + d`` and
is played once per rotation of the lineup) played once under the base options and, with
``--compare-option k=v``, once more under the base options with k=v: the same seeds and seatings, so the
two variants differ only by the rule (and by what the rule changes downstream). Each game is a key
(variant, deal, rotation).

The results file is JSON lines like a tournament's: a header (game, players, lineup, seed, options, the
compared option, the game's version), then one line per finished game with its scores, ranking and the
game's balance facts (``floe.core.balance``). ``--resume`` plays only the keys the file lacks; statistics
read the games in key order, so a resumed run reports exactly what an uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from floe.core.balance import BalanceSpec
from floe.core.entry import resolve_as
from floe.core.errors import FloeError, OptionError
from floe.core.game import Game
from floe.core.registry import entry, make_game
from floe.lab.backends import Backend, execute
from floe.lab.runner import play_game
from floe.lab.tournament import Tournament, game_line, make_tournament

FORMAT = "floe-balance/1"

Key = tuple[int, int, int]  # (variant, deal, rotation)
Line = dict[str, Any]


class BalanceError(FloeError):
    """The results file cannot be used: another run's, corrupt, or not writable."""


@dataclass(frozen=True)
class BalanceRun:
    """The tournament plan, the compared option (or None) and the game's version."""

    tournament: Tournament
    compare: dict[str, Any] | None = None
    version: str = ""
    command: str = field(default="", compare=False)  # the command line that started the file (shown only)
    variants: tuple[dict[str, Any], ...] = field(init=False, compare=False)
    rotations: tuple[int, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        base = dict(self.tournament.options)
        both = (base,) if self.compare is None else (base, {**base, **self.compare})
        object.__setattr__(self, "variants", both)
        # A rotation that seats the same bots as an earlier one replays that game exactly (same seed, same
        # bot seeds): a lineup of one bot has one distinct seating, and its copies would only shrink the
        # intervals without adding a game. Only distinct seatings are played.
        t = self.tournament
        distinct = {tuple(t.seats(r)): r for r in reversed(range(t.players))}
        object.__setattr__(self, "rotations", tuple(sorted(distinct.values())))

    @property
    def per_deal(self) -> int:
        """Games per deal and variant: one per distinct seating."""
        return len(self.rotations)

    def position(self, deal: int, rotation: int) -> int:
        """Game (``deal``, ``rotation``)'s place in its variant's plan."""
        return deal * self.per_deal + self.rotations.index(rotation)

    def plan(self, deals: int) -> list[Key]:
        """Every (variant, deal, rotation) of the first ``deals`` deals, in playing order."""
        return [(v, d, r) for v in range(len(self.variants)) for d in range(deals) for r in self.rotations]

    def header(self) -> Line:
        """The first line of the results file; a resume must find exactly this."""
        t = self.tournament
        return {
            "type": "header",
            "format": FORMAT,
            "game": t.game,
            "version": self.version,
            "players": t.players,
            "bots": list(t.bots),
            "seed": t.seed,
            "options": dict(t.options),
            "compare": self.compare,
        }

    def file_header(self) -> Line:
        """The header as written: ``header()`` and the command line that started the file, which a
        resume does not compare (the same run may be continued by a differently written command)."""
        return {**self.header(), "command": self.command}

    def default_name(self) -> str:
        """``balance-<game>-<N>p-seed<K>-<hash of the header>``, for a results file nobody named."""
        digest = hashlib.sha256(json.dumps(self.header(), sort_keys=True).encode()).hexdigest()[:8]
        t = self.tournament
        return f"balance-{t.game}-{t.players}p-seed{t.seed}-{digest}"


def make_run(
    game_name: str,
    players: int,
    bots: str,
    seed: int,
    options: Mapping[str, Any],
    compare: Mapping[str, Any] | None = None,
    command: str = "",
) -> BalanceRun:
    """Check everything up front (game, players, bots, both variants' options): ``OptionError`` if bad."""
    t = make_tournament(game_name, players, bots, seed, options)
    game = make_game(t.game, players, t.options)
    if compare is not None:
        if not compare:
            raise OptionError("--compare-option needs key=value")
        make_game(t.game, players, {**t.options, **compare})  # the option schema checks key and value
        compare = json.loads(json.dumps(dict(compare)))
    return BalanceRun(t, None if compare is None else dict(compare), game.spec.version, command)


def run_from_header(header: Any, where: str) -> BalanceRun:
    """The run a results file's header describes (``--from``); ``BalanceError`` if it is not one."""
    if not isinstance(header, dict) or header.get("type") != "header" or header.get("format") != FORMAT:
        raise BalanceError(f"{where} is not a balance results file (no {FORMAT} header line)")
    header = dict(header)
    command = header.pop("command", "")
    try:
        t = Tournament(
            str(header["game"]),
            int(header["players"]),
            tuple(str(b) for b in header["bots"]),
            int(header["seed"]),
            dict(header["options"]),
        )
        compare = header["compare"]
        if compare is not None and not isinstance(compare, dict):
            raise TypeError
        run = BalanceRun(t, compare, str(header["version"]), str(command))
    except (KeyError, TypeError, ValueError):
        raise BalanceError(f"{where}: malformed header") from None
    if run.header() != header:
        raise BalanceError(f"{where}: malformed header")
    return run


# --- playing one game ---------------------------------------------------------------------------------------

_GAMES: dict[str, Game] = {}  # per process: each variant's game built once, not once per task
_SPECS: dict[str, BalanceSpec | None] = {}


def _game(name: str, players: int, options: Mapping[str, Any]) -> Game:
    key = json.dumps([name, players, options], sort_keys=True)
    if key not in _GAMES:
        _GAMES[key] = make_game(name, players, options)
    return _GAMES[key]


def balance_spec(game_name: str) -> BalanceSpec | None:
    """The game's ``BalanceSpec`` (its entry's ``balance``), or None if it gives only generic figures."""
    if game_name not in _SPECS:
        ref = entry(game_name).balance
        _SPECS[game_name] = None if ref is None else resolve_as(ref, BalanceSpec)
    return _SPECS[game_name]


def play_one(run: BalanceRun, key: Key) -> Line:
    """Play game ``key`` of ``run`` and return its results line with the game's facts (a top-level
    function, so that worker processes can run it)."""
    variant, deal, rotation = key
    t = run.tournament
    game = _game(t.game, t.players, run.variants[variant])
    seats = t.seats(rotation)
    result, state = play_game(game, seats, t.seed_of(deal))
    spec = balance_spec(t.game)
    facts = spec.facts(game, state).to_json() if spec else {"seats": [{} for _ in seats], "game": {}}
    return {**game_line(deal, rotation, seats, result), "variant": variant, "facts": facts}


def _play_job(job: tuple[BalanceRun, Key]) -> Line:
    run, key = job
    return play_one(run, key)


# --- the results file ------------------------------------------------------------------------------------


def check_game(run: BalanceRun, record: Any, where: str) -> Key:
    if not isinstance(record, dict) or record.get("type") != "game":
        raise BalanceError(f"{where}: not a game line")
    t = run.tournament
    try:
        key = (int(record["variant"]), int(record["deal"]), int(record["rotation"]))
        fits = (
            0 <= key[0] < len(run.variants)
            and key[1] >= 0
            and key[2] in run.rotations
            and record["seed"] == t.seed_of(key[1])
            and record["seats"] == t.seats(key[2])
            and len(record["scores"]) == t.players
            and sorted(record["ranking"]) == list(range(t.players))
            and len(record["facts"]["seats"]) == t.players
            and isinstance(record["facts"]["game"], dict)
            and isinstance(record["decisions"], int)
        )
    except (KeyError, TypeError, ValueError):
        raise BalanceError(f"{where}: malformed game line") from None
    if not fits:
        raise BalanceError(f"{where}: game line does not belong to this run")
    return key


def iter_lines(path: Path) -> Iterator[tuple[int, Any, int]]:
    """Each non-blank line of ``path`` parsed, with its line number and the byte offset after it, read
    as a stream (a results file of millions of games never sits in memory whole). A last line cut off by
    an interrupted run is left out; any other bad line is a ``BalanceError``."""
    offset = 0
    with path.open("rb") as f:
        for lineno, text in enumerate(f, start=1):
            try:
                record = json.loads(text) if text.strip() else None
            except (UnicodeDecodeError, json.JSONDecodeError):
                if not text.endswith(b"\n") and lineno > 1:
                    return  # the half-written last line of an interrupted run
                raise BalanceError(f"{path}:{lineno}: not valid JSON") from None
            offset += len(text)
            if record is not None:
                yield lineno, record, offset


def read_run(path: Path) -> BalanceRun:
    """The run ``path``'s header line describes, reading nothing else; ``BalanceError`` if none."""
    first = next(iter_lines(path), None)
    if first is None:
        raise BalanceError(f"{path} is empty")
    return run_from_header(first[1], str(path))


def scan(path: Path, run: BalanceRun | None = None) -> tuple[BalanceRun, set[Key], int]:
    """The run of ``path``'s header (which must be ``run``'s when given), the keys of its games and the
    byte length of its intact part; ``BalanceError`` if the file is not such a run's or is corrupt."""
    lines = iter_lines(path)
    first = next(lines, None)
    if first is None:
        raise BalanceError(f"{path} is empty")
    found = run_from_header(first[1], str(path))
    if run is not None and found.header() != run.header():
        want, have = run.header(), found.header()
        diffs = [f"{k} {have.get(k)!r} here, {want[k]!r} asked" for k in want if have.get(k) != want[k]]
        raise BalanceError(f"{path} holds another run ({'; '.join(diffs)}); use another --out")
    keys: set[Key] = set()
    intact = first[2]
    for lineno, record, end in lines:
        keys.add(check_game(found, record, f"{path}:{lineno}"))
        intact = end
    return found, keys, intact


def _prepare(path: Path, run: BalanceRun, resume: bool) -> set[Key]:
    """Start ``path`` with the header, or (``resume``) read it and cut a half-written last line."""
    if path.exists() and path.stat().st_size > 0:
        if not resume:
            raise BalanceError(f"{path} already exists: add --resume to continue it, or choose another --out")
        _, keys, intact = scan(path, run)
        with path.open("r+b") as f:
            f.truncate(intact)
            f.seek(intact - 1)
            if f.read(1) != b"\n":  # the last intact line may lack its newline
                f.write(b"\n")
        return keys
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(run.file_header()) + "\n")
    return set()


@dataclass
class Played:
    """How many games of the plan were played now and how many were found on file."""

    played: int
    resumed: int


def play_run(
    run: BalanceRun,
    deals: int,
    backend: Backend,
    path: Path,
    *,
    resume: bool = False,
    advance: Callable[[int, int], None] | None = None,
) -> Played:
    """Play the games of the first ``deals`` deals that ``path`` lacks, appending each as it finishes;
    ``advance(done, total)`` is told after each. The statistics read the file back (``collect``)."""
    done = _prepare(path, run, resume)
    plan = run.plan(deals)
    todo = [key for key in plan if key not in done]
    finished = len(plan) - len(todo)
    with path.open("a", encoding="utf-8") as out:

        def keep(record: Line) -> None:
            nonlocal finished
            out.write(json.dumps(record) + "\n")  # written and flushed at once: it survives an interrupt
            out.flush()
            finished += 1
            if advance is not None:
                advance(finished, len(plan))

        execute(_play_job, [(run, key) for key in todo], backend, keep)
    return Played(played=len(todo), resumed=len(plan) - len(todo))

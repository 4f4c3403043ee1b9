"""What a balance run plays and where its results go: the duplicate plan, one game, the results file.

A balance run is a tournament's plan (``floe.lab.tournament.Tournament``: deal d uses seed ``seed + d`` and
is played once per rotation of the lineup) played once under the base options and, with
``--compare-option k=v``, once more under the base options with k=v: the same seeds and seatings, so the
two variants differ only by the rule (and by what the rule changes downstream). Each game is a key
(variant, deal, rotation).

The results file (``floe.lab.results``, as a tournament's) is JSON lines: a header (game, players, lineup,
seed, options, the compared option, the game's version), then one line per finished game with its scores,
ranking and the game's balance facts (``floe.core.balance``). ``--resume`` plays only the keys the file lacks;
statistics read the games in key order, so a resumed run reports exactly what an uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from floe.core.balance import BalanceSpec
from floe.core.entry import resolve_as
from floe.core.errors import OptionError
from floe.core.registry import entry, make_game, shared_game
from floe.lab.backends import execute
from floe.lab.results import Line, ResultsError, ResultsFile, append, first_line
from floe.lab.runner import play_game
from floe.lab.tournament import Tournament, game_line, make_tournament
from floe.lab.where import Backend

FORMAT = "floe-balance/1"

Key = tuple[int, int, int]  # (variant, deal, rotation)


class BalanceError(ResultsError):
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

_SPECS: dict[str, BalanceSpec | None] = {}


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
    game = shared_game(t.game, t.players, run.variants[variant])
    seats = t.seats(rotation)
    result, state = play_game(game, seats, t.seed_of(deal))
    spec = balance_spec(t.game)
    facts = spec.facts(game, state).to_json() if spec else {"seats": [{} for _ in seats], "game": {}}
    return {**game_line(deal, rotation, result), "variant": variant, "facts": facts}


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


def results_file(path: Path, run: BalanceRun) -> ResultsFile[Key]:
    """``run``'s results file at ``path`` (``floe.lab.results``): its header (the command line noted, not
    compared) and how its game lines are checked."""
    return ResultsFile(
        path,
        run.header(),
        lambda record, where: check_game(run, record, where),
        "balance run",
        BalanceError,
        {"command": run.command},
    )


def read_run(path: Path) -> BalanceRun:
    """The run ``path``'s header line describes, reading nothing else; ``BalanceError`` if none."""
    return run_from_header(first_line(path, BalanceError), str(path))


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
    file = results_file(path, run)
    done = file.start(resume)
    plan = run.plan(deals)
    todo = [key for key in plan if key not in done]
    finished = len(plan) - len(todo)
    with file.appending() as out:

        def keep(record: Line) -> None:
            nonlocal finished
            append(out, record)
            finished += 1
            if advance is not None:
                advance(finished, len(plan))

        execute(_play_job, [(run, key) for key in todo], backend, keep)
    return Played(played=len(todo), resumed=len(plan) - len(todo))

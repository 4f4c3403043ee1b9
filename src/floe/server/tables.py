"""A table in play: its record (the source of truth), the replayed state, its seats and per-viewer logs.

Nothing here talks to the network or the database; ``manager.py`` does. A ``Table`` answers the
questions the server asks — whose turn, may this seat play this action on this version, what does this
viewer see — always through the engine's observation for that viewer.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from floe.bots.labels import bot_label
from floe.core import i18n, present
from floe.core.entry import GameEntry
from floe.core.errors import FloeError
from floe.core.game import Game, State
from floe.core.record import Record
from floe.core.registry import entry
from floe.core.undo import UNDO, UndoPoints, follow, replay_events
from floe.server.conns import RateLimit
from floe.server.refusal import Refusal
from floe.server.store import TableRow

_ = i18n.FLOE.gettext


def new_token() -> str:
    """A fresh secret seat token."""
    return secrets.token_urlsafe(18)


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256 (a database leak gives no seat away)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """One seat: a person (with a token) or a bot. ``connections``/``away`` live only in memory."""

    kind: str  # "person" or "bot"
    name: str
    bot: str | None = None
    token_hash: str | None = None
    claimed: bool = False
    joined_by: str | None = None  # the SHA-256 of the browser key of a lobby join (one seat per browser)
    seen: bool = False  # its token was used (a hello or a move): somebody sits there (``Table.unjoined``)
    connections: int = 0
    away: bool = False
    left_at: float | None = None

    def stored(self) -> dict[str, Any]:
        """The persistent part."""
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
            "claimed": self.claimed,
            "joined_by": self.joined_by,
            "seen": self.seen,
        }

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Seat:
        """Rebuild from ``stored()``; a person is considered gone since the restart."""
        return cls(
            kind=data["kind"],
            name=data["name"],
            bot=data.get("bot"),
            token_hash=data.get("token_hash"),
            claimed=bool(data.get("claimed")),
            joined_by=data.get("joined_by"),
            seen=data.get("seen", True),  # a seat stored before this flag: counted as seen (never expires)
            left_at=time.time(),
        )

    def matches(self, token: str) -> bool:
        """True if ``token`` is this seat's token (constant-time comparison)."""
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_hash(token))

    def summary(self, seat: int, game: str | None = None) -> dict[str, Any]:
        """Public facts about the seat; a bot seat of ``game`` also has the name people see for its bot
        (``label``: ``ISMCTS · 0.5 s``; None for a person)."""
        return {
            "seat": seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "label": shown_bot(game, self.bot) if self.kind == "bot" and self.bot and game else None,
            "claimed": self.claimed or self.kind == "bot",
            "connected": self.connections > 0,
            "away": self.away,
        }


@functools.lru_cache(maxsize=1024)
def shown_bot(game: str, spec: str) -> str:
    """The name people see for the bot ``spec`` of ``game`` (``floe.bots.labels``), in English whatever
    reader is being served (it is cached, and each page translates it, ``words.js`` ``botWords``); the spec
    itself for a game this server does not have."""
    try:
        with i18n.using("en"):
            return bot_label(entry(game), spec)
    except FloeError:
        return spec


def chance_rng(seed: int, version: int) -> random.Random:
    """The generator for the chance outcomes after ``version``: a function of the secret seed only, so a
    table replays and resumes identically, and no outcome depends on what happened in memory."""
    return random.Random(f"floe/{seed}/{version}")


@dataclass
class Table:
    """A live table."""

    row: TableRow
    entry: GameEntry  # the game's entry, looked up once (its away bot, its presenter)
    game: Game
    state: State
    seats: list[Seat]
    # The decision the table waits for (version, seat to act, stood in for) and when it began: see
    # ``decision_started``.
    _clock: tuple[tuple[int, int | None, bool], float] = ((-1, None, False), 0.0)
    # Each language's log, built only once a connection reads that language (see ``log``).
    _log_books: dict[str, _LogBook] = field(default_factory=dict)
    _view_cache: dict[int | None, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    # The standings (the same for every viewer: built from the public view) of one version.
    _standings: tuple[int, dict[str, Any] | None] = (-1, None)
    _deciding: dict[str, tuple[int, str]] = field(default_factory=dict)  # language -> (version, text)
    # The stored log: every action and undo (``UNDO``), in order; the state is its replay. Its length is the
    # table's version, which only grows (an undo is a new version, not an old one again).
    events: list[int] = field(default_factory=list)  # empty: the state's history (no undo yet)
    # The decisions the seat to act may still take back (core/undo.py); in memory only: a restart forgets
    # them, since the log does not say which decisions a bot made.
    undo_points: UndoPoints = field(default_factory=UndoPoints)
    # How many undos the log holds, and how many since the last decision that cannot be taken back (the
    # bounds of undo.py); each seat's undo rate (in memory: a restart refills it).
    undos: int = 0
    undos_in_turn: int = 0
    undo_rates: dict[int, RateLimit] = field(default_factory=dict)

    # The game's words (log, decision, choices), built from observations only: the presenter its entry names.
    presenter: present.GamePresenter = field(init=False)

    def __post_init__(self) -> None:
        if not self.events:
            self.events = list(self.state.history)
        self.undos = self.events.count(UNDO)
        self.presenter = present.presenter_of(self.entry)

    # --- building ------------------------------------------------------------------------------------
    @classmethod
    def from_row(cls, row: TableRow) -> Table:
        """Replay the stored log; a log that does not replay raises ``FloeError`` naming the action."""
        found = entry(row.game)
        game = found.new_game(row.players, row.options)
        state = game.new_initial_state()
        if UNDO in row.actions:  # undos are checked against the game's rules as they replay
            try:
                state, _ = replay_events(state, row.actions)
            except FloeError as exc:
                raise FloeError(f"table {row.id}: its stored log does not replay ({exc})") from exc
        else:
            for k, action in enumerate(row.actions):
                try:
                    state.apply(action)
                except FloeError as exc:
                    raise FloeError(f"table {row.id}: stored action {k + 1} does not replay ({exc})") from exc
        seats = [Seat.from_stored(s) for s in row.seats]
        return cls(row=row, entry=found, game=game, state=state, seats=seats, events=list(row.actions))

    @staticmethod
    def resolve_chance(state: State, seed: int) -> None:
        """Draw every pending chance outcome of ``state`` from the table's seed."""
        while state.is_chance_node():
            rng = chance_rng(seed, len(state.history))
            state.apply_unchecked(state.sample_chance(rng))

    # --- facts ---------------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        """How many events the log holds: actions (chance outcomes included) and undos."""
        return len(self.events)

    @property
    def status(self) -> str:
        """``waiting`` until every person seat is claimed, then ``playing``, then ``finished``."""
        if self.state.is_terminal():
            return "finished"
        if any(s.kind == "person" and not s.claimed for s in self.seats):
            return "waiting"
        return "playing"

    @property
    def opened(self) -> bool:
        """Whether every person seat's link was opened (``Seat.seen``): until then the lobby tells the table
        is waiting for players, even once every seat is claimed (the creator's at once) and it is playing."""
        return all(s.seen for s in self.seats if s.kind == "person")

    @property
    def attended(self) -> bool:
        """Whether a person plays here now: a person seat whose link was opened (``Seat.seen``) and whose
        moves no away bot makes. Only such a table's searches go before bot-only tables' (``botlanes``): a
        seat nobody ever opened, or one the away bot plays for, would let bot-only play jump the queue."""
        return any(s.kind == "person" and s.seen and not s.away for s in self.seats)

    @property
    def unjoined(self) -> bool:
        """Whether nobody ever sat at the table: it has person seats and none's token was ever used (such a
        table expires, and never counts against the server's cap on open tables: manager.py)."""
        people = [s for s in self.seats if s.kind == "person"]
        return bool(people) and not any(s.seen for s in people)

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None when nobody is (over, or waiting)."""
        if self.status != "playing":
            return None
        return self.state.current_player()

    def deadline(self) -> float | None:
        """When the turn timer of the person to move runs out (None without a timer)."""
        seat = self.to_move
        if seat is None or self.row.turn_timer is None or self.seats[seat].kind != "person":
            return None
        return self.decision_started() + self.row.turn_timer

    def decision_started(self) -> float:
        """When the decision now awaited began: when its seat came to act (the game started once every seat
        was taken, or the previous action was committed) or when a person took their seat back from the
        stand-in bot. The clock restarts whenever that decision changes, so a turn timer never counts time
        spent waiting for players, nor another seat's turn. (Read on every change and every timer tick,
        so it is exact to within a tick.)"""
        seat = self.to_move
        key = (self.version, seat, seat is not None and self.seats[seat].away)
        if self._clock[0] != key:
            self._clock = (key, time.time())
        return self._clock[1]

    def plays_by_bot(self, seat: int) -> str | None:
        """The bot spec that moves for ``seat`` now: its own bot, the game's away bot for an away person,
        or None."""
        info = self.seats[seat]
        if info.kind == "bot":
            return info.bot
        return self.entry.away_bot if info.away else None

    def seat_of(self, token: str) -> int:
        """The seat whose token this is; ``Refusal`` otherwise."""
        for k, seat in enumerate(self.seats):
            if seat.kind == "person" and seat.matches(token):
                return k
        raise Refusal("bad_token", i18n.L_("that seat token does not belong to this table"), 403)

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (lobby and every message)."""
        return {
            "id": self.id,
            "game": self.row.game,
            "players": self.row.players,
            "status": self.status,
            "opened": self.opened,
            "version": self.version,
            "created": self.row.created,
            "options": self.row.options,
            "turn_timer": self.row.turn_timer,
            "public": self.row.public,
            "name": self.row.name,
            "seats": [s.summary(k, self.row.game) for k, s in enumerate(self.seats)],
            "to_move": self.to_move,
        }

    # --- moves ---------------------------------------------------------------------------------------
    def check_move(self, seat: int, action: Any, version: Any) -> None:
        """Refuse a move that is malformed, early, late, stale, out of turn or illegal (``Refusal``)."""
        if type(action) is not int or type(version) is not int:
            raise Refusal("malformed", i18n.L_("a move needs an integer action and an integer version"), 400)
        status = self.status
        if status == "finished":
            raise Refusal("finished", i18n.L_("the game is over"))
        if status == "waiting":
            raise Refusal("not_started", i18n.L_("the game starts when every seat is taken"))
        if version != self.version:
            said = i18n.L_(
                "stale move: made on version %(made)s, the table is at %(now)s",
                made=version,
                now=self.version,
            )
            raise Refusal("stale", said)
        if self.state.current_player() != seat:
            raise Refusal(
                "not_your_turn",
                i18n.L_("it is not your turn (P%(seat)s to act)", seat=self.state.current_player() + 1),
            )
        if not self.state.is_legal(action):
            raise Refusal("illegal", i18n.L_("action %(action)s is not legal now", action=action))

    def after(self, action: int) -> State:
        """The state after ``action`` and the chance outcomes it sets off (a new state; this one is kept)."""
        new = self.state.clone()
        new.apply(action)
        self.resolve_chance(new, self.row.seed)
        return new

    def added(self, new: State) -> list[int]:
        """The actions that lead from the current state to ``new`` (a state ``after`` built)."""
        return list(new.history[len(self.state.history) :])

    def commit(self, new: State, *, undoable: bool = False) -> None:
        """Adopt ``new`` once its actions are stored; its decision becomes an undo point if ``undoable`` (a
        person's) and the game allows it."""
        self.events += self.added(new)
        action = new.history[len(self.state.history)] if len(new.history) > len(self.state.history) else -1
        self.undo_points.after_move(self.state, action, new, allowed=undoable and action >= 0)
        if not self.undo_points:  # a decision that cannot be taken back: a new turn for the undo count
            self.undos_in_turn = 0
        self.state = new
        self.decision_started()  # the next decision's clock starts now

    def may_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take its last decision back now: a person, in its own turn, whose decisions
        since the turn began are still undoable (core/undo.py)."""
        return (
            seat is not None
            and self.status == "playing"
            and self.seats[seat].kind == "person"
            and self.undo_points.can_undo(self.state, seat)
        )

    def take_back(self) -> None:
        """Adopt the undo (once it is stored): the state before the last undoable decision."""
        _, before = self.undo_points.undo()
        self.events.append(UNDO)
        self.undos += 1
        self.undos_in_turn += 1
        self.state = before

    # --- what a viewer sees --------------------------------------------------------------------------
    def log(self, viewer: int | None, lang: str | None = None) -> list[str]:
        """Every log line ``viewer`` may read in ``lang`` (the language in force if None), in order (computed
        for all viewers of that language at once, incrementally). The log is rendered per language, never
        stored translated: the record holds actions only."""
        book = self.catch_up_log(lang)
        return book.logs[viewer]

    def log_behind(self, lang: str) -> int:
        """How many events ``lang``'s log has not told yet (all of them if nobody read it in ``lang``)."""
        book = self._log_books.get(lang)
        return self.version - (book.events if book is not None else 0)

    def catch_up_log(self, lang: str | None = None, limit: int | None = None) -> _LogBook:
        """``lang``'s log (the language in force if None), told up to the newest event, or at most ``limit``
        events further: a reader far behind is caught up a slice at a time, between which other tables
        play (``Lobby.log_ready``)."""
        lang = lang or i18n.current()
        book = self._log_books.get(lang)
        if book is None:
            book = self._log_books[lang] = _LogBook(self.game.new_initial_state(), self.row.players)
        end = None if limit is None else book.events + limit
        with i18n.using(lang):
            book.catch_up(self.events, self.presenter, end)
        return book

    def view(self, viewer: int | None) -> dict[str, Any]:
        """``viewer``'s observation dict for the current version with the game's standings
        (``present.with_standings``; cached per version)."""
        cached = self._view_cache.get(viewer)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        if self._standings[0] != self.version:
            self._standings = (self.version, present.standings(self.presenter, self.state))
        view = present.with_standings(self.state.observation_dict(viewer), self._standings[1])
        self._view_cache[viewer] = (self.version, view)
        return view

    def result(self) -> dict[str, Any] | None:
        """Scores, ranking and breakdowns once the game is over."""
        if not self.state.is_terminal():
            return None
        return {
            "scores": self.state.scores(),
            "ranking": self.state.ranking(),
            "breakdowns": self.state.score_breakdowns(),
        }

    def state_message(self, viewer: int | None, log_from: int, lang: str | None = None) -> dict[str, Any]:
        """The ``state`` message for ``viewer``, with the log lines from ``log_from`` on, its texts in
        ``lang`` (the language in force if None)."""
        with i18n.using(lang or i18n.current()):
            return self._state_message(viewer, log_from)

    def _state_message(self, viewer: int | None, log_from: int) -> dict[str, Any]:
        lines = self.log(viewer)
        to_move = self.to_move
        finished = self.state.is_terminal()
        mine = viewer is not None and to_move == viewer
        return {
            "type": "state",
            "table": self.summary(),
            "version": self.version,
            "seat": viewer,
            "status": self.status,
            "to_move": to_move,
            "deciding": self.deciding() if to_move is not None or finished else "",
            "view": self.view(viewer),
            "legal": present.legal_choices(self.presenter, self.state, viewer)
            if mine and viewer is not None
            else [],
            "log": [{"index": k, "text": lines[k]} for k in range(log_from, len(lines))],
            "log_total": len(lines),
            "deadline": self.deadline(),
            "result": self.result(),
            "can_undo": self.may_undo(viewer),
        }

    def deciding(self) -> str:
        """What the seat to act is deciding, in words, in the language in force (cached per version)."""
        lang = i18n.current()
        cached = self._deciding.get(lang)
        if cached is None or cached[0] != self.version:
            cached = self._deciding[lang] = (self.version, present.deciding(self.presenter, self.state))
        return cached[1]

    def record(self) -> Record:
        """The complete record, undos included (only to be shown once the game is over: it holds the
        seed)."""
        return Record.of(self.game, self.row.seed, self.state, self.events)

    def replay_frames(
        self, viewer: int | None, reveal: bool, events: list[int] | None = None
    ) -> list[dict[str, Any]]:
        """One frame per decision (and the final position) as ``viewer`` saw it; with ``reveal`` (only for a
        finished game) every seat's view as well. ``events``: the log to replay (default: the table's)."""
        probe = self.game.new_initial_state()
        frames: list[dict[str, Any]] = []
        pending: list[str] = []
        actor: int | None = None

        def frame() -> None:
            item: dict[str, Any] = {
                "version": len(probe.history),
                "actor": actor,
                "log": list(pending),
                "view": present.with_standings(
                    probe.observation_dict(viewer), present.standings(self.presenter, probe)
                ),
            }
            if reveal:
                item["views"] = [probe.observation_dict(s) for s in range(self.row.players)]
            frames.append(item)
            pending.clear()

        points = UndoPoints()
        for action in self.events if events is None else events:
            if action == UNDO:  # a frame of its own: the position the seat came back to
                frame()
                actor = probe.current_player()
                pending.append(undo_line(probe, viewer))
                probe = follow(probe, points, action)
                continue
            if not probe.is_chance_node():
                frame()
                actor = probe.current_player()
            line = present.log_line(self.presenter, probe, action, viewer)
            if line:
                pending.append(line)
            probe = follow(probe, points, action)
        frame()
        return frames


def undo_line(state: State, viewer: int | None) -> str:
    """The log line of an undo at ``state`` (the seat to act takes its last decision back)."""
    seat = state.current_player()
    if seat == viewer:
        return _("You take back the last move.")
    return _("P%(seat)s takes back the last move.") % {"seat": seat + 1}


@dataclass
class _LogBook:
    """One language's log of a table: every viewer's lines, and the position the lines have reached (with
    the states an undo may come back to: an undo costs no replay)."""

    probe: State
    players: int
    events: int = 0
    logs: dict[int | None, list[str]] = field(default_factory=dict)
    points: UndoPoints = field(default_factory=UndoPoints)

    def __post_init__(self) -> None:
        self.logs = {v: [] for v in [*range(self.players), None]}

    def catch_up(self, events: list[int], presenter: present.GamePresenter, end: int | None = None) -> None:
        """Add the lines of the events not yet told, up to ``end`` (None: all), in the language in force."""
        probe = self.probe
        for action in events[self.events : end]:
            self.events += 1
            if action == UNDO:
                for v, lines in self.logs.items():
                    lines.append(undo_line(probe, v))
                self.probe = probe = self.points.undo()[1]
                continue
            after = probe.clone()
            after.apply_unchecked(action)
            for v, lines in self.logs.items():
                line = present.log_line(presenter, probe, action, v, after)
                if line:
                    lines.append(line)
            self.points.after_move(probe, action, after)
            self.probe = probe = after

"""Game records: the game, its options and seed, and every action (chance outcomes included) in notation.

A record replays to the identical state. A game played at a table may also hold undos (core/undo.py): each
is the word ``undo`` in the list, after the action it took back, so the record keeps what every seat saw.
Loading a malformed or inconsistent record fails with a ``RecordError`` that names the first bad action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from floe.core.errors import FloeError, RecordError
from floe.core.game import Game, State
from floe.core.undo import UNDO, UNDO_TEXT, UndoPoints, follow, state_before_last

RECORD_FORMAT = 1


@dataclass(frozen=True)
class Record:
    """A complete, replayable game record."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int | None
    actions: tuple[str, ...]
    version: str = ""
    result: dict[str, Any] | None = field(default=None, compare=False)

    @classmethod
    def of(cls, game: Game, seed: int | None, state: State, events: list[int] | None = None) -> Record:
        """The record of ``state``'s history, or of the logged ``events`` that led to it (its actions with
        the undos among them, core/undo.py); the final scores are included once the game is over."""
        if events is None or UNDO not in events:
            probe = game.new_initial_state()
            texts = []
            for action in state.history if events is None else events:
                texts.append(probe.action_to_string(action))
                probe.apply_unchecked(action)
        else:
            texts = _event_texts(game, events)
        result = None
        if state.is_terminal():
            result = {"scores": state.scores(), "ranking": state.ranking()}
        return cls(
            game=game.name,
            players=game.players,
            options=game.options_dict(),
            seed=seed,
            actions=tuple(texts),
            version=game.spec.version,
            result=result,
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "version": self.version,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "actions": list(self.actions),
        }
        if self.result is not None:
            data["result"] = self.result
        return data

    def dumps(self) -> str:
        """The record as JSON text, one action per line for readable diffs."""
        data = self.to_json()
        actions = data.pop("actions")
        head = json.dumps(data, indent=1)[:-2]
        body = ",\n".join("  " + json.dumps(a) for a in actions)
        return f'{head},\n "actions": [\n{body}\n ]\n}}\n'

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Validate raw JSON data; ``RecordError`` names what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        for key, kind in (("game", str), ("players", int), ("actions", list)):
            if not isinstance(data.get(key), kind):
                raise RecordError(f"record field {key!r} is missing or not a {kind.__name__}")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("record field 'options' must be an object")
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise RecordError("record field 'seed' must be an integer or null")
        for i, text in enumerate(data["actions"], start=1):
            if not isinstance(text, str):
                raise RecordError(f"action {i} is not a string: {text!r}")
        result = data.get("result")
        return cls(
            game=data["game"],
            players=data["players"],
            options=options,
            seed=seed,
            actions=tuple(data["actions"]),
            version=str(data.get("version", "")),
            result=result if isinstance(result, dict) else None,
        )

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; ``RecordError`` if it is unreadable or not a record."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
        return cls.from_json(data)

    def replay(self) -> State:
        """Replay every action; ``RecordError`` names the first one that does not parse or is illegal."""
        from floe.core.registry import make_game

        try:
            game = make_game(self.game, self.players, self.options)
        except FloeError as exc:
            raise RecordError(f"record header: {exc}") from None
        state = game.new_initial_state()
        if UNDO_TEXT in self.actions:
            state = _replay_with_undos(state, self.actions)
        else:
            for i, text in enumerate(self.actions, start=1):
                if state.is_terminal():
                    raise RecordError(f"action {i} ({text!r}): the game was already over")
                try:
                    action = state.string_to_action(text)
                    state.apply(action)
                except FloeError as exc:
                    raise RecordError(f"action {i} ({text!r}): {exc}") from None
        if self.result is not None:
            if not state.is_terminal():
                raise RecordError(
                    f"the record claims a result but its {len(self.actions)} actions do not end the game"
                )
            for key, replayed in (("scores", state.scores()), ("ranking", state.ranking())):
                if key in self.result and self.result[key] != replayed:
                    raise RecordError(
                        f"the record's {key} {self.result[key]} differ from the replay's {replayed}"
                    )
        return state


def _event_texts(game: Game, events: list[int]) -> list[str]:
    """The notation of a log with undos: each action as written in the state it was played in."""
    state, points, texts = game.new_initial_state(), UndoPoints(), []
    for event in events:
        texts.append(UNDO_TEXT if event == UNDO else state.action_to_string(event))
        if event == UNDO and not points:  # an undo the game refuses: the record's replay will say so
            state = state_before_last(game, state)
        else:
            state = follow(state, points, event)
    return texts


def _replay_with_undos(state: State, texts: tuple[str, ...]) -> State:
    """Replay notations with undos among them; ``RecordError`` names the first bad one (an undo is bad when
    the game says the decision before it could not be taken back)."""
    points = UndoPoints()
    for i, text in enumerate(texts, start=1):
        try:
            if text == UNDO_TEXT:
                state = points.undo()[1]
                continue
            if state.is_terminal():
                raise RecordError(f"action {i} ({text!r}): the game was already over")
            action = state.string_to_action(text)
            keep = not state.is_chance_node() and state.is_legal(action) and state.undoable(action)
            before = state.clone() if keep else None
            state.apply(action)
        except RecordError:
            raise
        except FloeError as exc:
            raise RecordError(f"action {i} ({text!r}): {exc}") from None
        if before is None:
            points.clear()
        else:
            points.push(action, before)
    return state

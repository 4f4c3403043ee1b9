"""What a seat may know: determinization, worlds a seat cannot tell apart, and the action as it is seen.

For a game of imperfect information, at a sampled position and for each seat ``s``:

(a) a world ``W = game.determinize(state.observation(s), rng)`` gives ``s`` the same observation, dict and
    vector as the real state (and, when ``s`` is to act, the same legal actions: a seat's choices follow
    from what it knows);
(b) ``W`` differs from the real state only in what ``s`` cannot know, so the same actions played in both
    (those legal in both) must keep them indistinguishable for ``s`` until something hidden is revealed:
    the end of the game (the final position is not compared) or an action the game's ``reveals`` hook
    names (a rule that turns a hidden card face up);
(c) the action as ``s`` sees it (``observe_action``) tells nothing the observation after it does not: any
    two legal actions after which ``s``'s observation dicts are equal must be seen by ``s`` as the same;
(d) a spectator (``observation(None)``) knows no more than any seat: ``W`` differs from the real state only
    in what ``s`` cannot know, so the spectator's view must be the same in both, at the sampled position and
    after every twin step (a spectator shown a seat's hand sees that hand change in the other seat's world).

For a game of perfect information, ``determinize`` must give back the state itself. (c) holds for both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import numpy as np

from floe.core.game import Game, State
from floe.testing.context import Where, short

Invariants = Callable[[State], object]
# Whether applying the action to the state may show the seat something it could not know before.
Reveals = Callable[[State, int, int], bool]


def check_information(
    game: Game,
    state: State,
    where: Where,
    rng: random.Random,
    *,
    twin_steps: int,
    invariants: Invariants | None,
    reveals: Reveals | None,
    max_actions: int,
) -> None:
    """Checks (a), (b) and (c) of the module docstring (or exact determinization) at ``state``."""
    perfect = game.spec.information == "perfect"
    for seat in range(game.players):
        if perfect:
            _check_exact(game, state, where, seat, rng)
        else:
            world = _check_world(game, state, where, seat, rng, invariants)
            if twin_steps > 0:
                _check_twins(state.clone(), world, where, seat, rng, twin_steps, reveals)
    check_observed_actions(state, where, rng, max_actions)


def _check_exact(game: Game, state: State, where: Where, seat: int, rng: random.Random) -> None:
    """Perfect information: the seat's observation determines the whole state."""
    check = f"determinize(observation({seat}))"
    with where.checking(check):
        world = game.determinize(state.observation(seat), random.Random(rng.random()))
        mine, theirs = world.to_json(), state.to_json()
    where.same(theirs, mine, check, "a perfect-information game must rebuild the state exactly")


def _check_world(
    game: Game, state: State, where: Where, seat: int, rng: random.Random, invariants: Invariants | None
) -> State:
    """(a): a determinized world looks the same to ``seat``; it is a sound position of the game."""
    check = f"determinize(observation({seat}))"
    with where.checking(check):
        world = game.determinize(state.observation(seat), random.Random(rng.random()))
    same_view(state, world, seat, where, check + " seen by the seat")
    same_spectator_view(state, world, where, check + f" seen by a spectator (P{seat + 1}'s world)")
    with where.checking(check):
        acting, world_acting = state.current_player(), world.current_player()
        where.expect(
            world_acting == acting,
            check,
            f"current_player() is {world_acting} in the world, {acting} in the game",
        )
        if acting == seat:
            legal, world_legal = list(state.legal_actions()), list(world.legal_actions())
            if world_legal != legal:
                raise where.failure(
                    check,
                    f"the seat to act has other choices in the world: {short(world_legal)} != {short(legal)}",
                )
    if invariants is not None:
        with where.checking(f"invariants of {check}"):
            invariants(world)
    return world


def _check_twins(
    real: State,
    world: State,
    where: Where,
    seat: int,
    rng: random.Random,
    steps: int,
    reveals: Reveals | None,
) -> None:
    """(b): the real state and a world of ``seat`` go on with the same actions; the seat sees no change."""
    played: list[str] = []
    for _ in range(steps):
        if real.is_terminal() or world.is_terminal():
            return
        with where.checking(f"twin worlds of P{seat + 1}"):
            both = sorted(set(real.legal_actions()) & set(world.legal_actions()))
            if not both:
                return  # the worlds part ways on what is hidden from the seat: nothing more to compare
            action = rng.choice(both)
            if reveals is not None and (reveals(real, action, seat) or reveals(world, action, seat)):
                return  # the worlds may rightly part here
            played.append(real.action_to_string(action))
            real.apply(action)
            world.apply(action)
        if real.is_terminal() or world.is_terminal():
            return  # the end may reveal what was hidden (totems, hands, scores)
        check = f"twin worlds of P{seat + 1} after {', '.join(played)}"
        same_view(real, world, seat, where, check)
        same_spectator_view(real, world, where, check + " seen by a spectator")


def same_view(state: State, world: State, seat: int, where: Where, check: str) -> None:
    """``seat``'s observation, dict and vector are equal in both states."""
    with where.checking(check):
        obs, world_obs = state.observation(seat), world.observation(seat)
        data, world_data = state.observation_dict(seat), world.observation_dict(seat)
        vec, world_vec = state.observation_vector(seat), world.observation_vector(seat)
    where.same(data, world_data, check, "observation_dict differs")
    where.expect(world_obs == obs, check, "observation differs (its dict does not)")
    if not np.array_equal(world_vec, vec):
        at = np.flatnonzero(np.asarray(world_vec) != np.asarray(vec))[:8].tolist()
        raise where.failure(check, f"observation_vector differs at {at}")


def same_spectator_view(state: State, world: State, where: Where, check: str) -> None:
    """(d): a spectator's observation and dict are equal in the real state and in a seat's world."""
    with where.checking(check):
        obs, world_obs = state.observation(None), world.observation(None)
        data, world_data = state.observation_dict(None), world.observation_dict(None)
    where.same(data, world_data, check, "the spectator's observation_dict differs: it shows a seat's secret")
    where.expect(world_obs == obs, check, "the spectator's observation differs (its dict does not)")


def check_observed_actions(state: State, where: Where, rng: random.Random, max_actions: int) -> None:
    """(c): actions a viewer cannot tell apart afterwards are seen the same by that viewer."""
    if state.is_terminal() or max_actions <= 0:
        return
    with where.checking("legal_actions"):
        legal = list(state.legal_actions())
    if len(legal) > max_actions:
        legal = sorted(rng.sample(legal, max_actions))
    viewers: list[int | None] = [None, *range(where.players)]
    groups: dict[tuple[int | None, str], tuple[int, str | None]] = {}
    for a in legal:
        with where.checking("observe_action"):
            after = state.clone()
            after.apply_unchecked(a)
            for viewer in viewers:
                seen = state.observe_action(a, viewer)
                if seen is not None and not isinstance(seen, str):
                    raise where.failure(
                        "observe_action", f"observe_action({a}, {viewer}) gave a {type(seen).__name__}"
                    )
                key = (viewer, json.dumps(after.observation_dict(viewer), sort_keys=True, default=repr))
                first = groups.setdefault(key, (a, seen))
                if first[1] != seen:
                    who = "a spectator" if viewer is None else f"P{viewer + 1}"
                    raise where.failure(
                        "observe_action leaks",
                        f"{who} sees {_name(state, first[0])} as {first[1]!r} and {_name(state, a)} as "
                        f"{seen!r}, but its observation after either is the same",
                    )


def _name(state: State, action: int) -> str:
    try:
        return repr(state.action_to_string(action))
    except Exception:  # only for a message
        return f"id {action}"

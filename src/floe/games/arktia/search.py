"""Arktia's help for the generic search bots: the evaluation, the rollout policy and repeated positions."""

from __future__ import annotations

from floe.bots.hooks import SearchHooks
from floe.games.arktia.evaluation import position_key, rollout_action, values

HOOKS = SearchHooks(evaluate=values, rollout=rollout_action, position_key=position_key)

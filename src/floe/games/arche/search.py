"""Arche's help for the generic search bots: the evaluation for rollouts cut off early and the rollout
policy (``evaluation.py``). Worlds come from ``game.determinize``, which honours what is public."""

from __future__ import annotations

from floe.bots.hooks import SearchHooks
from floe.games.arche.evaluation import rollout_action, values, win_values

HOOKS = SearchHooks(evaluate=values, evaluate_win=win_values, rollout=rollout_action)

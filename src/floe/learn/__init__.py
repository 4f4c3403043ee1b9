"""Learned bots: the model file and its numpy evaluation (``model``), self-play and training (``train``,
which needs the optional extra ``train``). Nothing here names a game (docs/learning.md)."""

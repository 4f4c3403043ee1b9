"""``floe balance``: which seat, power, totem or colour wins, with intervals and corrected significance.

``plan`` (the duplicate plan, one game, the results file), ``analysis`` (facts into arrays, figures),
``statistics`` (intervals, tests, Holm–Bonferroni), ``terminal`` (Rich tables), ``report`` (the HTML
page) and ``command`` (the command itself). A game's own facts come through its entry's ``balance`` hook
(``floe.core.balance``).
"""

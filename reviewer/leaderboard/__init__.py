"""The leaderboard: models ranked by the scorer, the humans or a judge, with uncertainty.

:mod:`.stats` holds the pure estimators (the two-level bootstrap over scenarios and runs,
Wilson intervals, rank intervals, Kendall's tau); :mod:`.source` reads each view's per-run
values from a review store; :mod:`.board` puts them together; :mod:`.output` prints them,
:mod:`.chart` draws them (matplotlib) and :mod:`.verbs` is ``a320-review leaderboard``.
"""

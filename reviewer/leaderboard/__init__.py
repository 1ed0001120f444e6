"""The leaderboard: models ranked by the scorer, the humans or a judge, with uncertainty.

:mod:`.stats` holds the pure estimators (the two-level bootstrap over scenarios and runs,
Wilson intervals, rank intervals, Kendall's tau); :mod:`.values` the per-run values of a
view; :mod:`.board` puts them together; :mod:`.output` prints them and :mod:`.verbs` is
``a320-review leaderboard``. Reading them from a store is :mod:`.runs` (the runs every
figure counts, which the results read too) and :mod:`.source` (each view's values); the
results draw the board (:mod:`reviewer.results.charts.leaderboard`, the dashboard's tab
and the report's page).
"""

"""Rater quality: accuracy against a reference, bias against the other raters, drift.

:mod:`.stats` holds the pure estimators; :mod:`.source` reads scores from a review store;
:mod:`.verbs` is ``a320-review raters accuracy|bias|drift``.
"""

"""Rater quality: accuracy against a reference, bias against the other raters, drift.

:mod:`.stats` holds the pure estimators; :mod:`.storage` is the query (SQL over the core's
connection), :mod:`.facade` puts it on the store (``QualityStore``), :mod:`.source` turns its
rows into scores; :mod:`.verbs` is ``a320-review raters accuracy|bias|drift``.
"""

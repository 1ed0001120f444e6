"""Rater quality: accuracy against a reference, bias against the panel's consensus, drift.

:mod:`.stats` holds the pure estimators and :mod:`.consensus` the panel's consensus model
(bias, and the corrected consensus drift is measured against) over :mod:`.panel`'s layout;
:mod:`.storage` is the query (SQL over the core's connection), :mod:`.facade` puts it on the
store (``QualityStore``), :mod:`.source` turns its rows into scores;
:mod:`reviewer.verbs.raters` is ``a320-review raters accuracy|bias|drift``.
"""

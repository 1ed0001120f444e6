"""Adjudication: a third rater resolves the (run, metric) pairs the raters disagree on.

Rules (pure): :mod:`.rule` decides what needs adjudication and what value the benchmark
reports; :mod:`.model` holds the values. Storage (SQL over the core's connection):
:mod:`.disputes` reads what needs adjudication and the studies' thresholds, :mod:`.storage`
the adjudication lifecycle, :mod:`.integrity` its ``audit verify`` rules. Service:
:mod:`.facade` (``AdjudicationStore``), :mod:`.signing` (a submitted adjudication becomes a
signed sheet, :mod:`reviewer.sheets.adjudication`), :mod:`.consensus` (the reported values).
Verbs: :mod:`.verbs` (``adjudicate``, ``adjudication``), :mod:`.consensus_verbs`
(``consensus``), with :mod:`.output` for their tables.
"""

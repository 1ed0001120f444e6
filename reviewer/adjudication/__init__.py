"""Adjudication: a third rater resolves the (run, metric) pairs the raters disagree on.

:mod:`.rule` decides what needs adjudication and what value the benchmark reports (pure);
:mod:`.model` holds the values; :mod:`.signing` turns a submitted adjudication into a signed
adjudication sheet (:mod:`reviewer.sheets.adjudication`); :mod:`.resolved` checks the rating
sheets an adjudication sheet names; :mod:`.consensus` reads the reported values from a store.
"""

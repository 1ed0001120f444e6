"""Ratings files: a rater's ratings in long format (one row per rating and metric), CSV or
JSONL, read into the store and written out of it.

:mod:`.longformat` is the format (columns, reading with every problem's line, writing);
:mod:`.rating_import` stores a file's rows as submitted ratings (SQL, all or nothing);
:mod:`.export` reads each rater's latest decisions with their context and hides what a
viewer may not see yet (SQL); :mod:`.facade` puts both on the store (``ExchangeStore``);
:mod:`.verbs` is ``a320-review ratings``. The blind phases of a study import the same
format (:mod:`reviewer.studies.phase_import`).
"""

"""Ratings files: a rater's ratings in long format (one row per rating and metric), CSV or
JSONL, read into the store and written out of it.

:mod:`.longformat` is the format (columns, reading with every problem's line, writing);
:mod:`.rating_import` stores a file's rows as submitted ratings, :mod:`.phase_import` a
study phase's (blind, final after the reveal, open), both all or nothing (SQL);
:mod:`.export` reads each rater's latest decisions with their context and hides what a
viewer may not see yet (SQL); :mod:`.template` builds the file a rater fills in for a
phase; :mod:`.facade` puts them on the store (``ExchangeStore``); :mod:`.verbs` is
``a320-review ratings``.
"""

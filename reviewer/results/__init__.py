"""Results: the charts of the dashboard and the report, drawn from one ResultsData.

Nothing here imports matplotlib at package import time: the command line and the window
start without it, and load it only when a dashboard or a report is asked for.
:mod:`source` gathers the data from a store; :mod:`verbs` is ``report``.
"""

"""The results window: the dashboard's charts, the Agreement and the Validity views.

A pane like the queue or the run view: it emits intents (open a run, filter the queue) and
meets the other panes only in ``ui.main_window``. Importing this package does not load
matplotlib; ``ui.results.results_window`` does, when the window is first opened.
"""

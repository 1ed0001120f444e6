"""The run pane: the timeline beside the ground truth (:mod:`.run_view`, with its
:mod:`.timeline_model` and :mod:`.procedure_model`), the ScoreCard panel and the import
problems dock."""

"""The rating pane: the keyboard-first :class:`~ui.rating.rubric_form.RubricForm`, its
:class:`~ui.rating.metric_editor.MetricEditor` and
:class:`~ui.rating.rubric_model.RubricModel`."""

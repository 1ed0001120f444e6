"""The run queue pane: :class:`~ui.queue.queue_panel.QueuePanel` over the lazy
:class:`~ui.queue.run_queue_model.RunQueueModel` and its filter proxy
(:mod:`ui.queue.run_queue_filter`)."""

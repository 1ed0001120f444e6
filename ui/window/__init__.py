"""The main window's parts, each owning one concern and given what it needs.

:class:`ui.main_window.MainWindow` is their composition root: it builds the panes, then
each part with the widgets, the controller and the callbacks it needs, and connects them.
No part imports another's private state; where one needs another it is handed it (the
status bar to the parts that report progress) or the window connects them.
"""

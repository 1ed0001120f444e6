"""The adjudication pane: a grid metric × rater and the adjudicator's decisions.

Does not import the other panes; it meets them in ui/main_window.py (through
ui/window/adjudication.py) and talks to the store through ui/adjudication_control.py.
"""

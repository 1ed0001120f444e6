"""Bundled data: rubrics, demo scenarios and runs, icons, the stylesheet.

Reached through reviewer.assets (importlib.resources); nothing here is code.
"""

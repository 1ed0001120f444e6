"""Bundled data (rubrics, demo scenarios and runs, icons, stylesheet) reached via importlib.resources."""

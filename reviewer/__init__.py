"""Qt-free review services: reading files, the rubric, the SQLite store, signing, the CLI."""

"""One module per command-line verb; each exposes ``register(subparsers)``."""

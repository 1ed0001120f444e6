"""One module per command-line verb; each exposes ``register(subparsers)``.

:mod:`reviewer.commands.verbs` is what they build on (``add_verb``, the argument types,
the errors, ``--out``); :mod:`reviewer.cli` imports the verb modules, never the reverse.
"""

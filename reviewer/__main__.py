"""``python -m reviewer``: the command line without the window (no Qt needed).

Running ``reviewer.cli`` itself as ``__main__`` would load it twice, and its error classes
would no longer be the ones the verbs raise; this module imports it instead.
"""

from reviewer.cli import main

raise SystemExit(main())

"""``python -m reviewer.demo``: regenerate the bundled demo runs."""

from reviewer.demo.render import main

raise SystemExit(main())

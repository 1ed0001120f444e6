"""The console entry point: every verb of ``reviewer.cli``, plus the window.

Kept apart from ``ui.app`` so that ``a320-review score`` never imports PySide6: the window's
runner is imported only when the ``gui`` verb actually runs.
"""

from __future__ import annotations

import argparse
import gc
import sys

from reviewer import cli


def _run_gui(args: argparse.Namespace) -> int:
    # Deferred on purpose: Qt is imported only when the window really opens. On a first
    # start the rater question is on screen before the window's seconds of imports, so
    # no key typed meanwhile is lost (ui.first_start).
    prompt = None
    if getattr(args, "screenshot", None) is None:
        from ui.first_start import early_prompt

        prompt = early_prompt(getattr(args, "rater", None))
        # The window's imports and first screen make some 10^5 objects that live as long
        # as it does; every 700 new ones start a collection over everything made so far.
        # Paused until the queue's rows are in (ui.app.show_first_screen resumes it): a
        # tenth of the imports' time.
        gc.disable()
    from ui.app import run

    return run(args, prompt=prompt)


def _render_pdf(sheet, path) -> int:
    # Deferred like the window: only `sign` and `export` pay for importing Qt.
    from ui.sheets.sheet_pdf import render_sheet_pdf_offscreen

    return render_sheet_pdf_offscreen(sheet, path)


def main(argv: list[str] | None = None) -> int:
    """``a320-review``: the command line; no arguments opens the window."""
    return cli.main(argv, gui=_run_gui, pdf_renderer=_render_pdf)


def gui_main() -> int:
    """``a320-review-gui``: the window, for desktop launchers."""
    return cli.main(["gui", *sys.argv[1:]], gui=_run_gui, pdf_renderer=_render_pdf)

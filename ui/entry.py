"""The console entry point: every verb of ``reviewer.cli``, plus the window.

Kept apart from ``ui.app`` so that ``a320-review score`` never imports PySide6: the window's
runner is imported only when the ``gui`` verb actually runs.
"""

from __future__ import annotations

import argparse
import sys

from reviewer import cli


def _run_gui(args: argparse.Namespace) -> int:
    # Deferred on purpose: Qt is imported only when the window really opens.
    from ui.app import run

    return run(args)


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

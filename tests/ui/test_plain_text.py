"""Issue 8 item 6: text from a file or a user is shown literally, never as HTML.

A trajectory's model and run id, a rater's name and a comment carry markup that would
paint "APPROVED" in green and load a local image if any label rendered it.
"""

from __future__ import annotations

import html

from apphelpers import open_run
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from ui.app import build
from ui.queue.run_queue_model import Column

PAYLOAD = "<b style=color:green>APPROVED</b><img src=/etc/passwd>"


def _shown_as_typed(text: str, fmt: Qt.TextFormat) -> bool:
    """Whether a label with ``text`` in format ``fmt`` shows PAYLOAD literally."""
    if fmt == Qt.TextFormat.PlainText:
        return True
    # Rich (or auto-detected rich) text: PAYLOAD must have been escaped.
    doc = QTextDocument()
    doc.setHtml(text)
    return PAYLOAD in doc.toPlainText() or PAYLOAD not in text


def _tooltip_is_literal(tip: str | None) -> bool:
    if not tip or PAYLOAD not in html.unescape(tip):
        return True
    doc = QTextDocument()
    doc.setHtml(tip)
    return PAYLOAD in doc.toPlainText()


def test_every_label_and_tooltip_shows_html_from_files_and_users_literally(qtbot, tmp_path):
    b = TrajectoryBuilder(bundled_scenario("elec-apu-gen-fault"), model=PAYLOAD)
    path = b.turn().read("read_ecam").set("apu_gen", 0).done().final().write(tmp_path / "x.jsonl")
    app = build(tmp_path / "review.db", PAYLOAD, qapp=QApplication.instance())
    qtbot.addWidget(app.window)
    try:
        app.store.import_paths([path])
        app.controller.reload_runs()
        app.window.show()
        open_run(qtbot, app, lambda r: True)
        metric = app.controller.store.rubric().metric_ids[0]
        app.controller.save_item(metric, "applicable", 3, PAYLOAD)
        app.window.rubric.set_rating(app.controller.rating, app.controller.items(), True)
        app.window.rubric.set_banner(f"Correcting {PAYLOAD}")
        QApplication.processEvents()

        seen = 0
        for label in app.window.findChildren(QLabel):
            if PAYLOAD in label.text() or html.escape(PAYLOAD) in label.text():
                seen += 1
                assert _shown_as_typed(label.text(), label.textFormat()), label.objectName()
            assert _tooltip_is_literal(label.toolTip()), label.objectName()
        assert seen >= 3  # the run title, the rater in the status bar, the banner
        assert PAYLOAD in app.window.status.rater_label.text()
        assert PAYLOAD in app.window.run_view.title.text()

        # Tooltips of the models: queue cells, timeline and ground truth rows.
        models = [
            app.window.queue.model,
            app.window.run_view.timeline_model,
            app.window.run_view.procedure_model,
            app.window.rubric.model,
        ]
        for model in models:
            for row in range(model.rowCount()):
                for column in range(model.columnCount()):
                    tip = model.index(row, column).data(Qt.ItemDataRole.ToolTipRole)
                    assert _tooltip_is_literal(tip), (model, row, column, tip)
        queue_tip = app.window.queue.model.index(0, Column.MODEL).data(Qt.ItemDataRole.ToolTipRole)
        assert PAYLOAD in html.unescape(queue_tip)
    finally:
        app.controller.wait_idle()
        app.store.close()

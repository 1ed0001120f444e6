"""Draws a metric's alpha interval as a bar on a −0.2…1 scale, with the 0.667 and 0.8 lines.

The delegate reads the :class:`~reviewer.agreement.report.MetricAgreement` through
``RowRole``; it never computes anything.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QStyledItemDelegate

from ui.results.rows_model import RowRole

LOW, HIGH = -0.2, 1.0
BAR = QColor("#0072B2")  # Okabe–Ito blue, as in the charts
WEAK = QColor("#D55E00")  # vermillion: the interval reaches below 0.667
LINES = ((0.667, QColor("#E69F00")), (0.8, QColor("#009E73")))


class AlphaBarDelegate(QStyledItemDelegate):
    """Paints ``ci_low``–``ci_high`` as a bar and alpha as a tick."""

    def paint(self, painter, option, index) -> None:
        super().paint(painter, option, index)
        metric = index.data(RowRole)
        rect = QRectF(option.rect).adjusted(4, 4, -4, -4)

        def x(value: float) -> float:
            clipped = min(max(value, LOW), HIGH)
            return rect.left() + (clipped - LOW) / (HIGH - LOW) * rect.width()

        painter.save()
        for value, colour in LINES:
            painter.setPen(QPen(colour, 1, Qt.PenStyle.DashLine))
            painter.drawLine(int(x(value)), int(rect.top()), int(x(value)), int(rect.bottom()))
        if metric is not None and metric.ci_low is not None and metric.ci_high is not None:
            weak = metric.ci_low < 0.667
            bar = QRectF(x(metric.ci_low), rect.center().y() - 3, 0, 6)
            bar.setRight(x(metric.ci_high))
            painter.fillRect(bar, WEAK if weak else BAR)
        if metric is not None and metric.alpha_ordinal is not None:
            painter.setPen(QPen(Qt.GlobalColor.black, 2))
            tick = x(metric.alpha_ordinal)
            painter.drawLine(int(tick), int(rect.top()), int(tick), int(rect.bottom()))
        painter.restore()

    def sizeHint(self, option, index):
        hint = super().sizeHint(option, index)
        hint.setWidth(max(hint.width(), 180))
        return hint

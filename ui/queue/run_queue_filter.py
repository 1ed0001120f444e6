"""The run queue's filter proxy: scenario, model, status, rating state and free text.

Sorting is not done here: the proxy hands it to the source model, whose one ``list.sort``
keeps a 10,000-run queue fast (see :class:`RunQueueFilter`).
"""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import QRegularExpression, QSortFilterProxyModel, Qt

from ui.queue.run_queue_model import AcceptRole, RunQueueModel

ANY: Final = "any"
"""Filter value meaning "do not filter on this facet"."""


class RunQueueFilter(QSortFilterProxyModel):
    """Filters by scenario, model, status, rating state and free text.

    Sorting is handed to :meth:`RunQueueModel.sort` (SortRole values, None last): Qt's own
    proxy sort calls back into Python four times per comparison, over a second for 10,000
    rows, where one ``list.sort`` takes milliseconds.

    Unfiltered, no row is asked about in Python: ``filterAcceptsRow`` is not overridden
    and Qt's own answers "yes" at once while its pattern is empty (a Python override was
    called for each of 50,000 rows at every reset, a tenth of a second). Filtering, the
    pattern asks the model's :data:`~ui.queue.run_queue_model.AcceptRole`, which answers
    with :meth:`accepts`.
    """

    FACETS: Final = ("scenario_id", "model", "status", "rating_state")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._facets: dict[str, Any] = dict.fromkeys(self.FACETS, ANY)
        self._text = ""
        self._active = False
        self._only: frozenset[int] | None = None
        self.setFilterKeyColumn(0)
        self.setFilterRole(AcceptRole)

    def setSourceModel(self, source) -> None:
        """The source asks :meth:`accepts` for its AcceptRole."""
        if isinstance(source, RunQueueModel):
            source.accepts = self.accepts
        super().setSourceModel(source)

    def set_facet(self, facet: str, value: Any) -> None:
        """Keep only rows whose ``facet`` equals ``value`` (``ANY`` for no filter)."""
        if facet not in self._facets:
            raise KeyError(facet)
        if self._facets[facet] != value:
            self._change_filter(lambda: self._facets.__setitem__(facet, value))

    def set_text(self, text: str) -> None:
        """Keep only rows whose run id, model or scenario contains ``text`` (any case)."""
        needle = text.strip().casefold()
        if needle != self._text:
            self._change_filter(lambda: setattr(self, "_text", needle))

    def facet(self, facet: str) -> Any:
        return self._facets[facet]

    def is_filtering(self) -> bool:
        return (
            bool(self._text)
            or any(v != ANY for v in self._facets.values())
            or self._only is not None
        )

    def set_only(self, run_pks: frozenset[int] | None) -> None:
        """Keep only these runs (e.g. those that need adjudication); ``None``: every run."""
        if run_pks != self._only:
            self._change_filter(lambda: setattr(self, "_only", run_pks))

    def _change_filter(self, apply) -> None:
        was_active = self._active
        # Qt ≥ 6.10: bracket the change, so views keep their selection; invalidateFilter is
        # deprecated there.
        self.beginFilterChange()
        apply()
        self._active = self.is_filtering()
        if self._active != was_active:
            # The pattern says whether Qt asks at all: empty, every row is shown.
            self.setFilterRegularExpression(_ACCEPTED if self._active else _EVERY_ROW)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def accepts(self, run: Any) -> bool:
        """Whether the filters keep ``run`` (a row of the source model)."""
        if self._only is not None and run.run_pk not in self._only:
            return False
        for facet, wanted in self._facets.items():
            if wanted != ANY and getattr(run, facet) != wanted:
                return False
        if self._text:
            haystack = f"{run.run_id or ''}\n{run.model or ''}\n{run.scenario_id or ''}"
            return self._text in haystack.casefold()
        return True

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        # The source sorts itself in one Python sort; this proxy keeps the source order.
        source = self.sourceModel()
        if source is not None:
            source.sort(column, order)


#: The pattern while filtering: the AcceptRole of a row the filters keep ("1").
_ACCEPTED = QRegularExpression("^1$")
#: The pattern unfiltered: empty, Qt keeps every row without asking.
_EVERY_ROW = QRegularExpression()

"""The study selector and the queue within a study: captions, intents without feedback,
"k ratings in", and Score/Safety cells that say "hidden" for the rater's blind runs."""

from __future__ import annotations

from fakes import run_row
from PySide6.QtCore import Qt

from reviewer.studies.model import Study
from ui.queue.queue_panel import QueuePanel
from ui.queue.run_queue_model import HIDDEN_TIP, Column, RunQueueModel
from ui.queue.study_bar import ALL_RUNS, BLIND_NOTE, StudyBar


def _study(name: str, protocol: str = "open") -> Study:
    return Study(name=name, raters=("ann", "bob"), per_run=2, protocol=protocol,
                 study_pk=1, rubric_sha256="0" * 64, created_at="2026-07-24T08:00:00Z")  # fmt: skip


def test_the_bar_offers_all_runs_and_each_study_and_emits_only_choices(qtbot):
    bar = StudyBar()
    qtbot.addWidget(bar)
    chosen, mine = [], []
    bar.study_chosen.connect(chosen.append)
    bar.my_queue_toggled.connect(mine.append)
    bar.set_studies([_study("pilot", "blind"), _study("open-one")])
    assert [bar.combo.itemText(i) for i in range(3)] == [
        ALL_RUNS, "pilot · blind · 2 per run", "open-one · open · 2 per run"]  # fmt: skip
    assert chosen == [] and not bar.mine.isEnabled()
    bar.set_study("pilot")  # pushed in: no intent comes back
    assert chosen == [] and bar.current_study() == "pilot" and bar.note.text() == BLIND_NOTE
    bar.combo.setCurrentIndex(2)
    assert chosen == ["open-one"] and bar.mine.isChecked() and bar.mine.isEnabled()
    bar.mine.setChecked(False)
    assert mine == [False]
    bar.combo.setCurrentIndex(0)
    assert chosen[-1] is None and bar.mine.isChecked() and not bar.mine.isEnabled()


def test_queue_model_with_study_rows_and_hidden_runs_passes_the_model_tester(qtmodeltester):
    model = RunQueueModel()
    rows = [run_row(n, study="pilot", per_run=2, ratings_in=n % 3, position=n) for n in range(6)]
    model.set_rows(rows)
    model.set_scorer_hidden({1, 2})
    qtmodeltester.check(model)
    assert model.index(0, Column.IN).data() == "0/2"
    assert model.index(1, Column.SCORE).data() == "—"
    assert model.index(1, Column.SCORE).data(Qt.ItemDataRole.ToolTipRole) == HIDDEN_TIP
    assert model.index(0, Column.SCORE).data() == "0.50"


def test_the_in_column_shows_only_within_a_study(qtbot):
    panel = QueuePanel()
    qtbot.addWidget(panel)
    panel.set_rows([run_row(n) for n in range(3)])
    assert panel.view.isColumnHidden(Column.IN)
    panel.set_rows([run_row(n, study="s", per_run=2, ratings_in=1) for n in range(3)])
    assert not panel.view.isColumnHidden(Column.IN)

"""The dashboard's data kept between loads, so that a submit updates only its run.

Every rating figure of :class:`~reviewer.results.data.ResultsData` is a sum over runs, or
a table with one entry per run: the agreement report's point figures
(:class:`~reviewer.agreement.running.AgreementTally`), the consensus of each (run, metric)
(:func:`~reviewer.agreement.unit_consensus.unit_consensus`, whose value for a run depends
on that run's items and adjudications only), the N/A and N/O counts, the raters' spread
per run. :class:`LiveResults` reads the decided items once as columns
(:class:`~reviewer.agreement.items.ItemColumns`, no object per item), keeps them in run
order with a consensus unit per (run, metric), and :meth:`LiveResults.update` re-reads the
runs a submit touched, takes their old part out of each figure, puts their new slice in
place and adds its part. The records themselves are built only when something reads
:attr:`ResultsData.records` (the charts, the report, the bootstrap); the tests hold an
updated :class:`LiveResults` to a fresh read, and both to the records' computation.

The bootstrap intervals (agreement's, the leaderboard's) are not here: the dashboard shows
the point values first and fills the intervals in from :func:`with_intervals`, off the
GUI thread, so a slow bootstrap never holds up a figure.
"""

from __future__ import annotations

import gc
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.agreement.consensus import Consensus
from reviewer.agreement.counterparts import rubric_counterparts
from reviewer.agreement.distinct import distinct, sorted_codes
from reviewer.agreement.items import ItemColumns
from reviewer.agreement.records import Columns, RatingRecord, RunInfos
from reviewer.agreement.report import (
    AgreementReport,
    metric_interval,
    tally_report,
    with_interval,
)
from reviewer.agreement.running import AgreementTally
from reviewer.agreement.source import (
    UnknownStudyError,
    consensus_rules,
    item_columns,
)
from reviewer.agreement.unit_consensus import unit_consensus
from reviewer.agreement.validity import rubric_validity
from reviewer.agreement.validity_table import ValidityTable
from reviewer.leaderboard.runs import RUN_COLUMNS as POINT_COLUMNS
from reviewer.leaderboard.runs import RunPoint, all_scenarios, study_runs
from reviewer.results import derived
from reviewer.results.data import MetricInfo, ResultsData, ResultsMeta
from reviewer.results.run_columns import counterparts, counterparts_and_table, runs_of_rows
from reviewer.rubric import Rubric
from reviewer.studies.visibility import hidden_runs, left_out_note

if TYPE_CHECKING:
    from reviewer.leaderboard.board import Board

Key = tuple[str, str]


class LiveResults:
    """The selection's runs, their items and the figures summed over them."""

    def __init__(
        self,
        store: AdjudicationStore,
        *,
        study: str | None = None,
        scenarios: Sequence[str] = (),
        viewer: str | None = None,
    ) -> None:
        with _fewer_collections():
            self._read(store, study, scenarios, viewer)

    def _read(
        self,
        store: AdjudicationStore,
        study: str | None,
        scenarios: Sequence[str],
        viewer: str | None,
    ) -> None:
        self.study, self.scenarios, self.viewer = study, list(scenarios), viewer
        infos, (runs, versions) = _read_runs(store, scenarios)
        raw = item_columns(store)
        if study is not None and study not in raw.known_studies():
            raise UnknownStudyError(
                f"no ratings belong to a study named {study!r} in this database"
            )
        if study is not None:
            runs = study_runs(store, study, runs)
        self.hidden, self.blind_for = hidden_runs(store, viewer)
        n_selected = len(runs)
        if self.hidden:
            hidden_ids = {
                run_id
                for (run_pk, run_id) in store.run_table(("run_pk", "run_id"))
                if run_pk in self.hidden and run_id
            }
            runs = [r for r in runs if r.run_pk not in self.hidden and r.run_id not in hidden_ids]
        self.n_left_out = n_selected - len(runs)
        self.runs, self.versions = runs, versions
        self.keys = {str(r.run_pk) for r in runs}
        self.rubric: Rubric = store.rubric()
        self.run_infos: RunInfos = infos.only(self.keys)
        self.database = str(store.path.resolve())
        self.all_scenarios = all_scenarios(store)
        self.judges = sorted(r.name for r in store.raters() if r.kind == "judge")
        self.leaderboard: Board | None = None  # a bootstrap: filled in by with_intervals
        chosen = raw.chosen(study)
        selected = np.array([r.run_pk for r in runs], dtype=np.int64)
        chosen = chosen.take(np.isin(chosen.run, selected))  # in the store's rating order
        columns = chosen.columns()  # read once for the three sums below
        self.tally = AgreementTally()
        self.tally.add_columns(columns)
        self.outcomes: Counter[tuple[str, int]] = Counter()
        self._add_outcomes(columns, 1)
        self.spread = derived.rater_spread(columns)
        #: The items in run order (each run's in the store's order), and a consensus unit
        #: per (run, metric) in the same order: a submit replaces its run's slice of both.
        self.items = (
            chosen if _ascending(chosen.run) else chosen.take(np.argsort(chosen.run, kind="stable"))
        )
        self.thresholds, self.decided = consensus_rules(store, study)
        self.units = unit_consensus(self.items, self.thresholds, self.decided)
        self.human: dict[str, float] = self.units.human_means()  # validity's human score
        self.raters_per_run = _raters_per_run(self.items)
        # Runs with a blind-phase value (anchoring reads them).
        self.blind = {str(pk) for pk in distinct(self.items.run[self.items.blind_outcome >= 0])}
        #: The scorer's counterparts: of the runs only, so a submit leaves them as they are.
        self.counterparts: dict[Key, float] | None = None
        self.auto: dict[Key, float] | None = None
        #: Validity's inputs, a row per run (built with ``auto``, then replaced run by run).
        self.table: ValidityTable | None = None
        #: The units' consensus as dicts, patched run by run while its keys stay put.
        self._consensus: Consensus | None = None

    def _add_outcomes(self, columns: Columns, sign: int) -> None:
        for metric, counts in derived.outcome_counts(columns).items():
            for i, n in enumerate(counts):
                self.outcomes[(metric, i)] += sign * n

    def update(self, store: AdjudicationStore, run_pks: Iterable[int]) -> bool:
        """Re-read the runs ``run_pks`` (a rating of theirs was submitted) and update every
        figure they take part in; False when the selection itself changed (a run left the
        viewer's blind phase): then build a new :class:`LiveResults` instead."""
        hidden, _blind_for = hidden_runs(store, self.viewer)
        if hidden != self.hidden:
            return False
        for run_pk in run_pks:
            key = str(run_pk)
            if key not in self.keys:
                continue  # outside the selection (another scenario, hidden)
            self._replace_run(store, key, run_pk)
        return True

    def _replace_run(self, store: AdjudicationStore, key: str, run_pk: int) -> None:
        """Take the run's old part out of every figure, read it again, add the new part."""
        start, end = np.searchsorted(self.items.run, [run_pk, run_pk + 1]).tolist()
        old = self.items.take(slice(start, end))
        if len(old):
            columns = old.columns()
            self.tally.add_columns(columns, sign=-1)
            self._add_outcomes(columns, -1)
        for figure in (self.spread, self.raters_per_run, self.human):
            figure.pop(key, None)
        self.blind.discard(key)
        new = item_columns(store, run_pk=run_pk).chosen(self.study).recoded(self.items)
        self.items = self.items.renamed(new).spliced(start, end, new)
        thresholds, decided = consensus_rules(store, self.study, run_pk)
        units = unit_consensus(new, thresholds, decided)
        ustart, uend = np.searchsorted(self.units.run, [run_pk, run_pk + 1]).tolist()
        was = self.units.part(ustart, uend).consensus()
        self.units = self.units.with_run(run_pk, units)
        part, kept = units.consensus(), self._consensus
        if kept is not None and (list(was.scores), list(was.open)) == (
            list(part.scores),
            list(part.open),
        ):  # the same keys in the same places: the values change where they stand
            kept.scores.update(part.scores)
            kept.open.update(part.open)
            adjudicated = (kept.adjudicated - was.adjudicated) | part.adjudicated
            self._consensus = Consensus(kept.scores, kept.open, adjudicated)
        else:
            self._consensus = None  # joined again from the units when next asked
        if len(new):
            columns = new.columns()
            self.tally.add_columns(columns)
            self._add_outcomes(columns, 1)
            self.spread.update(derived.rater_spread(columns))
            self.raters_per_run.update(_raters_per_run(new))
            self.human.update(units.human_means())
            if (new.blind_outcome >= 0).any():
                self.blind.add(key)
        if self.table is not None:
            self.table.set_run(key, part, self.human.get(key))

    def data(self) -> ResultsData:
        """The point figures as they stand (no bootstrap interval yet). Runs in ``run_pk``
        order, so a figure summed in order is the same whichever runs were updated."""
        with _fewer_collections():  # the first: validity's table, 100,000 consensus entries
            return self._data()

    def _data(self) -> ResultsData:
        items = self.items
        if self._consensus is None:
            self._consensus = self.units.consensus()
        kept = self._consensus  # the caller's own copy: later patches do not change it
        consensus = Consensus(dict(kept.scores), dict(kept.open), kept.adjudicated)
        agreement: AgreementReport | None = None
        validity = None
        records: list[RatingRecord] | None = None
        if len(items):
            agreement = tally_report(self.tally, self.rubric.metric_ids)
            declared = rubric_counterparts(self.rubric)
            if self.auto is None:
                self.counterparts, self.auto = counterparts_and_table(
                    self.runs, self.run_infos, declared
                )
            if self.table is None:
                human = {k: self.human[k] for k in _in_run_order(self.human)}
                rows = _in_run_order(self.keys)
                self.table = ValidityTable.of_units(
                    self.units, human, self.run_infos, declared, self.auto, rows=rows
                )
            # Anchoring reads the blind values: the records then, else nothing (None).
            records = items.records() if self.blind else None
            validity = rubric_validity(
                [], records or [], self.run_infos, self.rubric, top=10, consensus=consensus,
                auto=self.auto, table=self.table,
            )  # fmt: skip
        meta = ResultsMeta(
            generated_at=datetime.now(UTC),
            database=self.database,
            scorer_versions=sorted(self.versions),
            rubric=f"{self.rubric.id} v{self.rubric.version} ({self.rubric.title})",
            study=self.study,
            scenario_filter=list(self.scenarios),
            n_runs=len(self.runs),
            n_ratings=sum(self.raters_per_run.values()),
            n_raters=len(self.tally.raters()),
            n_left_out=self.n_left_out,
            left_out_note=left_out_note(self.n_left_out, self.blind_for),
        )
        data = ResultsData(
            meta=meta,
            scenarios=self.all_scenarios,
            runs=self.runs,
            metrics=[
                MetricInfo(id=m.id, title=m.title, counterpart=m.counterpart)
                for m in self.rubric.metrics
            ],
            items=items,
            records=records,
            agreement=agreement,
            validity=validity,
            human_consensus=consensus,
            judges=self.judges,
            leaderboard=self.leaderboard,
        )
        counts = {
            m: (self.outcomes[(m, 0)], self.outcomes[(m, 1)], self.outcomes[(m, 2)])
            for m in dict.fromkeys(m for m, _ in self.outcomes)
        }
        known: dict[str, object] = {
            "outcome_rates": derived.rates_of(counts),
            "rater_spread": {k: self.spread[k] for k in _in_run_order(self.spread)},
        }
        if self.counterparts is None:  # of the runs only: a submit leaves them as they are
            self.counterparts = counterparts(self.runs, rubric_counterparts(self.rubric))
        known["counterparts"] = self.counterparts
        return data.known(**known)

    def with_intervals(self, data: ResultsData, *, seed: int, resamples: int) -> ResultsData:
        """``data`` with the bootstrap intervals filled in (agreement's and the leaderboard,
        which is kept: a submit does not change the runs' scores)."""
        if self.leaderboard is None:
            # Not before the points: the leaderboard is a bootstrap.
            from reviewer.leaderboard.board import build as build_board
            from reviewer.leaderboard.values import scorer_values_of

            self.leaderboard = build_board(
                scorer_values_of(self.runs), resamples=resamples, seed=seed
            )
        return with_intervals(data, seed=seed, resamples=resamples, leaderboard=self.leaderboard)


def with_intervals(
    data: ResultsData, *, seed: int, resamples: int, leaderboard: Board | None = None
) -> ResultsData:
    """``data`` with each metric's bootstrap interval of alpha (and ``leaderboard``); the
    cached figures carry over (none of them depends on the intervals)."""
    update: dict[str, object] = {}
    if leaderboard is not None:
        update["leaderboard"] = leaderboard
    if data.agreement is not None and resamples > 0:
        items = data.items
        by_metric: dict[str, list[RatingRecord]] = defaultdict(list)
        if items is None or "records" in data.__dict__:  # the records are there: read them
            items = None
            for r in data.records:
                by_metric[r.metric_id].append(r)
        rows = [
            with_interval(
                row,
                metric_interval(
                    row.metric_id,
                    # The same units counted from the columns: no record built for them.
                    by_metric[row.metric_id] if items is None
                    else items.score_units(row.metric_id),
                    row.alpha_ordinal,
                    seed=seed,
                    resamples=resamples,
                ),
                resamples,
            )
            for row in data.agreement.metrics
        ]  # fmt: skip
        update["agreement"] = data.agreement.model_copy(update={"metrics": rows})
    return data.model_copy(update=update) if update else data


def _read_runs(
    store: AdjudicationStore, scenarios: Sequence[str]
) -> tuple[RunInfos, tuple[list[RunPoint], set[str]]]:
    """The newest run versions as validity's :class:`RunInfo` (by key) and as the charts'
    :class:`RunPoint` (of ``scenarios``) with their scorer versions, from one read of the
    runs table (:func:`~reviewer.agreement.source.run_infos` and
    :func:`~reviewer.leaderboard.runs.read_runs` read it once each). Validity reads the
    infos of the selected runs only, all of them newest versions."""
    return runs_of_rows(store.run_table(POINT_COLUMNS, newest_only=True), scenarios)


def _ascending(values: npt.NDArray[np.int64]) -> bool:
    """Whether ``values`` never decrease: then their stable argsort leaves them in place
    (the runs' items mostly come in run order)."""
    return bool((values[1:] >= values[:-1]).all())


def _raters_per_run(items: ItemColumns) -> dict[str, int]:
    """``{run_key: raters}`` of the runs with items."""
    width = max(len(items.raters), 1)
    pairs = distinct(items.run * width + items.rater)  # each (run, rater) once
    runs, at = sorted_codes(pairs // width)
    counts = np.bincount(at, minlength=len(runs))
    return dict(zip([str(pk) for pk in runs.tolist()], counts.tolist(), strict=True))


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """The cyclic garbage collector's young generation made large while a million objects
    (200,000 records, their rows and figures) are built: with the default threshold
    (700 allocations) it ran thousands of times over the growing heap, a third of the time.
    None of these objects is in a cycle. The thresholds are the process's: the last of
    overlapping readings (the window's load and a report's export) restores them."""
    global _readers, _thresholds
    with _gc_lock:
        if _readers == 0:
            _thresholds = gc.get_threshold()
            gc.set_threshold(100_000, *_thresholds[1:])
        _readers += 1
    try:
        yield
    finally:
        with _gc_lock:
            _readers -= 1
            if _readers == 0:
                gc.set_threshold(*_thresholds)


_gc_lock = threading.Lock()
_readers = 0
_thresholds: tuple[int, int, int] = gc.get_threshold()


def _in_run_order(keys: Iterable[str]) -> list[str]:
    """``keys`` sorted by :func:`_run_order`: by ``int`` when every key is digits (a run's
    ``run_pk`` as text), as :func:`_run_order` reads them, without a Python call per key."""
    keys = list(keys)
    return sorted(keys, key=int if all(map(str.isdigit, keys)) else _run_order)


def _run_order(key: str) -> int:
    return int(key) if key.isdigit() else 0

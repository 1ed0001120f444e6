"""The dashboard's data kept between loads, so that a submit updates only its run.

Every rating figure of :class:`~reviewer.results.data.ResultsData` is a sum over runs, or
a table with one entry per run: the agreement report's point figures
(:class:`~reviewer.agreement.running.AgreementTally`), the consensus of each (run, metric)
(:func:`~reviewer.agreement.consensus.build_consensus`, whose value for a run depends on
that run's records and reported values only), the N/A and N/O counts, the raters' spread
per run. :class:`LiveResults` reads the store once, keeps each run's records and each of
those figures, and :meth:`LiveResults.update` re-reads the runs a submit touched, takes
their old part out and adds their new one. Each figure is still computed by its one
function, on one run's records instead of all of them; the tests hold an updated
:class:`LiveResults` to a fresh :func:`~reviewer.results.source.gather`.

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
from itertools import chain
from typing import TYPE_CHECKING

from reviewer.adjudication.consensus import reported_values
from reviewer.adjudication.facade import AdjudicationStore
from reviewer.adjudication.model import ReportedValue
from reviewer.agreement.consensus import Consensus, build_consensus
from reviewer.agreement.counterparts import counterpart_table, rubric_counterparts
from reviewer.agreement.records import Columns, RatingRecord, RunInfo
from reviewer.agreement.report import (
    AgreementReport,
    metric_interval,
    tally_report,
    with_interval,
)
from reviewer.agreement.running import AgreementTally
from reviewer.agreement.source import choose, load_inputs, rating_records
from reviewer.agreement.validity import human_scores, rubric_validity
from reviewer.agreement.validity_table import ValidityTable
from reviewer.leaderboard.runs import all_scenarios, read_runs, study_runs
from reviewer.leaderboard.values import scorer_values_of
from reviewer.results import derived
from reviewer.results.data import MetricInfo, ResultsData, ResultsMeta
from reviewer.results.joined import Joined
from reviewer.rubric import Rubric
from reviewer.studies.visibility import hidden_runs, left_out_note

if TYPE_CHECKING:
    from reviewer.leaderboard.board import Board

Key = tuple[str, str]


class LiveResults:
    """The selection's runs, their records and the figures summed over them."""

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
        runs, versions = read_runs(store, scenarios)
        inputs = load_inputs(store, study=study)
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
        self.rubric: Rubric = inputs.rubric
        self.run_infos: dict[str, RunInfo] = {
            k: v for k, v in inputs.runs.items() if k in self.keys
        }
        self.database = str(store.path.resolve())
        self.all_scenarios = all_scenarios(store)
        self.judges = sorted(r.name for r in store.raters() if r.kind == "judge")
        self.leaderboard: Board | None = None  # a bootstrap: filled in by with_intervals
        # Per run: its records (the phase's values) and both phases' (anchoring's), its
        # consensus, its mean consensus (validity's human score), its raters' spread.
        self.records: dict[str, list[RatingRecord]] = defaultdict(list)
        self.unselected: dict[str, list[RatingRecord]] = defaultdict(list)
        for r in inputs.records:
            if r.run_key in self.keys:
                self.records[r.run_key].append(r)
        for r in inputs.unselected:
            if r.run_key in self.keys:
                self.unselected[r.run_key].append(r)
        reported: dict[str, dict[Key, ReportedValue]] = defaultdict(dict)
        for k, v in inputs.reported.items():
            reported[k[0]][k] = v
        everything = [r for records in self.records.values() for r in records]
        columns = Columns.of(everything)  # read once for the three sums below
        self.tally = AgreementTally()
        self.tally.add_columns(columns)
        self.outcomes: Counter[tuple[str, int]] = Counter()
        self._add_outcomes(columns, 1)
        self.consensus: dict[str, Consensus] = {}
        self.human: dict[str, dict[str, float]] = {}
        self.spread = derived.rater_spread(columns)
        self.raters_per_run: dict[str, int] = {}
        self.blind: set[str] = set()  # runs with a blind-phase value (anchoring reads them)
        consensus = build_consensus(everything, inputs.reported)
        split: dict[str, Consensus] = defaultdict(Consensus)
        for k, value in consensus.scores.items():
            split[k[0]].scores[k] = value
        for k, median in consensus.open.items():
            split[k[0]].open[k] = median
        adjudicated: dict[str, set[Key]] = defaultdict(set)
        for k in consensus.adjudicated:
            adjudicated[k[0]].add(k)
        for key in self.records:
            part = split[key]
            decided = frozenset(adjudicated.get(key, ()))
            self._set_run(key, Consensus(part.scores, part.open, decided), spread=None)
        #: The scorer's counterparts: of the runs only, so a submit leaves them as they are.
        self.counterparts: dict[Key, float] | None = None
        self.auto: dict[Key, float] | None = None
        #: Validity's inputs, a row per run (built with ``auto``, then replaced run by run).
        self.table: ValidityTable | None = None
        self._order: list[str] | None = None  # the runs with records, in run_pk order
        self._joined: Joined | None = None  # their records and consensus joined in order

    def _set_run(
        self, key: str, consensus: Consensus, spread: dict[str, tuple[int, float]] | None
    ) -> None:
        """Keep the run's consensus and the per-run figures of its records."""
        records = self.records[key]
        self.consensus[key] = consensus
        self.human[key] = human_scores(consensus.scores)
        self.raters_per_run[key] = len({r.rater for r in records})
        if any(r.has_blind for r in self.unselected.get(key, ())):
            self.blind.add(key)
        if spread is not None:
            self.spread.update(spread)

    def _add_outcomes(self, records: Sequence[RatingRecord] | Columns, sign: int) -> None:
        for metric, counts in derived.outcome_counts(records).items():
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
        old = self.records.pop(key, [])
        self.tally.add(old, sign=-1)
        self._add_outcomes(old, -1)
        self.unselected.pop(key, None)
        old_part = self.consensus.pop(key, None)
        self.human.pop(key, None)
        self.spread.pop(key, None)
        self.raters_per_run.pop(key, None)
        self.blind.discard(key)
        records, unselected = choose(rating_records(store, run_pk=run_pk), study=self.study)
        if bool(records) != bool(old):
            self._order = None  # the run joins or leaves the runs with records
        if self.table is not None:
            self.table.set_run(key, Consensus(), None)
        if not records and not unselected:
            self._joined = None if old else self._joined
            return
        self.records[key] = records
        self.unselected[key] = unselected
        self.tally.add(records)
        self._add_outcomes(records, 1)
        consensus = build_consensus(records, _reported_of_run(store, self.study, run_pk))
        self._set_run(key, consensus, spread=derived.rater_spread(records))
        if self.table is not None:
            self.table.set_run(key, consensus, self.human[key].get(key))
        joined = self._joined
        if joined is not None and (
            old_part is None or not joined.replace(key, old_part, records, consensus)
        ):
            self._joined = None

    def data(self) -> ResultsData:
        """The point figures as they stand (no bootstrap interval yet). Runs in ``run_pk``
        order, so a figure summed in order is the same whichever runs were updated."""
        if self._order is None:
            self._order = sorted((k for k, rs in self.records.items() if rs), key=_run_order)
            self._joined = None
        order = self._order
        if self._joined is None:
            self._joined = Joined(order, self.records, self.consensus)
        records = self._joined.all_records()
        consensus = self._joined.consensus()
        agreement: AgreementReport | None = None
        validity = None
        if records:
            agreement = tally_report(self.tally, self.rubric.metric_ids)
            declared = rubric_counterparts(self.rubric)
            if self.auto is None:
                self.auto = counterpart_table(self.run_infos, declared)
            if self.table is None:
                human = dict(chain.from_iterable(self.human[key].items() for key in order))
                rows = sorted(self.keys, key=_run_order)
                self.table = ValidityTable.of(
                    consensus, human, self.run_infos, declared, self.auto, rows=rows
                )
            # Anchoring reads the blind values; without any it has nothing to read (None).
            blind = [] if not self.blind else [r for k in order for r in self.unselected[k]]
            validity = rubric_validity(
                records, blind, self.run_infos, self.rubric, top=10, consensus=consensus,
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
            "rater_spread": {k: self.spread[k] for k in order if k in self.spread},
        }
        if self.counterparts is not None:
            known["counterparts"] = self.counterparts
        data.known(**known)
        self.counterparts = data.counterparts
        return data

    def with_intervals(self, data: ResultsData, *, seed: int, resamples: int) -> ResultsData:
        """``data`` with the bootstrap intervals filled in (agreement's and the leaderboard,
        which is kept: a submit does not change the runs' scores)."""
        if self.leaderboard is None:
            from reviewer.leaderboard.board import build as build_board  # scipy: not before

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
        by_metric: dict[str, list[RatingRecord]] = defaultdict(list)
        for r in data.records:
            by_metric[r.metric_id].append(r)
        rows = [
            with_interval(
                row,
                metric_interval(
                    row.metric_id,
                    by_metric[row.metric_id],
                    row.alpha_ordinal,
                    seed=seed,
                    resamples=resamples,
                ),
                resamples,
            )
            for row in data.agreement.metrics
        ]
        update["agreement"] = data.agreement.model_copy(update={"metrics": rows})
    return data.model_copy(update=update) if update else data


def _reported_of_run(
    store: AdjudicationStore, study: str | None, run_pk: int
) -> dict[Key, ReportedValue]:
    from reviewer.store import NotFoundError

    try:
        return reported_values(store, study=study, run_pk=run_pk)
    except NotFoundError:
        return {}


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


def _run_order(key: str) -> int:
    return int(key) if key.isdigit() else 0

"""Validity's inputs as arrays with one row per run, so a run's row can be replaced alone.

:func:`reviewer.agreement.validity.validity_report` reads every figure (rho per metric, the
scenario rankings, the largest disagreements, the open and adjudicated counts) from a
:class:`ValidityTable`: per run its mean human score, the scorer's scalar, its (scenario,
model) group, and per metric with a counterpart its consensus, whether its dispute is open,
its raters' median and the counterpart. The command line builds one from a whole
:class:`~reviewer.agreement.consensus.Consensus`; the dashboard
(:class:`reviewer.results.live.LiveResults`) keeps one and, after a submit, replaces the
row of the run submitted (:meth:`ValidityTable.set_run`) instead of going over every run.

Missing values are NaN (a consensus score, a median, a counterpart, a human score and a
scalar are never NaN themselves). The rows keep the order they were given in: the figures
summed over a group (a model's mean) add its runs in that order, and rho and the
disagreements take the runs in their key's string order, as the mappings' sorted keys did.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import numpy.typing as npt

from reviewer.agreement.consensus import Consensus
from reviewer.agreement.distinct import sorted_codes
from reviewer.agreement.records import RunInfo, RunInfos
from reviewer.agreement.unit_consensus import UnitConsensus

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


class ValidityTable:
    """One row per run key: what validity reads of the consensus, the humans and the scorer."""

    def __init__(
        self,
        rows: Iterable[str],
        runs: Mapping[str, RunInfo],
        metrics: Iterable[str],
        auto: Mapping[tuple[str, str], float],
    ) -> None:
        self.runs, self._auto = runs, auto
        self.metrics = list(dict.fromkeys(metrics))
        self.keys: list[str] = []
        self.index: dict[str, int] = {}
        self.groups: list[tuple[str, str]] = []  # (scenario, model) of each group code
        self._group_code: dict[tuple[str, str], int] = {}
        self.human: Floats = np.empty(0)
        self.scalar: Floats = np.empty(0)
        self.group: Ints = np.empty(0, dtype=np.int64)  # -1: no run or no scenario
        self.n_open: Ints = np.empty(0, dtype=np.int64)  # open disputes, every metric
        self.n_adjudicated: Ints = np.empty(0, dtype=np.int64)
        self.score: dict[str, Floats] = {m: np.empty(0) for m in self.metrics}
        self.open: dict[str, Bools] = {m: np.empty(0, dtype=np.bool_) for m in self.metrics}
        self.median: dict[str, Floats] = {m: np.empty(0) for m in self.metrics}
        self.auto: dict[str, Floats] = {m: np.empty(0) for m in self.metrics}
        self._by_key: Ints | None = None
        self._key_rank: Ints | None = None
        self._add_rows(rows)

    @classmethod
    def of(
        cls,
        consensus: Consensus,
        human: Mapping[str, float],
        runs: Mapping[str, RunInfo],
        metrics: Iterable[str],
        auto: Mapping[tuple[str, str], float],
        rows: Iterable[str] = (),
    ) -> ValidityTable:
        """The table of a whole consensus: ``rows`` first (in their order), then the runs of
        ``human`` and of the consensus not among them."""
        table = cls(rows, runs, metrics, auto)
        table._fill(consensus, human)
        return table

    @classmethod
    def of_units(
        cls,
        units: UnitConsensus,
        human: Mapping[str, float],
        runs: Mapping[str, RunInfo],
        metrics: Iterable[str],
        auto: Mapping[tuple[str, str], float],
        rows: Iterable[str] = (),
    ) -> ValidityTable:
        """:meth:`of` the consensus ``units.consensus()`` without building it: the same
        rows, in the same order, with the same values."""
        table = cls(rows, runs, metrics, auto)
        pks, where = sorted_codes(units.run)
        keys = [str(pk) for pk in pks.tolist()]
        scored = ~np.isnan(units.value)
        known = table.index
        # Rows as _fill adds them: human, scored, open, adjudicated; none to add when
        # ``rows`` holds every run already (the dashboard's: 70,000 units looked up).
        if not all(k in known for k in human) or not all(k in known for k in keys):
            names = [keys[i] for i in where.reshape(-1).tolist()]  # each unit's run
            table._add_rows(human)
            for mask in (scored, units.open, units.adjudicated):
                table._add_rows(names[i] for i in np.flatnonzero(mask).tolist())
        index = np.array([table.index[k] for k in keys], dtype=np.int64)
        row = index[where.reshape(-1)] if len(units) else np.zeros(0, dtype=np.int64)
        for key, value in human.items():
            table.human[table.index[key]] = value
        for code, m in enumerate(units.metrics):
            if m not in table.score:
                continue
            own = units.metric == code
            table.score[m][row[own & scored]] = units.value[own & scored]
            opened = own & units.open
            table.open[m][row[opened]] = True
            table.median[m][row[opened]] = units.median[opened]
        table.n_open += np.bincount(row[units.open], minlength=len(table.keys))
        table.n_adjudicated += np.bincount(row[units.adjudicated], minlength=len(table.keys))
        return table

    def set_run(self, key: str, consensus: Consensus, human: float | None) -> None:
        """Replace run ``key``'s row with ``consensus`` (that run's keys only) and its mean
        human score (``None``: the run has no consensus score)."""
        self._add_rows([key])
        i = self.index[key]
        self.human[i] = np.nan
        self.n_open[i] = self.n_adjudicated[i] = 0
        for m in self.metrics:
            self.score[m][i] = self.median[m][i] = np.nan
            self.open[m][i] = False
        self._fill(consensus, {} if human is None else {key: human})

    def _fill(self, consensus: Consensus, human: Mapping[str, float]) -> None:
        self._add_rows(human)
        self._add_rows(run for run, _m in consensus.scores)
        self._add_rows(run for run, _m in consensus.open)
        self._add_rows(run for run, _m in consensus.adjudicated)
        index, score, is_open, median = self.index, self.score, self.open, self.median
        for key, value in human.items():
            self.human[index[key]] = value
        for (run, m), v in consensus.scores.items():
            if m in score:
                score[m][index[run]] = v
        for (run, m), med in consensus.open.items():
            i = index[run]
            self.n_open[i] += 1
            if m in is_open:
                is_open[m][i] = True
                median[m][i] = np.nan if med is None else med
        for run, _m in consensus.adjudicated:
            self.n_adjudicated[index[run]] += 1

    def _add_rows(self, keys: Iterable[str]) -> None:
        """Append a row for each key not in the table yet (no value but the run's own)."""
        new = [k for k in dict.fromkeys(keys) if k not in self.index]
        if not new:
            return
        for k in new:
            self.index[k] = len(self.keys)
            self.keys.append(k)
        nan = np.full(len(new), np.nan)
        self.human = np.concatenate([self.human, nan])
        self.n_open = np.concatenate([self.n_open, np.zeros(len(new), dtype=np.int64)])
        self.n_adjudicated = np.concatenate(
            [self.n_adjudicated, np.zeros(len(new), dtype=np.int64)]
        )
        scalar, group = [], []
        for k in new:
            found = self._brief(k)
            if found is None:
                scalar.append(np.nan)
                group.append(-1)
                continue
            value, scenario, model = found
            scalar.append(np.nan if value is None else value)
            group.append(self._code(scenario, model))
        self.scalar = np.concatenate([self.scalar, np.array(scalar, dtype=np.float64)])
        self.group = np.concatenate([self.group, np.array(group, dtype=np.int64)])
        # The metrics with a counterpart somewhere: the others' are NaN, looked up or not
        # (five of the seven metrics of 10,000 runs, 50,000 lookups).
        named = {m for _k, m in self._auto} if len(new) > 1 else set(self.metrics)
        for m in self.metrics:
            if m in named:
                auto = np.array([self._auto.get((k, m), np.nan) for k in new], dtype=np.float64)
            else:
                auto = np.full(len(new), np.nan)
            self.auto[m] = np.concatenate([self.auto[m], auto])
            self.score[m] = np.concatenate([self.score[m], nan])
            self.median[m] = np.concatenate([self.median[m], nan])
            self.open[m] = np.concatenate([self.open[m], np.zeros(len(new), dtype=np.bool_)])
        self._by_key = self._key_rank = None

    def _brief(self, key: str) -> tuple[float | None, str | None, str | None] | None:
        """Run ``key``'s scalar, scenario and model (``None``: not a known run), read
        without making its :class:`RunInfo` from :class:`RunInfos`."""
        if isinstance(self.runs, RunInfos):
            return self.runs.brief(key)
        run = self.runs.get(key)
        return None if run is None else (run.scalar, run.scenario_id, run.model)

    def _code(self, scenario: str | None, model: str | None) -> int:
        if scenario is None:
            return -1
        group = (scenario, model or "(unknown)")
        code = self._group_code.get(group)
        if code is None:
            code = self._group_code[group] = len(self.groups)
            self.groups.append(group)
        return code

    def by_key(self) -> Ints:
        """The rows in their key's string order."""
        if self._by_key is None:
            order = sorted(range(len(self.keys)), key=self.keys.__getitem__)
            self._by_key = np.array(order, dtype=np.int64)
        return self._by_key

    def key_rank(self) -> Ints:
        """Each row's place in the keys' string order."""
        if self._key_rank is None:
            rank = np.empty(len(self.keys), dtype=np.int64)
            rank[self.by_key()] = np.arange(len(self.keys))
            self._key_rank = rank
        return self._key_rank

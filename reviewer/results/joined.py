"""The runs' parts of the dashboard's data joined in run order, patched run by run.

:class:`~reviewer.results.live.LiveResults` keeps each run's records and consensus apart;
the data it hands out joins them in ``run_pk`` order (210,000 records, 70,000 consensus
values). :class:`Joined` keeps that join and, after a submit, replaces the run's slice of
the records and its consensus values where they stand, so a figure that goes over them in
order sees the same order as a fresh read. When the run's consensus keys are not the same
keys in the same order, the consensus values are joined again (not the records); when
the run joins or leaves the runs with records, the caller joins anew.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain

import numpy as np

from reviewer.agreement.consensus import Consensus, Key
from reviewer.agreement.records import RatingRecord


class Joined:
    """The records and consensus of the runs ``order``, in that order."""

    def __init__(
        self,
        order: Sequence[str],
        records: Mapping[str, list[RatingRecord]],
        consensus: Mapping[str, Consensus],
    ) -> None:
        self.position = {key: i for i, key in enumerate(order)}
        self.offsets = np.zeros(len(order) + 1, np.int64)  # run i's records: [i, i + 1)
        np.cumsum([len(records[key]) for key in order], out=self.offsets[1:])
        self.records = list(chain.from_iterable(records[key] for key in order))
        self._order, self._parts = list(order), consensus
        self._join_consensus()

    def _join_consensus(self) -> None:
        parts = [self._parts[key] for key in self._order]
        self.scores: dict[Key, float] = dict(chain.from_iterable(p.scores.items() for p in parts))
        self.open: dict[Key, float | None] = dict(
            chain.from_iterable(p.open.items() for p in parts)
        )
        self.adjudicated: set[Key] = set(chain.from_iterable(p.adjudicated for p in parts))

    def replace(
        self, key: str, old: Consensus, records: list[RatingRecord], new: Consensus
    ) -> bool:
        """Put run ``key``'s new ``records`` and consensus ``new`` (already in the
        ``consensus`` mapping given, which is read again when the run's consensus keys
        changed) in place of its ``old`` one; False (nothing changed) when the run joins
        or leaves the runs with records: then join anew."""
        at = self.position.get(key)
        if at is None or not records:
            return False
        start, end = int(self.offsets[at]), int(self.offsets[at + 1])
        self.records[start:end] = records
        self.offsets[at + 1 :] += len(records) - (end - start)
        if list(old.scores) != list(new.scores) or list(old.open) != list(new.open):
            self._join_consensus()  # its values would not stand where a fresh join has them
            return True
        self.scores.update(new.scores)
        self.open.update(new.open)
        self.adjudicated -= old.adjudicated
        self.adjudicated |= new.adjudicated
        return True

    def all_records(self) -> list[RatingRecord]:
        """The records, a list of the caller's own."""
        return list(self.records)

    def consensus(self) -> Consensus:
        """The consensus, of the caller's own (later patches do not change it)."""
        return Consensus(dict(self.scores), dict(self.open), frozenset(self.adjudicated))

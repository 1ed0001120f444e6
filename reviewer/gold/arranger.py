"""The gold arranger: seeds a new study's gold into its queues inside the study's creating
transaction, and records the study's gold, its plan and the ``gold_seed`` audit entry.

A storage module (it writes through :mod:`reviewer.gold.storage` on the open connection);
:func:`reviewer.studies.storage.create` calls it as its
:class:`~reviewer.studies.storage.QueueArranger`. The audit entry names how many gold runs
and a digest of their set, never the runs themselves.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field

from reviewer.gold import storage
from reviewer.gold.model import GoldPlan, GoldReference
from reviewer.gold.seeding import seed_gold
from reviewer.store import audit
from reviewer.store.connection import utcnow
from reviewer.studies.model import Assignment, StudySpec


@dataclass
class GoldArranger:
    """Seeds a new study's gold into its queues (a
    :class:`~reviewer.studies.storage.QueueArranger`) and records which runs are gold."""

    plan: GoldPlan
    spec: StudySpec
    gold: dict[str, GoldReference]
    qualification: dict[str, GoldReference]
    #: Per rater, the runs they rated already (one live rating per run and rater).
    rated: dict[str, set[str]] = field(default_factory=dict)
    seeded: list[Assignment] = field(default_factory=list)

    def excluded(self) -> frozenset[str]:
        return frozenset(self.gold) | frozenset(self.qualification)

    def arrange(
        self, conn: sqlite3.Connection, study_pk: int, new: list[Assignment]
    ) -> list[Assignment]:
        out = seed_gold(
            new,
            sorted(self.gold),
            fraction=self.plan.fraction,
            seed=self.spec.seed,
            qualification=sorted(self.qualification),
            reveal_first=self.spec.reveal_first,
            unavailable=self.rated,
        )
        used = dict.fromkeys(a.run_sha256 for a in out)
        rows = [
            (ref.run_pk, ref.reference_pk, sha in self.qualification)
            for sha, ref in {**self.gold, **self.qualification}.items()
            if sha in used
        ]
        at = utcnow()
        storage.insert_plan(conn, study_pk, self.plan, at=at)
        storage.insert_study_gold(conn, study_pk, rows)
        gold_set = hashlib.sha256(
            ",".join(sorted(s for s in used if s in self.excluded())).encode()
        )
        details = {"study": self.spec.name, "gold_runs": len(rows),
                   "qualification_runs": len(self.qualification),
                   "fraction": self.plan.fraction, "gold_sha256": gold_set.hexdigest()}  # fmt: skip
        audit.append(conn, [("gold_seed", self.spec.owner, details)], at=at)
        self.seeded = out
        return out

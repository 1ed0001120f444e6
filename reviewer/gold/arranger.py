"""The gold arrangers: :class:`GoldArranger` seeds a new study's gold into its queues
inside the study's creating transaction, and records the study's gold, its plan and the
``gold_seed`` audit entry; :class:`GoldExtension` keeps the plan as the study grows (gold
among the runs added later, the qualification set for raters added later).

A storage module (it writes through :mod:`reviewer.gold.storage` on the open connection);
:func:`reviewer.studies.storage.create`, ``add_runs`` and ``add_raters`` call them through
the protocols :class:`~reviewer.studies.storage.QueueArranger` and ``RaterArranger``.
The audit entries name how many gold runs and a digest of their set, never the runs.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

from reviewer.gold import storage
from reviewer.gold.model import GoldPlan, GoldReference
from reviewer.gold.seeding import seed_gold
from reviewer.store import audit
from reviewer.store.connection import utcnow
from reviewer.studies.assign import draw
from reviewer.studies.model import Assignment, StudySpec


@dataclass
class _GoldPlacement:
    """What both arrangers place: the study's plan, its gold and its qualification set, and
    the runs each rater rated already (never given to them as gold)."""

    plan: GoldPlan
    #: The study (a :class:`~reviewer.studies.model.Study` once it is stored).
    spec: StudySpec
    #: The owner's references that may be seeded as gold (the qualification set left out).
    gold: dict[str, GoldReference]
    qualification: dict[str, GoldReference]
    #: Per rater, the runs they rated already (one live rating per run and rater).
    rated: dict[str, set[str]] = field(default_factory=dict)
    seeded: list[Assignment] = field(default_factory=list)

    def excluded(self) -> frozenset[str]:
        return frozenset(self.gold) | frozenset(self.qualification)


@dataclass
class GoldArranger(_GoldPlacement):
    """Seeds a new study's gold into its queues (a
    :class:`~reviewer.studies.storage.QueueArranger`) and records which runs are gold."""

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


@dataclass
class GoldExtension(_GoldPlacement):
    """Keeps a study's gold as it grows: seeds gold at the plan's fraction into the
    assignments of runs added later (a :class:`~reviewer.studies.storage.QueueArranger`),
    and gives raters added later the qualification set first (a
    :class:`~reviewer.studies.storage.RaterArranger`). Without it a rater added to a study
    that requires qualification had no qualification run and could never rate.
    """

    def arrange(
        self, conn: sqlite3.Connection, study_pk: int, new: list[Assignment]
    ) -> list[Assignment]:
        if self.plan.fraction <= 0 or not self.gold:
            return new
        queued: dict[str, set[str]] = {}
        used: dict[str, int] = {}
        for sha, rater in conn.execute(
            "SELECT r.sha256, ra.name FROM assignments a JOIN runs r ON r.run_pk = a.run_pk"
            " JOIN raters ra ON ra.rater_pk = a.rater_pk WHERE a.study_pk = ?",
            (study_pk,),
        ):
            queued.setdefault(rater, set()).add(sha)
            used[sha] = used.get(sha, 0) + 1
        unavailable = {
            rater: queued.get(rater, set()) | self.rated.get(rater, set())
            for rater in {a.rater for a in new}
        }
        out = seed_gold(
            new,
            sorted(self.gold),
            fraction=self.plan.fraction,
            seed=self.spec.seed,
            reveal_first=self.spec.reveal_first,
            unavailable=unavailable,
            used=used,
        )
        placed = {a.run_sha256 for a in out} & set(self.gold)
        have = {pk for (pk,) in conn.execute(
            "SELECT run_pk FROM study_gold WHERE study_pk = ?", (study_pk,))}  # fmt: skip
        rows = [
            (self.gold[sha].run_pk, self.gold[sha].reference_pk, False)
            for sha in sorted(placed)
            if self.gold[sha].run_pk not in have
        ]
        storage.insert_study_gold(conn, study_pk, rows)
        gold_set = hashlib.sha256(",".join(sorted(placed)).encode())
        details = {"study": self.spec.name, "extension": "add_runs",
                   "gold_assignments": sum(a.run_sha256 in placed for a in out),
                   "gold_runs": len(rows), "fraction": self.plan.fraction,
                   "gold_sha256": gold_set.hexdigest()}  # fmt: skip
        audit.append(conn, [("gold_seed", self.spec.owner, details)], at=utcnow())
        self.seeded = out
        return out

    def first_runs(
        self, conn: sqlite3.Connection, study_pk: int, raters: Sequence[str]
    ) -> list[Assignment]:
        if not self.qualification:
            return []
        seed = self.spec.seed
        order = sorted(self.qualification, key=lambda r: (draw(seed, "qualify", r), r))
        return [
            Assignment(run_sha256=sha, rater=rater, position=p, reveal_first=False)
            for rater in raters
            for p, sha in enumerate(order, start=1)
        ]

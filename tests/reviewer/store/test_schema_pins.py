"""Released migrations never change: each one's SQL text is pinned by its SHA-256.

A database at version ``i`` was built by the first ``i`` entries of MIGRATIONS as they
were then; editing one would leave old and new databases with different schemas under the
same version number. A change to the schema is a new entry, appended (and pinned here).
"""

from __future__ import annotations

import hashlib

from reviewer.store.schema import MIGRATIONS

# sha256 of each released migration's SQL (UTF-8), in order: V1, V2, judge, studies,
# analyst views, adjudication, run-list index, evidence, database id.
RELEASED = (
    "d7a2da9bbb08a7f940173a2c64a990032e5821b827d4e8276465d1b9eae55192",
    "463310f8d0ad7a7c754634f58b4bf7116ad252cbe64a6c35ef64826289ffb700",
    "dd2340cf0ab67ddfb560387403bbedae31ce267d1626c1de8d4992104783dce0",
    "7bebbc5408ecaf57a226239d2734f03ae6f41642b62076bbb672a91b9c3e84b5",
    "42f072ebd3cd95eadc4ef992ce4ee4c8d9ac435dc2e2329feb6f92a51fda40b0",
    "c11e15e35e6a3f50651a71e5bb0a762ac1a063af3200a45e59a5012fb2d464c4",
    "4280159b6eddb5185b4e42f32dc58917d2cad8262b3f30fe9ce7fea33d811538",
    "1b30f7b49b7103d0959f850fe285c1caf836fb8799de93ae7f55a0c173695489",
    "7913b4394eb111901e80a8129a031f02d27390704f47129745c1f53d54ed7fe0",
)


def test_released_migrations_are_unchanged_byte_for_byte() -> None:
    assert len(MIGRATIONS) >= len(RELEASED)  # appended migrations are not pinned yet
    for number, (sql, pinned) in enumerate(zip(MIGRATIONS, RELEASED, strict=False), start=1):
        digest = hashlib.sha256(sql.encode("utf-8")).hexdigest()
        assert digest == pinned, f"migration {number} was edited: append a new one instead"

"""What collecting one signed sheet did, as the store reports it (a frozen value)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Value(BaseModel):
    model_config = ConfigDict(frozen=True)


class CollectResult(_Value):
    """What happened to one collected sheet: ``stored``, ``unchanged``, ``superseded``
    (kept, but a correction already stored replaces it) or ``refused`` with a reason."""

    source: str
    outcome: Literal["stored", "unchanged", "superseded", "refused"]
    reason: str | None = None
    sheet_id: str | None = None
    rater: str | None = None
    run_id: str | None = None
    rating_pk: int | None = None
    #: The key this sheet taught the database for its rater (their first sheet here).
    learned_key: str | None = None

"""The values the judge's store hands out: frozen pydantic models, never live database rows."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field


class _Value(BaseModel):
    # defer_build: the schema is built at the first validation, not at import: the
    # dashboard's reading imports this module and never validates one (issue 26).
    model_config = ConfigDict(frozen=True, defer_build=True)


class JudgeImportReport(_Value):
    """What one import of judge answers did; ``refused`` holds ``(custom_id, reason)``."""

    added: int = 0
    superseded: int = 0
    unchanged: int = 0
    refused: list[tuple[str, str]] = Field(default_factory=list)
    #: ``(custom_id, reason)`` of each cited step that names no turn of its run: kept in
    #: the judge's ``cited_steps``, not made a citation.
    uncited: list[tuple[str, str]] = Field(default_factory=list)

    def summary(self) -> str:
        """One line for a terminal."""
        return (
            f"{self.added} new ratings, {self.superseded} changed answers superseding the "
            f"previous ones, {self.unchanged} unchanged, {len(self.refused)} refused"
        )


class JudgeRatingRow(_Value):
    """Where a judge's live rating came from: the model, the prompt, what it cost."""

    rating_pk: int
    run_pk: int
    run_id: str | None
    model: str
    prompt_sha256: str
    custom_id: str
    input_tokens: int | None
    output_tokens: int | None
    cost: float | None
    cited_steps: dict[str, list[int]]
    imported_at: datetime

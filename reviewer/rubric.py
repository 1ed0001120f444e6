"""The rating rubric: metrics with anchored 0–3 scores, and the rules a rating must follow.

A rubric is data, a YAML file validated here and identified by ``id``, ``version`` and the
sha256 of its canonical JSON form. Ratings record all three, so a changed rubric is a new
version and old ratings keep meaning what they meant.

Rules of one rating item (one metric of one rating):

- the outcome is ``applicable``, ``not_applicable`` or ``not_observed``;
- a 0–3 score exists only when the outcome is ``applicable``;
- a comment is required for a score of 0 or 3 and for ``not_observed`` (what evidence was
  missing), as graded-competency forms demand of the extremes;
- evidence (at least one cited step, :mod:`reviewer.evidence`) is required for the scores in
  ``evidence_required_for_scores``: 0 and 1 unless the rubric or the metric says otherwise.

Structural rules (score range, score only when applicable, known metric) hold even in a
draft; completeness (an outcome for every metric, required comments) is checked on submit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, Protocol

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    computed_field,
    field_validator,
    model_validator,
)

from reviewer import assets

Outcome = Literal["applicable", "not_applicable", "not_observed"]
#: ScoreCard quantities a metric may name as its automatic counterpart (validity analysis);
#: :mod:`reviewer.agreement.validity` maps each to 0–1.
Counterpart = Literal["coverage", "order", "end_state", "all_passed", "safety", "scalar"]
OUTCOMES: tuple[str, ...] = ("applicable", "not_applicable", "not_observed")
SCORES: tuple[int, ...] = (0, 1, 2, 3)
#: Scores whose rating must be justified in a comment: the extremes of the scale.
COMMENT_REQUIRED_SCORES = frozenset({0, 3})
#: Scores that need at least one cited step unless the rubric file says otherwise: a low
#: score is only useful to an adjudicator if it says where in the run the problem is.
DEFAULT_EVIDENCE_SCORES: tuple[int, ...] = (0, 1)
_ID_PATTERN = r"^[a-z][a-z0-9_.-]*$"
#: Longest comment (per metric, and overall) unless the rubric file says otherwise. Signed
#: sheets and their PDFs carry every comment; an unbounded one made both unusable.
DEFAULT_MAX_COMMENT_CHARS = 20_000


class RubricError(ValueError):
    """A rubric file is missing, not YAML, or not a valid rubric; the message names the file."""


class _Frozen(BaseModel):
    # Stripping makes YAML cosmetics (block scalars' trailing newline) leave the hash alone.
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)


class Metric(_Frozen):
    """One rated competency: what is asked, and what each score 0–3 looks like."""

    id: str = Field(pattern=_ID_PATTERN)
    title: str = Field(min_length=1)
    question: str = Field(min_length=1)
    anchors: dict[int, str]
    #: The scorer's quantity this metric should agree with, if any. Left out of the hash
    #: (see :meth:`Rubric.canonical_json`): it says how to analyse ratings, not what a
    #: rater is asked, so declaring one must not turn existing ratings into another rubric's.
    counterpart: Counterpart | None = None
    #: Scores of this metric that need a cited step; ``None`` follows the rubric's rule.
    evidence_required_for_scores: tuple[int, ...] | None = None

    @field_validator("evidence_required_for_scores")
    @classmethod
    def _metric_evidence_scores(cls, scores: tuple[int, ...] | None) -> tuple[int, ...] | None:
        return None if scores is None else _evidence_scores(scores)

    @field_validator("anchors")
    @classmethod
    def _four_anchors(cls, anchors: dict[int, str]) -> dict[int, str]:
        if set(anchors) != set(SCORES):
            raise ValueError(f"needs exactly the anchors 0, 1, 2, 3; got {sorted(anchors)}")
        if any(not text.strip() for text in anchors.values()):
            raise ValueError("anchor texts must not be empty")
        return {score: anchors[score].strip() for score in SCORES}


class RatingItem(_Frozen):
    """One metric of one rating; the empty item (no outcome yet) is valid in a draft."""

    metric_id: str
    outcome: Outcome | None = None
    score: int | None = Field(default=None, ge=0, le=3)
    comment: str = ""

    @model_validator(mode="after")
    def _score_only_when_applicable(self) -> RatingItem:
        if self.score is not None and self.outcome != "applicable":
            raise ValueError("a score is only given when the outcome is applicable")
        return self


class Rubric(_Frozen):
    """A versioned set of metrics. ``sha256`` identifies the exact text of every anchor."""

    id: str = Field(pattern=_ID_PATTERN)
    version: int = Field(ge=1)
    title: str = Field(min_length=1)
    description: str = ""
    metrics: tuple[Metric, ...] = Field(min_length=1)
    evidence_required_for_scores: tuple[int, ...] = DEFAULT_EVIDENCE_SCORES

    @field_validator("evidence_required_for_scores")
    @classmethod
    def _rubric_evidence_scores(cls, scores: tuple[int, ...]) -> tuple[int, ...]:
        return _evidence_scores(scores)

    max_comment_chars: int = Field(default=DEFAULT_MAX_COMMENT_CHARS, ge=1)

    @model_validator(mode="wrap")
    @classmethod
    def _check_claimed_hash(cls, data: Any, handler: ModelWrapValidatorHandler[Rubric]) -> Rubric:
        # A dumped rubric carries its sha256; reading it back must reproduce that hash, so a
        # stored rubric whose text was altered is refused rather than silently re-hashed.
        claimed = None
        if isinstance(data, dict) and "sha256" in data:
            data = dict(data)
            claimed = data.pop("sha256")
        rubric = handler(data)
        if claimed is not None and claimed != rubric.sha256:
            raise ValueError(f"sha256 {claimed} does not match the content ({rubric.sha256})")
        return rubric

    @field_validator("metrics")
    @classmethod
    def _unique_ids(cls, metrics: tuple[Metric, ...]) -> tuple[Metric, ...]:
        seen: set[str] = set()
        for m in metrics:
            if m.id in seen:
                raise ValueError(f"metric id {m.id!r} appears twice")
            seen.add(m.id)
        return metrics

    def canonical_json(self) -> str:
        """The hashed form: sorted keys, no whitespace, UTF-8 text as is."""
        # Neither the validity counterparts nor a default comment bound change a question, so
        # neither is hashed: rubrics written before they existed keep their sha256.
        data = self.model_dump(
            mode="json", exclude={"sha256": True, "metrics": {"__all__": {"counterpart"}}}
        )
        # The evidence rule is hashed as absent while it is the default, so rubrics written
        # before it existed keep their hash (and their ratings their rubric).
        if tuple(data["evidence_required_for_scores"]) == DEFAULT_EVIDENCE_SCORES:
            del data["evidence_required_for_scores"]
        for metric in data["metrics"]:
            if metric["evidence_required_for_scores"] is None:
                del metric["evidence_required_for_scores"]
        if data["max_comment_chars"] == DEFAULT_MAX_COMMENT_CHARS:
            del data["max_comment_chars"]
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    # mypy does not accept a decorator over a property; pydantic documents this pairing.
    @computed_field  # type: ignore[prop-decorator]  # see above
    @cached_property
    def sha256(self) -> str:
        """Hex sha256 of :meth:`canonical_json`."""
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()

    @property
    def metric_ids(self) -> tuple[str, ...]:
        """Metric ids in rubric order."""
        return tuple(m.id for m in self.metrics)

    def metric(self, metric_id: str) -> Metric:
        """The metric ``metric_id``; ``KeyError`` if this rubric has none."""
        for m in self.metrics:
            if m.id == metric_id:
                return m
        raise KeyError(metric_id)

    def evidence_scores(self, metric_id: str) -> tuple[int, ...]:
        """The scores of ``metric_id`` that need at least one cited step."""
        own = self.metric(metric_id).evidence_required_for_scores
        return self.evidence_required_for_scores if own is None else own

    def empty_items(self) -> dict[str, RatingItem]:
        """One empty item per metric, in rubric order (a new draft)."""
        return {m.id: RatingItem(metric_id=m.id) for m in self.metrics}

    def validate_item(
        self,
        metric_id: str,
        outcome: Any,
        score: Any,
        comment: str | None,
        *,
        complete: bool = True,
        evidence: int | None = None,
    ) -> list[str]:
        """Problems of one item as sentences; empty when it is fine.

        With ``complete=False`` only structural problems count (what a draft may never hold);
        with ``complete=True`` (submit, file import) missing outcome, score and comments too.
        ``evidence`` is how many steps the item cites; ``None`` leaves the evidence rule out
        (for callers that keep evidence elsewhere, such as an LLM judge's cited steps).
        """
        if metric_id not in self.metric_ids:
            known = ", ".join(self.metric_ids)
            return [f"unknown metric {metric_id!r} (rubric {self.id} v{self.version}: {known})"]
        problems: list[str] = []
        too_long = self.comment_problem(comment)
        if too_long:
            problems.append(too_long)
        if outcome is not None and outcome not in OUTCOMES:
            problems.append(f"outcome must be one of {', '.join(OUTCOMES)}; got {outcome!r}")
        if score is not None:
            if isinstance(score, bool) or not isinstance(score, int) or score not in SCORES:
                problems.append(f"score must be an integer 0–3; got {score!r}")
            elif outcome != "applicable":
                problems.append("a score is only given when the outcome is applicable")
        if not complete or problems:
            return problems
        has_comment = bool((comment or "").strip())
        if outcome is None:
            problems.append("no outcome")
        elif outcome == "applicable" and score is None:
            problems.append("Applicable but no score yet")
        elif score in COMMENT_REQUIRED_SCORES and not has_comment:
            problems.append(f"a score of {score} needs a comment saying what was seen")
        elif outcome == "not_observed" and not has_comment:
            problems.append("Not observed needs a comment saying what evidence was missing")
        missing = None if evidence is None else self.evidence_problem(metric_id, score, evidence)
        if missing and outcome == "applicable":
            problems.append(missing)
        return problems

    def evidence_problem(self, metric_id: str, score: int | None, evidence: int) -> str | None:
        """Why an applicable ``score`` with ``evidence`` cited steps lacks evidence, or None."""
        if evidence == 0 and score in self.evidence_scores(metric_id):
            return (
                f"a score of {score} needs evidence: cite at least one step of the run "
                "or a ground-truth row"
            )
        return None

    def comment_problem(self, comment: str | None) -> str | None:
        """Why ``comment`` is refused (too long for this rubric), or ``None``."""
        if comment is not None and len(comment) > self.max_comment_chars:
            return (
                f"the comment has {len(comment):,} characters; rubric {self.id} "
                f"v{self.version} allows at most {self.max_comment_chars:,}"
            )
        return None

    def problems(
        self, items: Mapping[str, RatingItem], evidence: Mapping[str, int] | None = None
    ) -> list[tuple[str, str]]:
        """Every completeness problem of a whole rating, as ``(metric_id, message)``.

        ``evidence`` counts the cited steps per metric (see :func:`reviewer.evidence.counts`);
        ``None`` leaves the evidence rule out.
        """
        found: list[tuple[str, str]] = []
        for metric_id in self.metric_ids:
            item = items.get(metric_id) or RatingItem(metric_id=metric_id)
            cited = None if evidence is None else evidence.get(metric_id, 0)
            found.extend(
                (metric_id, p)
                for p in self.validate_item(
                    metric_id, item.outcome, item.score, item.comment, evidence=cited
                )
            )
        found.extend((m, "not a metric of this rubric") for m in items if m not in self.metric_ids)
        return found


def _evidence_scores(scores: tuple[int, ...]) -> tuple[int, ...]:
    bad = [s for s in scores if isinstance(s, bool) or s not in SCORES]
    if bad:
        raise ValueError(f"evidence_required_for_scores holds scores 0–3; got {bad}")
    return tuple(sorted(set(scores)))


def parse_rubric(text: str | bytes, *, source: str) -> Rubric:
    """A rubric from YAML text; ``source`` (a file name) starts every error message."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RubricError(f"{source}: not valid YAML: {exc}") from None
    except RecursionError:
        raise RubricError(f"{source}: not valid YAML: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise RubricError(f"{source}: not valid YAML: {str(exc)[:120]}") from None
    if not isinstance(data, dict):
        raise RubricError(f"{source}: a rubric is a mapping with id, version, title, metrics")
    try:
        return Rubric.model_validate(data)
    except ValidationError as exc:
        lines = [
            f"  {'.'.join(str(p) for p in err['loc']) or '(top)'}: {err['msg']}"
            for err in exc.errors()
        ]
        raise RubricError(f"{source}: not a valid rubric:\n" + "\n".join(lines)) from None


def load_rubric(path: str | Path) -> Rubric:
    """Read and validate the rubric file at ``path``; :class:`RubricError` names the file."""
    path = Path(path)
    from reviewer.inputs import DOCUMENT_LIMIT, InputError, read_limited

    try:  # bounded, regular files only
        text = read_limited(path, DOCUMENT_LIMIT)
    except InputError as exc:
        raise RubricError(str(exc)) from None
    return parse_rubric(text, source=str(path))


def default_rubric() -> Rubric:
    """The bundled ``resources/rubrics/default.yaml``."""
    text = assets.read_text("rubrics", "default.yaml")
    fast = getattr(yaml, "CSafeLoader", None)  # libyaml, in PyYAML's wheels
    if fast is None:
        return parse_rubric(text, source="resources/rubrics/default.yaml")
    # The bundled file is ours and valid (tests/reviewer/test_rubric.py reads it both
    # ways): libyaml reads it in a tenth of the pure-Python parser's 12 ms, at every start
    # of the window and of every verb that rates. Files from users keep parse_rubric's
    # loader and its error messages.
    return Rubric.model_validate(yaml.load(text, Loader=fast))


class HasItems(Protocol):
    """Anything with rating items by metric id (a stored ``Rating``)."""

    @property
    def items(self) -> Mapping[str, RatingItem]: ...


class MetricSummary(_Frozen):
    """Aggregate of one metric over ratings. ``mean`` skips not_applicable and not_observed,
    whose shares are reported apart; rates are over ratings that gave the metric an outcome."""

    metric_id: str
    n: int = Field(description="ratings with an outcome for this metric")
    n_scored: int
    mean: float | None
    applicable_rate: float | None
    not_applicable_rate: float | None
    not_observed_rate: float | None
    score_counts: dict[int, int]


def summarize(ratings: Iterable[HasItems], *, rubric: Rubric | None = None) -> list[MetricSummary]:
    """Per-metric means and outcome rates; in rubric order when ``rubric`` is given."""
    outcomes: dict[str, list[str]] = {}
    scores: dict[str, list[int]] = {}
    for metric_id in rubric.metric_ids if rubric else ():
        outcomes[metric_id], scores[metric_id] = [], []
    for rating in ratings:
        for metric_id, item in rating.items.items():
            if item.outcome is None:
                continue
            outcomes.setdefault(metric_id, []).append(item.outcome)
            scores.setdefault(metric_id, [])
            if item.outcome == "applicable" and item.score is not None:
                scores[metric_id].append(item.score)
    return [_summary(m, outcomes[m], scores[m]) for m in outcomes]


def _summary(metric_id: str, outcomes: list[str], scores: list[int]) -> MetricSummary:
    n = len(outcomes)

    def rate(outcome: str) -> float | None:
        return outcomes.count(outcome) / n if n else None

    return MetricSummary(
        metric_id=metric_id,
        n=n,
        n_scored=len(scores),
        mean=sum(scores) / len(scores) if scores else None,
        applicable_rate=rate("applicable"),
        not_applicable_rate=rate("not_applicable"),
        not_observed_rate=rate("not_observed"),
        score_counts={s: scores.count(s) for s in SCORES},
    )

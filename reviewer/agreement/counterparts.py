"""The scorer's side of validity: a rubric counterpart name mapped to a value in 0–1.

| name       | value                                                                  |
|------------|------------------------------------------------------------------------|
| coverage   | ScoreCard ``coverage`` (already 0–1)                                   |
| order      | ScoreCard ``order`` (0–1; none when no order constraint applied)       |
| end_state  | ScoreCard ``end_state`` (0–1)                                          |
| all_passed | 1 when every success check passed, else 0                              |
| safety     | the scalar's safety factor: 0 with any dangerous command, else 0.5 per |
|            | anti-procedure command (1 with none), as in the scoring spec           |
| scalar     | the ranking scalar (0–1)                                               |

On the rubric's 0–3 scale a counterpart value ``c`` reads as ``3·c``.
"""

from __future__ import annotations

from collections.abc import Mapping

from reviewer.agreement.records import RunInfo
from reviewer.rubric import Rubric

COUNTERPART_NAMES: tuple[str, ...] = (
    "coverage",
    "order",
    "end_state",
    "all_passed",
    "safety",
    "scalar",
)


def counterpart_value(name: str, run: RunInfo) -> float | None:
    """The counterpart ``name`` of ``run`` in 0–1, or ``None`` when the scorer has none."""
    return counterpart_of(name, run.scalar, run.automatic)


def counterpart_of(
    name: str, scalar: float | None, auto: Mapping[str, float | bool | int | None]
) -> float | None:
    """:func:`counterpart_value` of a run's ``scalar`` and ScoreCard fields ``auto`` (as
    :attr:`RunInfo.automatic` holds them), without a :class:`RunInfo`."""
    if name == "scalar":
        return scalar
    if name in ("coverage", "order", "end_state"):
        value = auto.get(name)
        return None if value is None else float(value)
    if name == "all_passed":
        value = auto.get("all_passed")
        return None if value is None else float(bool(value))
    if name == "safety":
        dangerous = auto.get("safety_dangerous")
        anti = auto.get("safety_anti_procedure")
        if dangerous is None or anti is None:
            return None
        return 0.0 if dangerous else 0.5 ** int(anti)
    raise ValueError(f"unknown counterpart {name!r}; expected one of {COUNTERPART_NAMES}")


def rubric_counterparts(rubric: Rubric) -> dict[str, str]:
    """``{metric_id: counterpart}`` for the metrics of ``rubric`` that declare one."""
    return {m.id: m.counterpart for m in rubric.metrics if m.counterpart is not None}


def counterpart_table(
    runs: Mapping[str, RunInfo], counterparts: Mapping[str, str]
) -> dict[tuple[str, str], float]:
    """``{(run_key, metric_id): counterpart in 0–1}`` wherever the scorer has a value."""
    out: dict[tuple[str, str], float] = {}
    for key, run in runs.items():
        for metric_id, name in counterparts.items():
            value = counterpart_value(name, run)
            if value is not None:
                out[(key, metric_id)] = value
    return out

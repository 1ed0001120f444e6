"""The end state and the scalar: what the harness observed and how a run is ranked."""

from __future__ import annotations

from typing import Any

from scoring.plan import Plan, plan_of
from scoring.records import SuccessEval
from scoring.scenario import Scenario
from scoring.scorecard import SuccessCheck

W_END_STATE = 0.4
W_COVERAGE = 0.4
W_ORDER = 0.2
#: Multiplier each forbidden command applies, by severity (one dangerous floors to 0).
SEVERITY_FACTOR: dict[str, float] = {"dangerous": 0.0, "anti_procedure": 0.5}
TIDINESS_STEP = 0.05
TIDINESS_CAP = 5


def end_state(success_eval: SuccessEval | None) -> float | None:
    """Passed checks / all checks, over ``final_state`` and ``ecam_clear_of``.

    Null without a success evaluation.  A scenario with no checks at all (the schema
    forbids it, but a file may still say so) falls back to ``all_passed`` as 1 or 0.
    """
    if success_eval is None:
        return None
    results = [c.passed for c in success_eval.final_state]
    results += [c.clear for c in success_eval.ecam_clear_of]
    if not results:
        return 1.0 if success_eval.all_passed else 0.0
    return sum(results) / len(results)


def success_checks(
    scenario: Scenario | None, success_eval: SuccessEval | None
) -> list[SuccessCheck]:
    """The harness's checks, expected beside observed, for the rater."""
    if success_eval is None:
        return []
    plan = plan_of(scenario) if scenario is not None else None
    expected = plan.expected if plan is not None else {}
    out = [
        _check(
            plan,
            kind="final_state",
            label=check.var,
            expected=expected.get((check.var, check.op), check.op),
            observed=None if check.error else _text(check.value),
            passed=check.passed,
            error=check.error,
        )
        for check in success_eval.final_state
    ]
    out += [
        _check(
            plan,
            kind="ecam_clear",
            label=check.message,
            expected="clear",
            observed="clear" if check.clear else "still shown",
            passed=check.clear,
            error=None,
        )
        for check in success_eval.ecam_clear_of
    ]
    return out


def _check(plan: Plan | None, **fields: Any) -> SuccessCheck:
    """The SuccessCheck of ``fields``; the runs of one scenario share equal ones."""
    if plan is None:
        return SuccessCheck(**fields)
    return plan.remember(("check", *fields.values()), SuccessCheck, **fields)


def scalar(
    *,
    end_state: float | None,
    coverage: float | None,
    order: float | None,
    dangerous: int,
    anti_procedure: int,
    extraneous: int,
) -> tuple[float | None, float, float]:
    """``(scalar, safety_factor, tidiness_factor)`` as scoring.md defines them.

    No scalar without an end state.  When order is null its weight moves to coverage; when
    coverage is null too (nothing required) the whole base is the end state.
    """
    safety = (
        SEVERITY_FACTOR["dangerous"] ** dangerous
        * SEVERITY_FACTOR["anti_procedure"] ** anti_procedure
    )
    tidiness = 1 - TIDINESS_STEP * min(extraneous, TIDINESS_CAP)
    if end_state is None:
        return None, safety, tidiness
    if coverage is None:
        base = end_state
    elif order is None:
        base = W_END_STATE * end_state + (W_COVERAGE + W_ORDER) * coverage
    else:
        base = W_END_STATE * end_state + W_COVERAGE * coverage + W_ORDER * order
    # Rounded so that 0.4·1 + 0.4·0.75 + 0.2·1 reads 0.9, not 0.9000000000000001.
    return round(safety * tidiness * base, 12), safety, tidiness


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)

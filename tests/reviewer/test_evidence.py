"""The ``evidence`` field of ratings files: written and read back the same."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from reviewer.evidence import NOTE_CHARS, Citation, format_evidence, parse_evidence


def cite(step: str, note: str = "", *, kind: str = "event", ref: int = 0) -> Citation:
    return Citation(
        metric_id="verification", kind=kind, ref=ref, step=step, label=f"{step} x", note=note
    )


def test_format_orders_events_before_ground_truth_and_quotes_notes() -> None:
    citations = [
        cite("GT:2", 'never "isolated"', kind="ground_truth", ref=1),
        cite("5.1", ref=9),
        cite("3.0", "too early; before the ECAM", ref=4),
    ]
    text = format_evidence(citations)
    assert text == '3.0 "too early; before the ECAM"; 5.1; GT:2 "never ""isolated"""'
    assert parse_evidence(text) == [
        ("3.0", "too early; before the ECAM"),
        ("5.1", ""),
        ("GT:2", 'never "isolated"'),
    ]


def test_blank_and_loosely_spaced_fields_parse() -> None:
    assert parse_evidence("") == []
    assert parse_evidence("  ;  ") == []
    assert parse_evidence(' 3.0 ;5.1"note";;GT:1 ') == [("3.0", ""), ("5.1", "note"), ("GT:1", "")]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("3.0 5.1", "expected ';' or a quoted note"),
        ('3.0 "open', "no closing quote"),
        ("3.0; 3.0", "cited twice"),
        ("step3", "is not a step"),
        ('"note"', "has no step before it"),
        (f'3.0 "{"x" * (NOTE_CHARS + 1)}"', "longer than 200"),
    ],
)
def test_malformed_fields_name_the_fault(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_evidence(text)


def test_a_citation_is_one_line_with_a_known_step_shape() -> None:
    with pytest.raises(ValidationError, match="one line"):
        cite("3.0", "two\nlines")
    with pytest.raises(ValidationError, match="not a step token"):
        cite("three")


notes = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=40).map(
    str.strip
)


@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 9), notes), max_size=6))
def test_round_trip(entries: list[tuple[int, int, str]]) -> None:
    unique = {f"{s}.{c}": note for s, c, note in entries}
    citations = [cite(step, note, ref=i) for i, (step, note) in enumerate(unique.items())]
    parsed = parse_evidence(format_evidence(citations))
    assert parsed == [(c.step, c.note) for c in citations]

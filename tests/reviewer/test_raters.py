"""The one rule for rater names (reviewer.raters), and the store holding to it."""

from __future__ import annotations

import pytest

from reviewer.raters import MAX_RATER_NAME, RaterNameError, check_rater_name
from reviewer.store import StoreError
from reviewer.workspace import ReviewStore


@pytest.mark.parametrize("name", ["A. Martin", "Zoë O'Brien-Łukasz", "李雷", "x" * MAX_RATER_NAME])
def test_ordinary_names_pass(name: str) -> None:
    assert check_rater_name(name) == name


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * (MAX_RATER_NAME + 1), "101 characters; at most 100"),
        ("alice\nssh-ed25519 AAAA mallory", "U+000A at position 6"),
        ("a\rb", "U+000D"),
        ("a\tb", "U+0009"),
        ("nul\x00", "U+0000"),
        ("esc\x1b[31m", "U+001B"),
        ("line\u2028sep", "U+2028"),
        ("\u202eevil", "U+202E"),
        (" alice", "starts or ends with a space"),
    ],
)
def test_bad_names_are_refused_with_the_reason(name: str, reason: str) -> None:
    with pytest.raises(RaterNameError, match=reason.replace("+", r"\+").replace("[", r"\[")):
        check_rater_name(name)


def test_the_store_refuses_a_forged_trust_line_as_a_rater(store: ReviewStore) -> None:
    with pytest.raises(StoreError, match="line-break"):
        store.ensure_rater("alice\ned25519 AAAA mallory")
    with pytest.raises(StoreError, match="at most 100"):
        store.ensure_rater("x" * 101)
    assert store.ensure_rater("  alice ").name == "alice"  # the store trims, as before

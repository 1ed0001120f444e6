"""scoring.paths: file names in messages, escaped and in one form."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scoring.paths import shown, shown_all, shown_from_here


def test_a_path_under_the_working_directory_is_relative(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert shown_from_here(tmp_path / "runs" / "a.jsonl") == os.path.join("runs", "a.jsonl")
    assert shown_from_here("runs/./a.jsonl") == os.path.join("runs", "a.jsonl")
    assert shown_from_here(Path("runs") / "a\nb.jsonl") == os.path.join("runs", "a\\x0ab.jsonl")


def test_a_path_elsewhere_is_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert shown_from_here("../there/a.jsonl") == str(tmp_path / "there" / "a.jsonl")
    assert shown_from_here(tmp_path / "there") == str(tmp_path / "there")


@pytest.mark.parametrize(
    "texts",
    [
        ["run-1", "model-a", "", "é ü 飛行"],  # nothing to escape: one pass
        ["run-1", "bad\x1b[2Jname", "model-a"],  # an escape sequence in one of them
        ["run-1", "half\udcffsurrogate", "x"],  # a name that was not UTF-8
        ["line\u2028separator", "ok"],
        [],
    ],
)
def test_shown_all_is_shown_of_each(texts: list[str]) -> None:
    assert shown_all(texts) == [shown(t) for t in texts]

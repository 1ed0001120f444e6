"""A folder streamed by FoundFiles gives discover's files, order and problems, exactly."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from reviewer.batch import DiscoveryError, discover
from reviewer.file_stream import FoundFiles

#: Names whose order differs between comparing whole path strings and comparing part by
#: part ("a/x" against "a.jsonl", "a-b", "a b"): the order discover promises is the latter.
NAMES = ["a", "a.jsonl", "a-b", "a b", "A", "b.jsonl", "_", "z.jsonl", "0.jsonl", "é.jsonl"]


def _tree(root: Path, rng: random.Random, depth: int = 0) -> None:
    for name in rng.sample(NAMES, k=rng.randrange(3, len(NAMES))):
        if name.endswith(".jsonl") or depth >= 3 or rng.random() < 0.4:
            (root / name).write_text("{}\n")
        else:
            (root / name).mkdir()
            _tree(root / name, rng, depth + 1)


def _both(paths: list) -> tuple[list[Path], list[Path], list, list]:
    streamed_problems: list = []
    listed_problems: list = []
    streamed = FoundFiles(paths, streamed_problems)
    listed = discover(paths, listed_problems)
    assert len(streamed) == len(listed)
    assert list(streamed) == list(streamed)  # iterable again, same files
    return list(streamed), listed, streamed_problems, listed_problems


@pytest.mark.parametrize("seed", range(8))
def test_a_folder_streams_as_discover_lists_it(tmp_path: Path, seed: int) -> None:
    _tree(tmp_path, random.Random(seed))
    streamed, listed, p1, p2 = _both([tmp_path])
    assert streamed == listed
    assert p1 == p2 == []


def test_links_loops_and_special_files_are_met_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "runs" / "a").mkdir(parents=True)
    (tmp_path / "runs" / "a" / "1.jsonl").write_text("{}\n")
    (tmp_path / "runs" / "b.jsonl").write_text("{}\n")
    (tmp_path / "runs" / "notes.txt").write_text("x")
    (tmp_path / "runs" / "link-to-a").symlink_to(tmp_path / "runs" / "a")
    (tmp_path / "runs" / "a" / "up").symlink_to(tmp_path / "runs")  # a loop
    (tmp_path / "runs" / "dangling.jsonl").symlink_to(tmp_path / "nowhere")
    (tmp_path / "runs" / "dangling-dir").symlink_to(tmp_path / "nowhere-dir")
    (tmp_path / "runs" / "linked.jsonl").symlink_to(tmp_path / "runs" / "b.jsonl")
    os.mkfifo(tmp_path / "runs" / "pipe.jsonl")
    for root in (tmp_path / "runs", tmp_path):
        streamed, listed, p1, p2 = _both([root])
        assert streamed == listed
        assert p1 == p2
        assert p1  # the loop, the dangling trajectory and the FIFO are reported


def test_files_and_several_paths_are_listed_as_before(tmp_path: Path) -> None:
    _tree(tmp_path, random.Random(1))
    one = next(p for p in sorted(tmp_path.rglob("*.jsonl")))
    for paths in ([one], [tmp_path, tmp_path / "a"], [str(one), tmp_path]):
        streamed, listed, p1, p2 = _both(paths)
        assert (streamed, p1) == (listed, p2)
    with pytest.raises(DiscoveryError):
        FoundFiles([tmp_path / "missing"], [])
    assert len(FoundFiles([tmp_path / "nothing-here"] * 0, [])) == 0

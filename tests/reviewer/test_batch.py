"""reviewer.batch: the order files are scored and imported in."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from reviewer.batch import discover, path_order

_NAMES = st.sampled_from(["a", "A", "a-b", "a.b", "a b", "a_", "a0", ".h", "..x", "ä", "b", "z"])
_PATHS = st.builds(
    lambda root, parts: str(Path(root, *parts)),
    st.sampled_from(["", "/", "/tmp/x", "rel"]),
    st.lists(_NAMES, min_size=1, max_size=4),
)


@given(st.lists(_PATHS, unique=True, max_size=40))
def test_path_order_sorts_as_paths_sort(paths: list[str]) -> None:
    # Sorting by the key must give the order sorting Path objects gives: the order cards
    # are written in and runs numbered in, whichever of the two computes it.
    assert sorted(paths, key=path_order) == [str(p) for p in sorted(map(Path, paths))]


def test_discover_sorts_and_deduplicates(tmp_path: Path) -> None:
    for name in ("b/2.jsonl", "a-b/1.jsonl", "a/b/3.jsonl", "a/1.jsonl", "a/note.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}\n")
    found = discover([tmp_path, tmp_path / "a", str(tmp_path / "b" / "2.jsonl")])
    assert found == sorted({*(tmp_path.rglob("*.jsonl"))})
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "a/1.jsonl",
        "a/b/3.jsonl",
        "a-b/1.jsonl",
        "b/2.jsonl",
    ]

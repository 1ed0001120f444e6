"""The input fuzzer: every input surface gives a result or a reason, never an exception,
and the good lines of a batch are kept (issue 27; the trajectory readers' fuzzer is
``tests/scoring/test_fuzz.py``).

Surfaces: ratings CSV and JSONL, rating sheets, adjudication sheets, packet manifests,
trust lists, judge batch outputs and the answers inside them, rubric YAML and ``--runs``
files. Valid seeds (``fuzz_seeds``) are mutated: a JSON value replaced by raw hostile JSON
(deep nesting, huge numbers, control characters, lone surrogates), hostile bytes spliced
in (invalid UTF-8, NUL, CR, a deep line, YAML tags and aliases), lines duplicated or
dropped, the file cut short. Seeded and derandomized; ``A320_FUZZ_SCALE=20`` runs twenty
times the examples (the CI default takes well under a minute).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import fuzz_seeds as seeds
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewer.cli import UsageError
from reviewer.exchange.longformat import read_long
from reviewer.inputs import InputError
from reviewer.judge.answers import AnswerError, answer_from_completion, read_answers
from reviewer.judge.requests import RunsFileError, runs_from_file
from reviewer.rubric import RubricError, load_rubric, parse_rubric
from reviewer.sheets.keys import KeyStoreError
from reviewer.sheets.trust import load_trust_file
from reviewer.sheets.verify import verify_file
from reviewer.store import RatingsFileError
from reviewer.studies.packet import MANIFEST, PacketError, read_packet
from reviewer.verbs.study_handlers import _selection
from reviewer.workspace import ReviewStore

SCALE = int(os.environ.get("A320_FUZZ_SCALE", "1"))
#: Examples per surface at scale 1: nine surfaces stay well within a minute in CI.
EXAMPLES = 60 * SCALE

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_SEEDS: dict[str, Any] = {}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The seed files of every surface, and a store with two runs for ``--runs`` files."""
    root = tmp_path_factory.mktemp("fuzz")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("A320_REVIEW_HOME", str(root / "home"))  # keys never leave the folder
        from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario

        runs = []
        for n, run_id in enumerate(["run-1", "run-2"]):
            b = TrajectoryBuilder(bundled_scenario("elec-apu-gen-fault"), run_id=run_id,
                                  model="m", seed=n)  # fmt: skip
            runs.append(b.turn().read().done().final("agent_done", passed=True).write(
                root / "runs" / f"{run_id}.jsonl"))  # fmt: skip
        store = ReviewStore.open(root / "review.db")
        store.import_paths(runs)
        sheet = seeds.sheet_bytes(root)
        adjudication = seeds.adjudication_bytes(root)
        packet = _packet(root)
        yield {
            "root": root,
            "store": store,
            "sheet": sheet,
            "adjudication": adjudication,
            "trust": seeds.trust_bytes(root),
            "packet": packet,
            "specials": seeds.special_files(root / "specials"),
        }
        store.close()
        (root / "specials" / "unreadable").chmod(0o600)


def _packet(root: Path) -> Path:
    """A real packet folder, made the way an owner makes one."""
    from reviewer.cli import main
    from reviewer.sheets import keys

    keys.generate_key("olga")
    db = root / "owner.db"
    assert main(["import", str(root / "runs"), "--db", str(db)]) == 0
    assert main(["study", "create", "t", "--raters", "ann", "--per-run", "1",
                 "--owner", "olga", "--db", str(db)]) == 0  # fmt: skip
    out = root / "packet"
    assert main(["study", "packet", "t", "--rater", "ann", "--out", str(out), "--db", str(db)]) == 0
    return out


# -- mutations -------------------------------------------------------------------------------


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:4]):
            out += _paths(item, (*prefix, index))
    return out


_MARK = "\x00FUZZ\x00"


@st.composite
def json_mutant(draw, text: str) -> str:
    """``text`` (one JSON document) with one value replaced by raw hostile JSON."""
    doc = json.loads(text)
    targets = _paths(doc)
    if not targets:
        return draw(st.sampled_from(seeds.HOSTILE_JSON))
    path = draw(st.sampled_from(targets))
    holder = doc
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] = _MARK
    raw = draw(st.sampled_from(seeds.HOSTILE_JSON))
    return json.dumps(doc).replace(json.dumps(_MARK), raw, 1)


@st.composite
def byte_mutant(draw, data: bytes) -> bytes:
    """``data`` with one to three byte-level mutations."""
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(st.sampled_from(["splice", "splice", "cut", "dup-line", "drop-line"]))
        at = draw(st.integers(min_value=0, max_value=len(data)))
        if kind == "splice":
            data = data[:at] + draw(st.sampled_from(seeds.HOSTILE_BYTES)) + data[at:]
        elif kind == "cut":
            data = data[:at]
        else:
            lines = data.split(b"\n")
            i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[i:i] = [lines[i]] if kind == "dup-line" else []
            if kind == "drop-line":
                del lines[i]
            data = b"\n".join(lines)
    return data


def _json_or_bytes(text: bytes) -> st.SearchStrategy[bytes]:
    return json_mutant(text.decode()).map(str.encode) | byte_mutant(text)


def _jsonl_mutant(lines: list[str]) -> st.SearchStrategy[tuple[int, bytes]]:
    """A JSONL batch with line ``i`` mutated: ``(i, file bytes)``."""

    @st.composite
    def build(draw) -> tuple[int, bytes]:
        i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        bad = draw(json_mutant(lines[i]).map(str.encode) | byte_mutant(lines[i].encode()))
        out = [ln.encode() for ln in lines]
        out[i] = bad.replace(b"\n", b" ")  # still one line: the others must survive it
        return i, b"\n".join(out) + b"\n"

    return build()


def _write(root: Path, name: str, data: bytes) -> Path:
    path = root / "cases" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    return path


def _reason(text: object) -> None:
    """A reason is text a person can read: not empty."""
    assert str(text).strip(), "a refusal needs a reason"


# -- one property per surface ------------------------------------------------------------------


def test_the_seeds_are_valid(world) -> None:
    # Unmutated, every seed is read in full: the mutants start from something that works.
    root = world["root"]
    assert len(read_long(_write(root, "ok.csv", seeds.ratings_csv()))) == 3
    assert len(read_long(_write(root, "ok.jsonl", seeds.ratings_jsonl()))) == 3
    for which in ("sheet", "adjudication"):
        result = verify_file(_write(root, f"ok-{which}.sheet.json", world[which]))
        assert result.ok, result.reason
    assert read_packet(world["packet"]).rater == "ann"
    assert len(load_trust_file(_write(root, "ok-trust.txt", world["trust"]))) == 2
    assert parse_rubric(seeds.rubric_yaml(), source="r.yaml").id == "default"
    runs = _write(root, "ok-runs.txt", seeds.runs_list(["run-1", "run-2"]))
    assert len(runs_from_file(world["store"], runs)) == 2
    lines = [seeds.batch_line(n).encode() for n in range(1, 4)]
    assert len(read_answers(lines, rubric=seeds.RUBRIC, source="b").answers) == 3


@FUZZ
@given(data=st.data())
def test_ratings_csv(world, data) -> None:
    path = _write(world["root"], "r.csv", data.draw(byte_mutant(seeds.ratings_csv())))
    try:
        read_long(path)
    except RatingsFileError as exc:
        _reason(exc)


@FUZZ
@given(data=st.data())
def test_ratings_jsonl(world, data) -> None:
    lines = seeds.ratings_jsonl().decode().splitlines()
    _, raw = data.draw(_jsonl_mutant(lines))
    path = _write(world["root"], "r.jsonl", raw)
    try:
        read_long(path)
    except RatingsFileError as exc:
        _reason(exc)


@FUZZ
@given(data=st.data())
def test_rating_and_adjudication_sheets(world, data) -> None:
    which = data.draw(st.sampled_from(["sheet", "adjudication"]))
    raw = data.draw(_json_or_bytes(world[which]))
    result = verify_file(_write(world["root"], "x.sheet.json", raw), trusted=frozenset())
    if not result.ok:
        _reason(result.reason)


@FUZZ
@given(data=st.data())
def test_packet_manifests(world, data) -> None:
    folder = world["root"] / "cases" / "packet"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(world["packet"], folder)
    manifest = folder / MANIFEST
    manifest.write_bytes(data.draw(_json_or_bytes(manifest.read_bytes())))
    try:
        read_packet(folder)
    except PacketError as exc:
        _reason(exc)


@FUZZ
@given(data=st.data())
def test_trust_lists(world, data) -> None:
    path = _write(world["root"], "trust.txt", data.draw(byte_mutant(world["trust"])))
    try:
        load_trust_file(path)
    except KeyStoreError as exc:
        _reason(exc)


@FUZZ
@given(data=st.data())
def test_judge_batch_outputs_keep_the_good_lines(data) -> None:
    lines = [seeds.batch_line(n) for n in range(1, 4)]
    bad, raw = data.draw(_jsonl_mutant(lines))
    read = read_answers(raw.splitlines(keepends=True), rubric=seeds.RUBRIC, source="b.jsonl")
    kept = {a.key for a in read.answers}
    for n in range(1, 4):
        if n - 1 != bad:  # every line but the spoilt one is kept, or refused as a repeat
            assert seeds.request_key(n) in kept or any("again" in e for e in read.errors)
    assert all(e.startswith("b.jsonl:") and "\n" not in e for e in read.errors)


@FUZZ
@given(data=st.data())
def test_judge_answers(data) -> None:
    content = data.draw(json_mutant(json.dumps(seeds.answer(1))) | st.sampled_from(
        ["```json\n" + "[" * 50_000 + "\n```", "{" * 100_000, '{"metrics": ' + "9" * 5000 + "}"]
    ))  # fmt: skip
    try:
        answer_from_completion(
            seeds.completion(content), key=seeds.request_key(1), rubric=seeds.RUBRIC
        )
    except AnswerError as exc:
        _reason(exc)


#: PyYAML is pure Python: a deeply nested mutant costs it a second, so fewer examples here.
@settings(FUZZ, max_examples=max(20, EXAMPLES // 3))
@given(data=st.data())
def test_rubric_yaml(data) -> None:
    raw = data.draw(byte_mutant(seeds.rubric_yaml()))
    try:
        parse_rubric(raw, source="r.yaml")
    except RubricError as exc:
        _reason(exc)


@FUZZ
@given(data=st.data())
def test_runs_files(world, data) -> None:
    raw = data.draw(byte_mutant(seeds.runs_list(["run-1", "run-2"])))
    path = _write(world["root"], "runs.txt", raw)
    try:
        runs_from_file(world["store"], path)
    except RunsFileError as exc:
        _reason(exc)
    try:
        _selection(argparse.Namespace(runs=path, scenario=[], model=[], status=[]))
    except UsageError as exc:  # the one refusal allowed: no other exception
        _reason(exc)


# -- special files: refused at once, never read ----------------------------------------------


def _readers(world) -> dict[str, Callable[[Path], object]]:
    def packet(path: Path) -> object:
        folder = world["root"] / "cases" / "special-packet"
        folder.mkdir(parents=True, exist_ok=True)
        manifest = folder / MANIFEST
        manifest.unlink(missing_ok=True)
        manifest.symlink_to(path)
        return read_packet(folder)

    return {
        "ratings-csv": lambda p: read_long(p, "csv"),
        "ratings-jsonl": lambda p: read_long(p, "jsonl"),
        "sheet": lambda p: _ok_or_raise(verify_file(p)),
        "packet": packet,
        "trust": load_trust_file,
        "rubric": load_rubric,
        "runs-judge": lambda p: runs_from_file(world["store"], p),
        "runs-study": lambda p: _selection(
            argparse.Namespace(runs=p, scenario=[], model=[], status=[])
        ),
        "judge-import": lambda p: _judge_import(world["store"], p),
    }


def _ok_or_raise(result) -> object:
    if not result.ok:
        raise ValueError(result.reason)
    return result


def _judge_import(store: ReviewStore, path: Path) -> object:
    from reviewer.judge.workflow import import_file

    return import_file(store, path, judge="fuzz")


REFUSALS = (
    RatingsFileError, PacketError, KeyStoreError, RubricError, RunsFileError, InputError,
    ValueError, UsageError,
)  # fmt: skip


@pytest.mark.parametrize(
    "reader",
    ["ratings-csv", "ratings-jsonl", "sheet", "packet", "trust", "rubric", "runs-judge",
     "runs-study", "judge-import"],
)  # fmt: skip
@pytest.mark.parametrize(
    "special",
    ["fifo", "dev-zero", "link-to-dev-zero", "symlink-loop", "folder", "missing",
     "sparse-2GiB", "unreadable"],
)  # fmt: skip
def test_special_files_are_refused_at_once(world, reader: str, special: str) -> None:
    if special == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads a file whatever its mode")
    path = world["specials"][special]

    def hung(*_args: object) -> None:
        raise TimeoutError(f"{reader} blocked on {special}")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    try:
        with pytest.raises(REFUSALS) as refused:
            _readers(world)[reader](path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    text = str(refused.value)
    _reason(text)
    assert "secret" not in text


def test_a_sheet_format_that_is_a_list_is_a_failed_line(world) -> None:
    # Found by the fuzzer at 20x: the format was looked up in a dict (TypeError: unhashable).
    envelope = json.loads(world["sheet"])
    envelope["sheet_format"] = []
    result = verify_file(_write(world["root"], "list.sheet.json", json.dumps(envelope).encode()))
    assert not result.ok and "unsupported sheet format" in (result.reason or "")


def test_a_rubric_with_a_5000_digit_number_is_a_rubric_error() -> None:
    # Found by the fuzzer at 20x: PyYAML's int() raised ValueError past 4300 digits.
    with pytest.raises(RubricError, match="not valid YAML"):
        huge = seeds.rubric_yaml().replace(b"version: 1\n", b"version: " + b"9" * 5000 + b"\n")
        parse_rubric(huge, source="r.yaml")

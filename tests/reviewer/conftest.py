"""Fixtures for the reviewer tests: an isolated home, stores, and trajectories to import.

No Qt here. Trajectories are written by ``reviewer.demo.synth.TrajectoryBuilder``, the same
builder the demo runs and the benchmark corpus use.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.evidence import Citation
from reviewer.sheets import schemas
from reviewer.store import Rating
from reviewer.workspace import ReviewStore
from scoring import SCORER_VERSION, RequiredAction, ScoreCard

APU = "elec-apu-gen-fault"
#: The APU GEN FAULT procedure: reset attempt (off, on), then isolate (off) and EXT PWR on.
PROCEDURE = (("apu_gen", 0), ("apu_gen", 1), ("apu_gen", 0), ("ext_pwr", 1))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> None:
    # Never read or write the real per-user folders from a test.
    monkeypatch.setenv("A320_REVIEW_HOME", str(tmp_path_factory.mktemp("home")))


def write_run(
    root: Path,
    n: int,
    *,
    model: str = "model-a",
    steps: tuple[tuple[str, int], ...] = PROCEDURE,
    passed: bool = True,
) -> Path:
    """Trajectory number ``n`` under ``root/<scenario>/``; its run_id ends in ``n``."""
    run_id = f"20260724T101500Z-{n:06d}"
    b = TrajectoryBuilder(bundled_scenario(APU), run_id=run_id, model=model, seed=n)
    b.turn().read("read_ecam")
    for control, value in steps:
        b.set(control, value)
    b.advance(5).read("read_ecam").done().final("agent_done", passed=passed)
    return b.write(root / APU / f"{run_id}.jsonl")


def run_id_of(n: int) -> str:
    """The run_id :func:`write_run` gives trajectory ``n``."""
    return f"20260724T101500Z-{n:06d}"


def fake_card(n: int, *, path: str | None = None, status: str = "scored") -> ScoreCard:
    """A ScoreCard without a file behind it, for store tests that need many runs fast."""
    return ScoreCard(
        path=path or f"/runs/{APU}/{run_id_of(n)}.jsonl",
        run_id=run_id_of(n),
        scenario_id=APU,
        model="model-a" if n % 2 else "model-b",
        reason="agent_done",
        status=status,
        trajectory_sha256=hashlib.sha256(f"run {n}".encode()).hexdigest(),
        scorer_version=SCORER_VERSION,
        coverage=1.0,
        order=1.0,
        end_state=1.0,
        all_passed=True,
        safety_dangerous=0,
        safety_anti_procedure=0,
        extraneous=0,
        scalar=1.0,
        # The procedure's actions, so that a rating can cite a ground-truth row (GT:1...)
        # of a run that has no trajectory file behind it.
        required=[
            RequiredAction(
                index=i, block="APU GEN FAULT", block_index=0, ordered=True, control=c, value=v
            )
            for i, (c, v) in enumerate(PROCEDURE)
        ],
    )


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where a test's review database lives."""
    return tmp_path / "review.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[ReviewStore]:
    """A fresh, empty store (closed after the test)."""
    with ReviewStore.open(db_path) as s:
        yield s


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A folder of four readable trajectories, runs 0–3."""
    root = tmp_path / "corpus"
    for n in range(4):
        write_run(root, n, model="model-a" if n % 2 else "model-b")
    return root


@pytest.fixture
def seeded(store: ReviewStore) -> ReviewStore:
    """A store holding five runs (fake cards 0–4), none rated."""
    store.add_scorecards([fake_card(n) for n in range(5)])
    return store


def fill(
    store: ReviewStore,
    rating: Rating,
    *,
    score: int = 2,
    comment: str = "seen in the trajectory",
) -> Rating:
    """Give every metric of ``rating`` an applicable score (complete, ready to submit).

    A score the rubric wants evidence for gets a citation of the run's first event.
    """
    for metric_id in rating.items:
        rating = store.save_item(
            rating.rating_pk,
            metric_id,
            outcome="applicable",
            score=score,
            comment=comment,
            expected_version=rating.version,
        )
        if score in store.rubric().evidence_scores(metric_id):
            rating = cite_event(store, rating, metric_id)
    return rating


def cite_event(
    store: ReviewStore, rating: Rating, metric_id: str, *, ref: int = 0, note: str = ""
) -> Rating:
    """Cite event ``ref`` (labelled as an agent turn) for ``metric_id`` of a draft."""
    citation = Citation(
        metric_id=metric_id,
        kind="event",
        ref=ref,
        step=str(ref + 1),
        label=f"{ref + 1} agent: reads the ECAM",
        note=note,
    )
    return store.cite(rating.rating_pk, citation, expected_version=rating.version)


def tamper_db(path: Path, *sql: str) -> None:
    """What someone with the sqlite3 shell does: no foreign keys, every trigger dropped
    first, then the statements; for the tests of ``audit verify``."""
    conn = sqlite3.connect(path, isolation_level=None)
    triggers = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
    for name in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    for statement in sql:
        conn.execute(statement)
    conn.close()


def audit_problems(path: Path) -> list[str]:
    """What ``audit verify`` finds in the database at ``path`` (read-only; empty when ok)."""
    with ReviewStore.open(path, create=False, readonly=True) as store:
        report = store.audit_verify()
    assert report.ok == (not report.problems), report
    return report.problems


# The helpers above, as fixtures: test modules here are not a package, so they reach
# shared helpers through pytest rather than by importing this file.


@pytest.fixture
def make_card():
    """:func:`fake_card`."""
    return fake_card


@pytest.fixture
def make_run():
    """:func:`write_run`."""
    return write_run


@pytest.fixture
def fill_rating():
    """:func:`fill`."""
    return fill


@pytest.fixture
def tamper():
    """:func:`tamper_db`."""
    return tamper_db


@pytest.fixture
def problems_of():
    """:func:`audit_problems`."""
    return audit_problems


SCHEMAS = Path(__file__).resolve().parents[2] / "resources" / "schemas"


def schema_validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator for the shipped schema file ``name`` (jsonschema, not our models)."""
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def check_sheet(path: Path) -> dict:
    """Validate a sheet file against the shipped schemas, envelope then payload."""
    envelope = json.loads(path.read_text(encoding="utf-8"))
    schema_validator("sheet-envelope.schema.json").validate(envelope)
    payload = json.loads(envelope["payload"])
    schema_validator(schemas.file_name(envelope["sheet_format"])).validate(payload)
    return payload


@pytest.fixture
def sheet_schema():
    """:func:`check_sheet`."""
    return check_sheet


@pytest.fixture
def schema_for():
    """:func:`schema_validator`."""
    return schema_validator

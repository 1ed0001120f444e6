"""``a320-review sign --all``: every submitted, unsigned rating of a rater at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.sheets import keys
from reviewer.workspace import ReviewStore


@pytest.fixture(autouse=True)
def review_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("A320_REVIEW_HOME", str(home))
    return home


def _rate(store: ReviewStore, run_pk: int, rater: str, *, submit: bool = True) -> None:
    rating = store.start_rating(run_pk, rater)
    for metric in store.rubric().metrics:
        rating = store.save_item(
            rating.rating_pk,
            metric.id,
            outcome="not_applicable",
            score=None,
            comment="",
            expected_version=rating.version,
        )
    if submit:
        store.submit(rating.rating_pk, expected_version=rating.version)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Alice: run-a, run-b, run-c submitted, run-d a draft; bob: run-a submitted."""
    scenario = bundled_scenario("elec-apu-gen-fault")
    paths = [
        TrajectoryBuilder(scenario, run_id=f"run-{x}", model="m")
        .turn()
        .read()
        .set("apu_gen", 0)
        .done()
        .final("agent_done", passed=True)
        .write(tmp_path / f"run-{x}.jsonl")
        for x in "abcd"
    ]
    path = tmp_path / "review.db"
    with ReviewStore.open(path) as store:
        store.import_paths(paths)
        pks = {r.run_id: r.run_pk for r in store.list_runs()}
        for run_id in ("run-a", "run-b", "run-c"):
            _rate(store, pks[run_id], "alice")
        _rate(store, pks["run-d"], "alice", submit=False)
        _rate(store, pks["run-a"], "bob")
    return path


def _states(db: Path, rater: str) -> dict[str, str]:
    with ReviewStore.open(db) as store:
        return {r.run_id: r.rating_state for r in store.list_runs(rater=rater)}


def test_sign_all_signs_every_submitted_rating_of_the_rater(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys.generate_key("alice")
    out = tmp_path / "sheets"
    assert main(["sign", "--all", "--rater", "alice", "--db", str(db), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert sorted(p.name.split(".")[0] for p in out.glob("*.sheet.json")) == [
        "run-a",
        "run-b",
        "run-c",
    ]
    assert "signed 3 of 3 rating(s) by alice" in captured.out
    assert "[1/3] signing run-a" in captured.err and "[3/3] signing run-c" in captured.err
    assert _states(db, "alice") == {
        "run-a": "signed",
        "run-b": "signed",
        "run-c": "signed",
        "run-d": "draft",  # a draft is not signed, and not a failure either
    }
    assert _states(db, "bob")["run-a"] == "submitted"  # only the named rater's ratings

    # Nothing left: a second run says so and asks for nothing.
    assert main(["sign", "--all", "--rater", "alice", "--db", str(db), "--out", str(out)]) == 0
    assert "nothing to sign: alice has no submitted, unsigned rating" in capsys.readouterr().out


def test_sign_all_names_a_failure_and_signs_the_rest(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys.generate_key("alice")

    def renderer(signed, pdf: Path) -> None:
        if signed.payload.run.run_id == "run-b":
            raise RuntimeError("no fonts")
        pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")

    out = tmp_path / "sheets"
    argv = ["sign", "--all", "--rater", "alice", "--db", str(db), "--out", str(out)]
    assert main(argv, pdf_renderer=renderer) == 1
    captured = capsys.readouterr()
    assert "run-b: not signed: cannot write sheets to" in captured.err
    assert captured.err.rstrip().endswith("a320-review sign: 1 rating(s) not signed: run-b")
    assert "signed 2 of 3 rating(s) by alice" in captured.out
    states = _states(db, "alice")
    assert (states["run-a"], states["run-b"], states["run-c"]) == ("signed", "submitted", "signed")


def test_sign_all_and_run_are_mutually_exclusive(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["sign", "--all", "--run", "run-a", "--rater", "alice", "--db", str(db)])
    assert exc.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sign", "--rater", "alice", "--db", str(db)])
    assert "one of the arguments --run --all is required" in capsys.readouterr().err

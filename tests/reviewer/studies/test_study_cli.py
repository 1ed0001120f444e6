"""The study verbs' smaller promises: assignments output, refusals with lines, sheets."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.rubric import default_rubric
from reviewer.sheets import keys
from reviewer.sheets.verify import verify_sheet
from reviewer.workspace import ReviewStore

METRICS = default_rubric().metric_ids


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def db(tmp_path: Path, corpus: Path) -> Path:
    path = tmp_path / "r.db"
    assert _run("import", corpus, "--db", path) == 0
    assert _run("study", "create", "s", "--raters", "ann,bob,cat", "--per-run", "2",
                "--protocol", "blind", "--seed", "1", "--db", path) == 0  # fmt: skip
    return path


def test_assignments_csv_has_the_columns_and_k_raters_per_run(db: Path, capsys) -> None:
    capsys.readouterr()
    assert _run("study", "assignments", "s", "--format", "csv", "--db", db) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0])[:3] == ["run_id", "rater", "position"]
    per_run: dict[str, int] = {}
    for row in rows:
        per_run[row["run_id"]] = per_run.get(row["run_id"], 0) + 1
    assert set(per_run.values()) == {2} and len(per_run) == 4


def test_same_study_on_another_database_gives_the_same_assignment(
    db, tmp_path, corpus, capsys
) -> None:
    other = tmp_path / "other.db"
    _run("import", corpus, "--db", other)
    _run("study", "create", "s", "--raters", "ann,bob,cat", "--per-run", "2",
         "--protocol", "blind", "--seed", "1", "--db", other)  # fmt: skip
    capsys.readouterr()
    outputs = []
    for path in (db, other):
        _run("study", "assignments", "s", "--format", "json", "--db", path)
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]


def test_a_final_import_without_reason_names_the_line(db, tmp_path, capsys) -> None:
    with ReviewStore.open(db) as store:
        run_id = store.list_runs(study="s", rater="ann")[0].run_id
    blind, final = tmp_path / "b.csv", tmp_path / "f.csv"
    for path, first in ((blind, 2), (final, 1)):
        lines = ["run_id,metric,outcome,score,comment,reason"]
        lines += [f"{run_id},{m},applicable,{first if i == 0 else 2},ok," for i, m in
                  enumerate(METRICS)]  # fmt: skip
        path.write_text("\n".join(lines) + "\n")
    assert _run("ratings", "import", final, "--rater", "ann", "--phase", "final",
                "--db", db) == 1  # fmt: skip
    assert "no blind rating awaiting its final" in capsys.readouterr().err
    assert _run("ratings", "import", blind, "--rater", "ann", "--phase", "blind", "--db", db) == 0
    assert _run("ratings", "import", blind, "--rater", "ann", "--phase", "blind",
                "--db", db) == 1  # fmt: skip
    assert "already has rating" in capsys.readouterr().err
    assert _run("ratings", "import", final, "--rater", "ann", "--phase", "final",
                "--db", db) == 1  # fmt: skip
    err = capsys.readouterr().err
    assert f"{final}:2: {run_id}, {METRICS[0]}: changed from applicable 2" in err
    assert "the reason column must say why" in err


def _plain_sheet(tmp_path: Path, corpus: Path) -> Path:
    """A signed sheet of a rating made outside any study; returns its folder."""
    db = tmp_path / "plain.db"
    _run("import", corpus, "--db", db)
    keys.generate_key("ann")
    with ReviewStore.open(db) as store:
        run = store.list_runs()[0]
        rating = store.start_rating(run.run_pk, "ann")
        for m in rating.items:
            rating = store.save_item(rating.rating_pk, m, outcome="applicable", score=2,
                                     comment="", expected_version=rating.version)  # fmt: skip
        store.submit(rating.rating_pk, expected_version=rating.version)
    out = tmp_path / "sheets"
    assert _run("sign", "--run", run.run_id, "--rater", "ann", "--out", out, "--db", db) == 0
    return out


def test_a_sheet_outside_a_study_has_no_study_fields(tmp_path, corpus) -> None:
    text = next(_plain_sheet(tmp_path, corpus).glob("*.sheet.json")).read_text()
    payload = json.loads(json.loads(text)["payload"])
    assert "study" not in payload and all("blind" not in i for i in payload["items"])
    assert verify_sheet(text).ok


def test_an_unmatched_sheet_is_refused(tmp_path, corpus, capsys) -> None:
    out = _plain_sheet(tmp_path, corpus)
    empty = tmp_path / "empty.db"
    with ReviewStore.open(empty):
        pass
    capsys.readouterr()
    assert _run("collect", out, "--db", empty) == 1
    printed = capsys.readouterr().out
    assert ": refused (ann, " in printed
    assert "unmatched: no run with trajectory sha256" in printed


def test_runs_in_a_blind_study_hide_the_scorer_from_the_rater_until_the_reveal(db, capsys) -> None:
    capsys.readouterr()
    assert _run("runs", "--study", "s", "--rater", "ann", "--format", "json", "--db", db) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["position"] for r in rows] == list(range(1, len(rows) + 1))
    assert all(r["scalar"] is None and r["coverage"] is None for r in rows)
    # Not even the safety verdict.
    assert all(r["unsafe"] is None and r["end_state"] is None for r in rows)
    assert _run("runs", "--study", "s", "--format", "json", "--db", db) == 0  # the owner's view
    assert all(r["scalar"] is not None for r in json.loads(capsys.readouterr().out))


def test_joining_a_later_packet_adds_only_the_new_assignments(tmp_path, corpus, capsys) -> None:
    keys.generate_key("olga")
    owner_db = tmp_path / "owner.db"
    _run(
        "import", corpus / "elec-apu-gen-fault" / "20260724T101500Z-000000.jsonl", "--db", owner_db
    )
    _run("study", "create", "t", "--raters", "ann", "--per-run", "1", "--owner", "olga",
         "--db", owner_db)  # fmt: skip
    packet, ann_db = tmp_path / "packet", tmp_path / "ann.db"
    assert _run("study", "packet", "t", "--rater", "ann", "--out", packet, "--db", owner_db) == 0
    assert _run("study", "join", packet, "--db", ann_db) == 0
    assert _run("import", corpus, "--db", owner_db) == 0
    assert _run("study", "add-runs", "t", "--db", owner_db) == 0
    assert _run("study", "packet", "t", "--rater", "ann", "--out", packet, "--db", owner_db) == 0
    assert _run("study", "join", packet, "--db", ann_db) == 0
    assert _run("study", "join", packet, "--db", ann_db) == 0  # again: nothing new
    with ReviewStore.open(ann_db) as store:
        queue = store.list_runs(study="t", rater="ann")
        assert [r.position for r in queue] == [1, 2, 3, 4]
        assert store.get_study("t").joined
    assert _run("study", "add-runs", "t", "--db", ann_db) == 1  # only the owner extends it
    assert "only its owner extends it" in capsys.readouterr().err

"""``a320-review agreement`` and ``validity`` on a database of several raters."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer.agreement import source
from reviewer.cli import main
from reviewer.rubric import default_rubric
from reviewer.store.core import CoreStore
from reviewer.workspace import ReviewStore

METRICS = default_rubric().metric_ids


def _ratings_file(path: Path, run_ids: list[str], scores: list[int], na_first: bool) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(("run_id", "metric", "outcome", "score", "comment", "evidence"))
        for i, (run_id, score) in enumerate(zip(run_ids, scores, strict=True)):
            for metric in METRICS:
                if na_first and i == 0 and metric == "communication":
                    w.writerow((run_id, metric, "not_applicable", "", "", ""))
                else:  # a low score cites a ground-truth row, as the rubric asks
                    cited = "GT:1" if score < 2 else ""
                    w.writerow((run_id, metric, "applicable", score, "seen", cited))
    return path


@pytest.fixture
def rated_db(tmp_path: Path, db_path: Path, make_card) -> Path:
    """Five runs rated by three raters (Ben once corrected: the correction counts)."""
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([make_card(n) for n in range(5)])
        run_ids = [r.run_id for r in store.list_runs()]
        for rater, scores in {"Ana": [0, 1, 2, 3, 2], "Ben": [0, 1, 2, 3, 3],
                              "Cy": [1, 1, 2, 2, 2]}.items():  # fmt: skip
            path = _ratings_file(tmp_path / f"{rater}.csv", run_ids, scores, rater == "Ana")
            store.import_ratings(path, rater=rater)
        # A draft correction by Cy: the submitted rating stays Cy's word.
        live = store.live_rating(1, "Cy")
        store.supersede(live.rating_pk, rater="Cy")
    return db_path


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_adapter_reads_each_raters_live_decision(rated_db: Path) -> None:
    with ReviewStore.open(rated_db, create=False) as store:
        records = source.rating_records(store)
        runs = source.run_infos(store)
    assert len(records) == 3 * 5 * 7
    assert {r.rater for r in records} == {"Ana", "Ben", "Cy"}
    na = [r for r in records if r.outcome == "not_applicable"]
    assert len(na) == 1 and na[0].score is None
    assert set(runs) == {r.run_key for r in records}
    first = runs["1"]
    assert first.scalar == 1.0 and first.automatic["coverage"] == 1.0
    assert first.automatic["all_passed"] is True


def test_agreement_json_has_the_documented_shape(capsys, rated_db: Path) -> None:
    code, out, _ = _run(capsys, "agreement", "--db", rated_db, "--format", "json",
                        "--bootstrap", "200")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["metrics", "raters", "pairs"]
    assert [m["metric_id"] for m in data["metrics"]] == list(METRICS)
    first = data["metrics"][0]
    assert set(first) == {"metric_id", "alpha_ordinal", "alpha_interval", "alpha_outcome",
                          "ci_low", "ci_high", "units", "pairable_values", "exact_agreement",
                          "within_one", "note", "ci_method"}  # fmt: skip
    assert first["units"] == 5 and first["pairable_values"] == 15
    assert first["ci_low"] <= first["alpha_ordinal"] <= first["ci_high"]
    assert [r["rater"] for r in data["raters"]] == ["Ana", "Ben", "Cy"]
    assert len(data["pairs"]) == 3 and data["pairs"][0]["runs_shared"] == 5
    # The same seed gives the same interval; another seed another one.
    again = json.loads(_run(capsys, "agreement", "--db", rated_db, "--format", "json",
                            "--bootstrap", "200")[1])  # fmt: skip
    assert again == data


def test_agreement_table_and_csv(capsys, rated_db: Path) -> None:
    code, out, _ = _run(capsys, "agreement", "--db", rated_db, "--bootstrap", "0")
    assert code == 0
    assert out.splitlines()[0] == "metrics" and "\nraters\n" in out and "\npairs\n" in out
    code, out, _ = _run(capsys, "agreement", "--db", rated_db, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["section"] for r in rows} == {"metrics", "raters", "pairs"}


def test_validity_json(capsys, rated_db: Path) -> None:
    code, out, _ = _run(capsys, "validity", "--db", rated_db, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [m["metric_id"] for m in data["metrics"]] == ["procedure_application", "safety"]
    # Every fake card has coverage 1 and no forbidden command: rho is undefined, said so.
    assert data["metrics"][0]["rho"] is None and "same on every run" in data["metrics"][0]["note"]
    assert data["scenarios"][0]["scenario_id"] == "elec-apu-gen-fault"
    assert data["anchoring"] is None
    code, out, _ = _run(capsys, "validity", "--db", rated_db)
    assert code == 0 and "disagreements" in out


def test_errors_are_clean(capsys, rated_db: Path, tmp_path: Path) -> None:
    code, _, err = _run(capsys, "agreement", "--db", rated_db, "--study", "nope")
    assert code == 2 and "no ratings belong to a study named 'nope'" in err
    code, _, err = _run(capsys, "validity", "--db", rated_db, "--phase", "blind")
    assert code == 1 and "blind-phase values" in err
    code, _, err = _run(capsys, "agreement", "--db", rated_db, "--bootstrap", "-1")
    assert code == 2
    code, _, err = _run(capsys, "agreement", "--db", tmp_path / "missing.db")
    assert code == 1 and "Traceback" not in err


def test_help_does_not_import_the_statistics() -> None:
    # numpy is not checked: sqlite-utils imports it whenever it is installed.
    probe = (
        "import sys\n"
        "from reviewer.cli import build_parser\n"
        "build_parser()\n"
        "heavy = ('scipy', 'krippendorff')\n"
        # The verbs live in reviewer.agreement.verbs: the statistics are its other modules.
        "stats = [m for m in sys.modules if m.startswith('reviewer.agreement.')]\n"
        "print(sorted([m for m in heavy if m in sys.modules] + "
        "[m for m in stats if m != 'reviewer.agreement.verbs']))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_study_and_blind_values_flow_from_the_decided_items(
    capsys, rated_db: Path, monkeypatch
) -> None:
    # The study context each decided item carries: here Ana's and Ben's ratings belong to
    # study "pilot", Ana's items had a blind value one lower, Ben was in the control arm.
    # Patched where it is defined (the core), so every store class a verb opens has it.
    decided = CoreStore.decided_items

    def with_protocol(store):
        out = []
        for item in decided(store):
            if item.rater == "Cy":
                out.append(item)
                continue
            blind = max(0, item.score - 1) if item.score is not None else None
            ana = item.rater == "Ana"
            out.append(
                item._replace(
                    study="pilot",
                    blind_outcome=item.outcome if ana else None,
                    blind_score=blind if ana else None,
                    reveal_first=item.rater == "Ben",
                )
            )
        return out

    monkeypatch.setattr(CoreStore, "decided_items", with_protocol)
    with ReviewStore.open(rated_db, create=False) as store:
        inputs = source.load_inputs(store, study="pilot", phase="blind")
    assert {r.rater for r in inputs.records} == {"Ana"}
    assert {r.rater for r in inputs.unselected} == {"Ana", "Ben"}
    code, out, _ = _run(capsys, "validity", "--db", rated_db, "--study", "pilot",
                        "--format", "json")  # fmt: skip
    assert code == 0
    anchoring = json.loads(out)["anchoring"]["overall"]
    # Ana revised every scored item upwards except where her score was already 0.
    assert anchoring["items"] == 5 * 2 and anchoring["control_n"] == 5 * 2
    assert anchoring["revised"] == 8

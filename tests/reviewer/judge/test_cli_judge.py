"""The judge round trip on the demo database, as a user runs it: export, a stubbed
``judge run``, import, compare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer import assets
from reviewer.cli import main
from reviewer.workspace import ReviewStore

DEMO = Path(assets.__file__).resolve().parent.parent / "resources" / "demo"


def _run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def demo_db(tmp_path: Path, capsys, fill_rating) -> Path:
    """The demo runs imported, the first eight rated by two humans."""
    db = tmp_path / "demo.db"
    _run(capsys, "import", DEMO, "--db", db)  # exit 1: the demo has an unreadable file
    with ReviewStore.open(db) as store:
        runs = [r for r in store.list_runs() if r.status not in ("invalid", "harness_error")]
        for n, row in enumerate(runs[:8]):
            for rater, score in (("ann", n % 4), ("bob", (n + 1) % 4)):
                rating = fill_rating(store, store.start_rating(row.run_pk, rater), score=score)
                store.submit(rating.rating_pk, expected_version=rating.version)
    return db


def test_the_round_trip_on_the_demo(capsys, demo_db: Path, tmp_path: Path, stub_server, good_plan):
    requests = tmp_path / "requests.jsonl"
    code, _, err = _run(capsys, "judge", "export", "--db", demo_db, "--out", requests)
    lines = [json.loads(line) for line in requests.read_text().splitlines()]
    assert code == 0 and err.endswith(f"judge export: {len(lines)} requests, 0 runs skipped\n")
    with ReviewStore.open(demo_db) as store:
        ratable = [r for r in store.list_runs() if r.status not in ("invalid", "harness_error")]
        shas = {store.get_run(r.run_pk).sha256 for r in ratable}
    assert {line["custom_id"].split(".")[1] for line in lines} == shas

    # The stub: the first run is told to wait (429) once, the second always answers prose.
    first, second = (line["body"]["messages"][1]["content"] for line in lines[:2])

    def plan(body, asked):
        user = body["messages"][1]["content"]
        if user == first and asked == 0:
            return 429, {"Retry-After": "0"}, {"error": {"message": "rate limited"}}, 0.0
        if user == second:
            return 200, {}, _prose(body["model"]), 0.0
        return good_plan(body, asked)

    stub_server.plan = plan
    responses = tmp_path / "responses.jsonl"
    argv = ("judge", "run", "--db", demo_db, "--model", "stub-model-1", "--base-url",
            stub_server.url, "--judge", "stub", "--responses", responses)  # fmt: skip
    code, out, err = _run(capsys, *argv)
    n = len(lines)
    assert code == 1
    assert out == (
        f"judge run: {n - 1} answers (0 from the cache), 1 without a good answer, 0 runs "
        f"skipped; import: {n - 1} new ratings, 0 changed answers superseding the previous "
        "ones, 0 unchanged, 0 refused\n"
    )
    assert "no answer: " in err and "the answer is not JSON" in err
    assert len(stub_server.bodies) == n + 1  # every run once, the rate-limited one twice

    code, out, err = _run(capsys, *argv)
    assert f"{n - 1} answers ({n - 1} from the cache)" in out and f"{n - 1} unchanged" in out
    assert len(stub_server.bodies) == n + 2  # only the run without a good answer again

    # The kept responses import as they are; the prose line is refused by its number.
    code, out, err = _run(capsys, "judge", "import", responses, "--judge", "stub", "--db", demo_db)
    assert code == 1
    [refused] = err.splitlines()
    assert refused.startswith(f"{responses}:2: ") and "the answer is not JSON" in refused
    assert out == (
        f"judge import: 0 new ratings, 0 changed answers superseding the previous ones, "
        f"{n - 1} unchanged, 1 lines refused\n"
    )

    with ReviewStore.open(demo_db) as store:
        kinds = {r.name: r.kind for r in store.raters()}
        assert kinds == {"ann": "human", "bob": "human", "stub": "judge"}
        [meta, *_] = store.judge_ratings("stub")
        assert (meta.model, meta.input_tokens, meta.output_tokens) == ("stub-model-1", 1200, 300)

    code, out, _ = _run(capsys, "judge", "compare", "--judge", "stub", "--db", demo_db,
                        "--format", "json")  # fmt: skip
    result = json.loads(out)
    assert code == 0 and result["judge"] == "stub"
    assert 7 <= result["runs_compared"] <= 8  # the eight rated, less one with no answer
    by_metric = {m["metric_id"]: m for m in result["metrics"]}
    assert set(by_metric) == set(store.rubric().metric_ids)
    # communication: the stub always says not observed, the humans always scored it
    # (a run whose human dispute is still open is left out, and counted)
    communication, safety = by_metric["communication"], by_metric["safety"]
    assert communication["scored_pairs"] == 0
    assert communication["outcome_confusion"] == {
        "not_observed": {"applicable": result["runs_compared"] - communication["open_left_out"]}
    }
    assert safety["scored_pairs"] == result["runs_compared"] - safety["open_left_out"]

    code, out, _ = _run(capsys, "judge", "compare", "--judge", "stub", "--db", demo_db)
    assert code == 0 and "alpha_ordinal" in out.splitlines()[2]
    assert "judge score (rows) by consensus score (columns)" in out

    # `validity --judge` is the same calibration, and the judge is no human rater by default.
    code, same, _ = _run(capsys, "validity", "--judge", "stub", "--db", demo_db)
    assert (code, same) == (0, out)
    raters = lambda *extra: {  # noqa: E731
        r["rater"]
        for r in json.loads(
            _run(capsys, "agreement", "--db", demo_db, "--format", "json", *extra)[1]
        )["raters"]
    }
    assert raters() == {"ann", "bob"}
    assert raters("--include-judges") == {"ann", "bob", "stub"}


def _prose(model: str) -> dict:
    return {
        "model": model,
        "choices": [{"message": {"role": "assistant", "content": "Looks fine to me."}}],
    }


def test_import_refuses_rule_breaking_lines_and_keeps_the_others(
    capsys, demo_db: Path, tmp_path: Path, make_answer, make_completion
) -> None:
    requests = tmp_path / "requests.jsonl"
    _run(capsys, "judge", "export", "--db", demo_db, "--out", requests, "--model", "m")
    out_lines = []
    for number, line in enumerate(requests.read_text().splitlines()[:4]):
        request = json.loads(line)
        answer = make_answer(json.loads(request["body"]["messages"][1]["content"]))
        if number == 1:
            answer["metrics"]["safety"] |= {"outcome": "not_applicable", "score": 2}
        if number == 2:
            answer["metrics"]["verification"]["score"] = 4
        if number == 3:
            del answer["metrics"]["problem_solving"]
        response = {"status_code": 200, "body": make_completion(json.dumps(answer))}
        out_lines.append(json.dumps({"custom_id": request["custom_id"], "response": response}))
    batch = tmp_path / "batch_output.jsonl"
    batch.write_text("\n".join([*out_lines, "{oops"]) + "\n")
    code, out, err = _run(capsys, "judge", "import", batch, "--judge", "gpt", "--db", demo_db)
    assert code == 1
    assert [e.split(": ", 1)[0] for e in err.splitlines()] == [f"{batch}:{n}" for n in (2, 3, 4, 5)]
    assert "safety: a score is only given when the outcome is applicable" in err
    assert "verification: score must be an integer 0–3; got 4" in err
    assert "no answer for problem_solving" in err and "not JSON" in err
    assert out.startswith("judge import: 1 new ratings")


def test_bad_arguments_are_usage_errors(capsys, demo_db: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs.txt"
    runs.write_text("# the runs to rate\n20260724T080000Z-4b5760\nno-such-run\n")
    code, _, err = _run(capsys, "judge", "export", "--db", demo_db, "--runs", runs)
    assert code == 2 and f"{runs}:3: no run 'no-such-run'" in err
    code, _, err = _run(capsys, "judge", "compare", "--judge", "ann", "--db", demo_db)
    assert code == 2 and "no judge called 'ann'" in err
    code, _, err = _run(capsys, "judge", "import", tmp_path / "none.jsonl", "--judge", "j",
                        "--db", demo_db)  # fmt: skip
    assert code == 2 and "cannot read" in err
    code, _, err = _run(capsys, "judge", "export", "--db", demo_db, "--study", "pilot")
    assert code == 2 and "pilot" in err
    code, _, err = _run(capsys, "judge", "run", "--db", demo_db, "--model", "m",
                        "--api-key-env", "A320_TEST_UNSET_KEY")  # fmt: skip
    assert code == 2 and "A320_TEST_UNSET_KEY is not set" in err


def test_a_run_file_selects_by_run_id_or_sha256(capsys, demo_db: Path, tmp_path: Path) -> None:
    with ReviewStore.open(demo_db) as store:
        row = store.list_runs()[0]
        sha = store.get_run(store.list_runs()[1].run_pk).sha256
    runs = tmp_path / "runs.txt"
    runs.write_text(f"{row.run_id}\n{sha}  # by hash\n{row.run_id}\n")
    out = tmp_path / "r.jsonl"
    code, _, _ = _run(capsys, "judge", "export", "--db", demo_db, "--runs", runs, "--out", out)
    ids = [json.loads(line)["custom_id"].split(".")[1] for line in out.read_text().splitlines()]
    assert code == 0 and len(ids) == 2 and ids[1] == sha


def test_a_study_selects_its_runs(capsys, demo_db: Path, tmp_path: Path) -> None:
    code, _, err = _run(capsys, "study", "create", "pilot", "--raters", "ann,bob", "--per-run",
                        "1", "--scenario", "elec-apu-gen-fault", "--db", demo_db)  # fmt: skip
    assert code == 0, err
    with ReviewStore.open(demo_db) as store:
        shas = {
            store.get_run(r.run_pk).sha256
            for r in store.list_runs(study="pilot")
            if r.status not in ("invalid", "harness_error")
        }
    out = tmp_path / "r.jsonl"
    code, _, _ = _run(capsys, "judge", "export", "--db", demo_db, "--study", "pilot", "--out", out)
    ids = {json.loads(line)["custom_id"].split(".")[1] for line in out.read_text().splitlines()}
    assert code == 0 and ids == shas and 0 < len(ids) < 44

"""The done-when of issue 12, on the command line: a blind study rated on two machines.

The owner creates the study and writes a packet per rater; each rater joins on their own
database, rates blind, then final (one revision with its reason), signs (the ``team``
fixture, in conftest.py); the owner collects every sheet and ``ratings export`` shows both
raters with blind and final values.
"""

from __future__ import annotations

import json
from pathlib import Path

from reviewer.cli import main
from reviewer.evidence import Citation
from reviewer.rubric import default_rubric
from reviewer.sheets import keys
from reviewer.workspace import ReviewStore

METRICS = default_rubric().metric_ids


def _run(*argv: str) -> int:
    return main([str(a) for a in argv])


def _export(db: Path, capsys, *extra: str) -> list[dict]:
    capsys.readouterr()
    assert _run("ratings", "export", "--format", "jsonl", "--db", db, *extra) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_every_blind_study_sheet_meets_the_published_schema(team, sheet_schema) -> None:
    sheets = sorted(Path(team["sheets-ann"]).glob("*.sheet.json"))
    sheets += sorted(Path(team["sheets-bob"]).glob("*.sheet.json"))
    assert len(sheets) == 8
    for path in sheets:
        payload = sheet_schema(path)
        assert payload["sheet_format"] == "a320-review-sheet/2"
        assert payload["items"][0]["blind"]["score"] == 2 and payload["items"][0]["reason"]


def test_owner_collects_both_raters_with_blind_and_final_values(team, capsys) -> None:
    assert _run("collect", team["sheets-ann"], team["sheets-bob"], "--db", team["owner"]) == 0
    out = capsys.readouterr().out
    assert "8 stored, 0 unchanged" in out
    rows = _export(team["owner"], capsys)
    assert {r["rater"] for r in rows} == {"ann", "bob"}
    assert len(rows) == 2 * 4 * len(METRICS)
    revised = [r for r in rows if r["metric"] == METRICS[0]]
    assert all(r["blind_score"] == 2 and r["score"] == 1 for r in revised)
    assert all(r["revision_reason"] == "the reset was there after all" for r in revised)
    assert all(r["study"] == "pilot" and r["revealed_at"] for r in rows)
    assert all(r["status"] == "signed" and r["collected_at"] for r in rows)
    # The same sheets again: nothing changes.
    assert _run("collect", team["sheets-ann"], "--db", team["owner"]) == 0
    assert "0 stored, 4 unchanged" in capsys.readouterr().out
    # runs --study: every run has its 2 of 2 ratings in.
    assert _run("runs", "--study", "pilot", "--db", team["owner"], "--format", "json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["ratings_in"], r["per_run"]) for r in listed] == [(2, 2)] * 4


def test_agreement_and_anchoring_read_the_collected_study(team, capsys) -> None:
    assert _run("collect", team["sheets-ann"], team["sheets-bob"], "--db", team["owner"]) == 0
    capsys.readouterr()

    def report(verb: str, *extra: str) -> dict:
        argv = (verb, "--study", "pilot", "--db", team["owner"], "--format", "json", *extra)
        assert _run(*argv) == 0
        return json.loads(capsys.readouterr().out)

    # Blind phase: both raters gave 2 everywhere; final: the first metric was revised to 1
    # by both. Either way each metric's scores agree exactly over the 4 shared runs.
    for phase in ("blind", "final"):
        metrics = report("agreement", "--phase", phase, "--bootstrap", "0")["metrics"]
        assert {m["units"] for m in metrics} == {4}
        assert {m["exact_agreement"] for m in metrics} == {1.0}
    anchoring = report("validity")["anchoring"]["overall"]
    # Anchoring looks at the metrics with an automatic counterpart (procedure application
    # and safety in the default rubric): 2 raters x 4 runs x 2 metrics; procedure
    # application was revised on every rating: 8 revisions.
    assert anchoring["items"] == 2 * 4 * 2
    assert anchoring["revised"] == 2 * 4
    assert _run("agreement", "--study", "nosuch", "--db", team["owner"]) == 2


def test_tampered_and_untrusted_sheets_are_refused_the_rest_collected(
    team, tmp_path, capsys
) -> None:
    sheets = sorted(team["sheets-bob"].glob("*.sheet.json"))
    envelope = json.loads(sheets[0].read_text())
    envelope["payload"] = envelope["payload"].replace('"score":2', '"score":3', 1)
    sheets[0].write_text(json.dumps(envelope))
    trust = tmp_path / "trusted.txt"
    trust.write_text(keys.load_key("ann").public.line() + "\n")
    code = _run(
        "collect",
        team["sheets-ann"],
        team["sheets-bob"],
        "--trust",
        trust,
        "--require-trusted",
        "--db",
        team["owner"],
    )
    out = capsys.readouterr().out
    assert code == 1
    assert f"{sheets[0]}: refused: signature does not match payload" in out
    assert f"{sheets[1]}: refused: key not trusted" in out
    assert "4 stored" in out and "4 refused" in out


def test_a_key_trusted_under_another_name_is_refused(team, tmp_path, capsys) -> None:
    trust = tmp_path / "trusted.txt"
    ann = keys.load_key("ann").public
    trust.write_text(f"ed25519 {ann.b64} bob\n")  # ann's key, bound to the name bob
    assert _run("collect", team["sheets-ann"], "--trust", trust, "--db", team["owner"]) == 1
    assert "is trusted as 'bob', but the sheet is by 'ann'" in capsys.readouterr().out


def test_a_correction_collected_after_its_original_supersedes_it(
    team, tmp_path, capsys, sheet_schema
) -> None:
    assert _run("collect", team["sheets-ann"], "--db", team["owner"]) == 0
    with ReviewStore.open(team["ann"]) as store:
        run = store.list_runs(study="pilot", rater="ann")[0]
        old = store.live_rating(run.run_pk, "ann")
        fix = store.supersede(old.rating_pk, rater="ann")
        assert store.blind_values(fix.rating_pk).items[METRICS[1]].score == 2  # carried over
        fix = store.save_item(
            fix.rating_pk,
            METRICS[1],
            outcome="applicable",
            score=1,
            comment="ok",
            expected_version=fix.version,
        )
        fix = store.cite(
            fix.rating_pk,
            Citation(metric_id=METRICS[1], kind="ground_truth", ref=1, step="GT:2", label="GT:2"),
            expected_version=fix.version,
        )
        fix = store.save_revision_reason(
            fix.rating_pk, METRICS[1], "second look", expected_version=fix.version
        )
        store.submit_final(fix.rating_pk, expected_version=fix.version)
    out = tmp_path / "fix"
    assert (
        _run("sign", "--run", run.run_id, "--rater", "ann", "--out", out, "--db", team["ann"]) == 0
    )
    capsys.readouterr()
    assert _run("collect", out, "--db", team["owner"]) == 0
    assert "1 stored" in capsys.readouterr().out
    rows = [
        r for r in _export(team["owner"], capsys, "--rater", "ann") if r["run_id"] == run.run_id
    ]
    by_metric = {r["metric"]: r for r in rows}
    assert len(rows) == len(METRICS)  # only the correction is ann's word now
    assert by_metric[METRICS[1]]["score"] == 1 and by_metric[METRICS[1]]["blind_score"] == 2
    assert by_metric[METRICS[1]]["revision_reason"] == "second look"
    # The correction (blind study, a reason, a citation, supersedes) meets the published schema.
    (fixed,) = out.glob("*.sheet.json")
    payload = sheet_schema(fixed)
    assert payload["supersedes"] and payload["study"]["protocol"] == "blind"
    assert payload["items"][1]["citations"] and payload["items"][1]["reason"] == "second look"


def test_a_correction_collected_before_its_original_stays_live(team, tmp_path, capsys) -> None:
    with ReviewStore.open(team["ann"]) as store:
        run = store.list_runs(study="pilot", rater="ann")[0]
        old = store.live_rating(run.run_pk, "ann")
        fix = store.supersede(old.rating_pk, rater="ann")
        fix = store.save_overall_comment(
            fix.rating_pk, "a second look", expected_version=fix.version
        )
        store.submit_final(fix.rating_pk, expected_version=fix.version)
    out = tmp_path / "fix"
    assert (
        _run("sign", "--run", run.run_id, "--rater", "ann", "--out", out, "--db", team["ann"]) == 0
    )
    assert _run("collect", out, "--db", team["owner"]) == 0
    capsys.readouterr()
    assert _run("collect", team["sheets-ann"], "--db", team["owner"]) == 0
    assert "1 already corrected" in capsys.readouterr().out
    with ReviewStore.open(team["owner"]) as store:
        live = store.live_rating(store.list_runs(study="pilot", rater="ann")[0].run_pk, "ann")
        assert live is not None and live.supersedes_pk is None  # the correction, still live


def test_others_ratings_are_hidden_from_a_viewer_until_they_rated(team, capsys) -> None:
    assert _run("collect", team["sheets-bob"], "--db", team["owner"]) == 0
    # ann has rated nothing in this database yet: bob's ratings stay hidden from her.
    assert _export(team["owner"], capsys, "--viewer", "ann") == []
    assert {r["rater"] for r in _export(team["owner"], capsys, "--viewer", "bob")} == {"bob"}
    assert _run("collect", team["sheets-ann"], "--db", team["owner"]) == 0
    assert {r["rater"] for r in _export(team["owner"], capsys, "--viewer", "ann")} == {
        "ann",
        "bob",
    }


def test_a_tampered_packet_is_refused(tmp_path, corpus, capsys) -> None:
    db = tmp_path / "o.db"
    _run("import", corpus, "--db", db)
    keys.generate_key("olga")
    _run("study", "create", "p", "--raters", "ann", "--per-run", "1", "--owner", "olga", "--db", db)
    packet = tmp_path / "packet"
    assert _run("study", "packet", "p", "--rater", "ann", "--out", packet, "--db", db) == 0
    manifest = packet / "packet.json"
    good = manifest.read_text()
    manifest.write_text(good.replace('\\"rater\\":\\"ann\\"', '\\"rater\\":\\"bob\\"'))
    assert manifest.read_text() != good
    assert _run("study", "join", packet, "--db", tmp_path / "b.db") == 1
    assert "signature does not match" in capsys.readouterr().err
    manifest.write_text(good)
    run_file = next((packet / "runs").iterdir())
    run_file.write_bytes(run_file.read_bytes() + b"\n")
    assert _run("study", "join", packet, "--db", tmp_path / "b.db") == 1
    assert "changed since the packet was signed" in capsys.readouterr().err


def test_a_trust_list_binds_the_packet_owners_name(tmp_path, corpus, capsys) -> None:
    # A key the trust list binds to "boss" signs a packet whose owner says "olga": the
    # list says who holds that key, so the packet is refused (issue 23's rule for sheets,
    # at the packet's join). A bare fingerprint line trusts the key under any name.
    db = tmp_path / "o.db"
    _run("import", corpus, "--db", db)
    key = keys.generate_key("olga")
    _run("study", "create", "p", "--raters", "ann", "--per-run", "1", "--owner", "olga", "--db", db)
    packet = tmp_path / "packet"
    assert _run("study", "packet", "p", "--rater", "ann", "--out", packet, "--db", db) == 0
    line = key.public.line()
    cases = {
        "as-boss.pub": (line.rsplit(" ", 1)[0] + " boss\n", 1),
        "as-olga.pub": (line + "\n", 0),
        "fingerprint.pub": (key.fingerprint + "\n", 0),
    }
    for name, (text, code) in cases.items():
        (tmp_path / name).write_text(text)
        capsys.readouterr()
        joined = _run("study", "join", packet, "--trust", tmp_path / name,
                      "--db", tmp_path / f"{name}.db")  # fmt: skip
        assert joined == code, (name, capsys.readouterr().err)
    assert _run("study", "join", packet, "--trust", tmp_path / "as-boss.pub",
                "--db", tmp_path / "again.db") == 1  # fmt: skip
    err = capsys.readouterr().err
    assert "binds key" in err and "'boss'" in err and "'olga'" in err

"""The verbs: study gold add (from a reference rater's signed sheet, and refused from a
sheet of a study's own rater), list, remove; study qualify; raters accuracy --study."""

from __future__ import annotations

import json
from pathlib import Path

from reviewer.cli import main
from reviewer.sheets import keys
from reviewer.workspace import ReviewStore


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


def _signed_sheet(tmp_path: Path, corpus_paths, fill_rating, rater: str) -> Path:
    """``rater`` rates run 0 on their own database (outside any study) and signs it."""
    db = tmp_path / f"{rater}.db"
    keys.generate_key(rater)
    with ReviewStore.open(db) as store:
        store.import_paths(corpus_paths)
        run = store.list_runs()[0]
        r = fill_rating(store, store.start_rating(run.run_pk, rater), score=3)
        store.submit(r.rating_pk, expected_version=r.version)
    out = tmp_path / f"sheets-{rater}"
    assert _run("sign", "--run", run.run_id, "--rater", rater, "--out", out, "--db", db) == 0
    (sheet,) = out.glob("*.sheet.json")
    return sheet


def test_a_reference_raters_sheet_becomes_gold_and_is_listed_and_withdrawn(
    gold_db: Path, tmp_path: Path, make_run, fill_rating, capsys
) -> None:
    paths = [make_run(tmp_path / "corpus", n) for n in range(14)]  # the same files' bytes
    sheet = _signed_sheet(tmp_path, paths, fill_rating, "rex")
    capsys.readouterr()
    assert _run("study", "gold", "add", "--sheet", sheet, "--owner", "olga", "--db", gold_db) == 0
    assert "1 reference(s) signed by olga" in capsys.readouterr().out
    with ReviewStore.open(gold_db) as store:
        ref = next(r for r in store.gold_references() if r.payload.source.kind == "sheet")
        assert ref.payload.source.rater == "rex" and ref.owner == "olga"
        assert {i.score for i in ref.payload.items} == {3}
        run_id = ref.payload.run.run_id
    assert _run("study", "gold", "list", "--db", gold_db) == 0
    assert "sheet of rex" in capsys.readouterr().out
    assert _run("study", "gold", "list", "g", "--db", gold_db) == 0
    listed = capsys.readouterr().out
    assert "qualification" in listed and "REFUSED" not in listed
    assert _run("study", "gold", "remove", run_id, "--owner", "olga", "--db", gold_db) == 0
    with ReviewStore.open(gold_db) as store:
        assert all(r.payload.run.run_id != run_id for r in store.gold_references())
        # Withdrawn from the pool; a study that seeded the run keeps its gold.
        assert any(r.removed_at for r in store.gold_references(active_only=False))


def test_a_sheet_of_a_studys_own_rater_is_no_gold_of_it(
    tmp_path: Path, make_run, fill_rating, capsys
) -> None:
    """ann's own signed sheet, taken as the owner's reference: study create refuses it."""
    paths = [make_run(tmp_path / "corpus", n) for n in range(6)]
    sheet = _signed_sheet(tmp_path, paths, fill_rating, "ann")
    keys.generate_key("olga")
    db = tmp_path / "owner.db"
    assert _run("import", tmp_path / "corpus", "--db", db) == 0
    assert _run("study", "gold", "add", "--sheet", sheet, "--owner", "olga", "--db", db) == 0
    capsys.readouterr()
    code = _run("study", "create", "s", "--raters", "ann,bob", "--per-run", "1", "--owner",
                "olga", "--gold-fraction", "0.2", "--db", db)  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and "ann rates in study 's'" in err[0]
    with ReviewStore.open(db) as store:
        assert store.studies() == []  # nothing of the study was stored


def test_qualify_and_accuracy_against_gold_from_the_command_line(
    gold_db: Path, fill_rating, gold, capsys
) -> None:
    with ReviewStore.open(gold_db) as store:
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        gold.rate(store, fill_rating, "g", qual, "ann", score=2)
        gold.rate(store, fill_rating, "g", qual, "bob", score=0)
    capsys.readouterr()
    assert _run("study", "qualify", "g", "--dry-run", "--db", gold_db) == 0
    out = capsys.readouterr().out
    assert "ann\tqualified\t" in out and "bob\tnot qualified\t" in out
    assert "cat\tpending (0/1 rated)" in out
    assert _run("study", "qualify", "g", "--db", gold_db) == 0
    assert "(signed now)" in capsys.readouterr().out
    assert _run("raters", "accuracy", "--study", "g", "--format", "json", "--db", gold_db) == 0
    rows = json.loads(capsys.readouterr().out)
    ann = next(r for r in rows if r["rater"] == "ann" and r["metric"] == "all")
    bob = next(r for r in rows if r["rater"] == "bob" and r["metric"] == "all")
    # 7 metrics, reference 2: ann's 2s all exact; bob's 0s all two below.
    assert (ann["n"], ann["exact"], ann["signed"]) == (7, 1.0, 0.0)
    assert (bob["exact"], bob["within_one"], bob["signed"]) == (0.0, 0.0, -2.0)
    assert _run("raters", "accuracy", "--db", gold_db) == 2  # neither a reference nor a study


def test_study_create_names_the_gold_runs_of_its_selection_it_leaves_out(
    gold_db: Path, capsys
) -> None:
    """A gold run is never an ordinary run of a study: the owner's references in the
    selection that are not drawn as gold are out of the study, and study create names them,
    so every selected run is accounted for (issue 30's trial: runs went quietly)."""
    with ReviewStore.open(gold_db) as store:
        selected = {r.run_id for r in store.list_runs()}
    capsys.readouterr()
    assert _run("study", "create", "g2", "--raters", "dan,eve", "--per-run", "1", "--protocol",
                "blind", "--seed", "9", "--owner", "olga", "--gold-fraction", "0.1",
                "--db", gold_db) == 0  # fmt: skip
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if "gold references of olga" in x)
    named = set(line.split(" left out: ", 1)[1].split(": gold", 1)[0].split(", "))
    assert _run("study", "assignments", "g2", "--format", "json", "--db", gold_db) == 0
    assigned = {a["run_id"] for a in json.loads(capsys.readouterr().out)}
    # olga holds references of 4 runs; 0.1 of a queue of 7 draws one or two of them.
    assert named and not named & assigned and len(named) < 4
    assert named | assigned == selected

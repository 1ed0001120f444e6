"""Until the owner's signed decision says a rater qualified, that rater rates only the
study's qualification runs: in the window (``start_study_rating``), ``ratings import``,
``collect`` and ``audit verify`` alike. A rater who failed stays restricted."""

from __future__ import annotations

import csv
import shutil
import sqlite3
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.rubric import default_rubric
from reviewer.sheets import keys
from reviewer.store import StoreError
from reviewer.workspace import ReviewStore

WHY = "ann has not qualified for study g: only its qualification runs can be rated"


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


def _runs(store: ReviewStore, rater: str) -> tuple[int, int]:
    """``(qualification run, a non-qualification run)`` of the rater's queue in "g"."""
    qual = {g.run_pk for g in store.study_gold("g") if g.qualification}
    queue = [r.run_pk for r in store.list_runs(study="g", rater=rater)]
    return next(pk for pk in queue if pk in qual), next(pk for pk in queue if pk not in qual)


def _blind_file(path: Path, run_ids: list[str]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["run_id", "metric", "outcome", "score", "comment"])
        for run_id in run_ids:
            for metric in default_rubric().metric_ids:
                w.writerow([run_id, metric, "applicable", 2, "ok"])
    return path


def test_the_window_starts_only_qualification_runs_until_the_rater_qualifies(
    gold_db: Path, olga_key, fill_rating, gold
) -> None:
    with ReviewStore.open(gold_db) as store:
        qual, other = _runs(store, "ann")
        with pytest.raises(StoreError, match=WHY):
            store.start_study_rating("g", other, "ann")
        assert store.live_rating(other, "ann") is None
        gold.rate(store, fill_rating, "g", qual, "ann")  # the qualification run: allowed
        gold.qualify(store, olga_key, raters=("ann",))
        gold.rate(store, fill_rating, "g", other, "ann")  # qualified: the whole queue
        assert store.live_rating(other, "ann") is not None


def test_a_rater_who_failed_stays_restricted(gold_db: Path, olga_key, gold) -> None:
    with ReviewStore.open(gold_db) as store:
        _, other = _runs(store, "bob")
        gold.qualify(store, olga_key, qualified=False, raters=("bob",))
        with pytest.raises(StoreError, match="bob failed qualification for study g"):
            store.start_study_rating("g", other, "bob")


def test_ratings_import_refuses_the_other_runs_with_their_line(
    gold_db: Path, tmp_path: Path, capsys
) -> None:
    with ReviewStore.open(gold_db) as store:
        qual, other = _runs(store, "ann")
        ids = {pk: store.get_run(pk).run_id for pk in (qual, other)}
    both = _blind_file(tmp_path / "both.csv", [ids[qual], ids[other]])
    argv = ("ratings", "import", "--rater", "ann", "--phase", "blind", "--study", "g")
    assert _run(*argv, both, "--db", gold_db) != 0
    err = capsys.readouterr().err
    n = len(default_rubric().metric_ids)
    assert f"both.csv:{n + 2}: {ids[other]}: {WHY}" in err
    assert ids[qual] not in err
    only_qual = _blind_file(tmp_path / "qual.csv", [ids[qual]])
    assert _run(*argv, only_qual, "--db", gold_db) == 0


def test_collect_refuses_an_unqualified_raters_sheet_and_keeps_the_others(
    gold_db: Path, olga_key, fill_rating, gold, tmp_path: Path, capsys
) -> None:
    """Ann's sheets come from a copy where she qualified; on the owner's database she has
    not: her qualification sheet is stored, the other refused, by file."""
    copy = tmp_path / "elsewhere.db"
    shutil.copy(gold_db, copy)
    keys.generate_key("ann")
    sheets = tmp_path / "sheets"
    with ReviewStore.open(copy) as store:
        qual, other = _runs(store, "ann")
        gold.qualify(store, olga_key, raters=("ann",))
        ids = {pk: store.get_run(pk).run_id for pk in (qual, other)}
        for pk in (qual, other):
            gold.rate(store, fill_rating, "g", pk, "ann")
    for pk in (qual, other):
        assert _run("sign", "--run", ids[pk], "--rater", "ann", "--out", sheets, "--db", copy) == 0
    capsys.readouterr()
    assert _run("collect", sheets, "--db", gold_db) != 0
    out = capsys.readouterr()
    refused = [line for line in (out.out + out.err).splitlines() if WHY in line]
    assert len(refused) == 1 and ".sheet.json" in refused[0]
    with ReviewStore.open(gold_db) as store:
        assert store.live_rating(qual, "ann") is not None
        assert store.live_rating(other, "ann") is None


def test_audit_verify_flags_a_rating_put_in_by_hand(gold_db: Path, capsys) -> None:
    with ReviewStore.open(gold_db) as store:
        _, other = _runs(store, "ann")
        pk = store.start_rating(other, "ann").rating_pk  # outside the study: allowed
    with sqlite3.connect(gold_db) as conn:  # then moved into it with the sqlite3 shell
        conn.execute(
            "UPDATE ratings SET study_pk = (SELECT study_pk FROM studies WHERE name = 'g')"
            " WHERE rating_pk = ?",
            (pk,),
        )
    capsys.readouterr()
    assert _run("audit", "verify", "--db", gold_db) != 0
    out = capsys.readouterr()
    assert f"rating {pk}: {WHY}" in out.out + out.err


def test_the_template_lists_only_the_qualification_runs_until_the_rater_qualifies(
    gold_db: Path, olga_key, gold, tmp_path: Path
) -> None:
    with ReviewStore.open(gold_db) as store:
        qual, other = _runs(store, "ann")
        ids = {pk: store.get_run(pk).run_id for pk in (qual, other)}

    def listed() -> set[str]:
        out = tmp_path / "t.csv"
        argv = ("ratings", "template", "--rater", "ann", "--study", "g", "--phase", "blind")
        assert _run(*argv, "--out", out, "--db", gold_db) == 0
        with out.open(newline="", encoding="utf-8") as fh:
            return {row["run_id"] for row in csv.DictReader(fh)}

    assert listed() == {ids[qual]}
    with ReviewStore.open(gold_db) as store:
        gold.qualify(store, olga_key, raters=("ann",))
    assert {ids[qual], ids[other]} <= listed()

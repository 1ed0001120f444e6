"""Gold as the reference of the dashboard's Raters tab and the report's Raters page: the
same figures ``raters accuracy --study`` gives, offered only where the study has gold."""

from __future__ import annotations

from pathlib import Path

from reviewer.cli import main
from reviewer.gold import service
from reviewer.gold.model import GOLD_RATER
from reviewer.quality import report
from reviewer.quality.source import scores
from reviewer.results.raters_source import GOLD, gold_reference, quality_for
from reviewer.sheets import keys
from reviewer.workspace import ReviewStore


def _rate_everything(store: ReviewStore, fill, gold, *, score: int) -> None:
    """Every assigned run of study "g" rated by its rater (every metric ``score``), each
    rater qualified first (else only the qualification run may be rated)."""
    gold.qualify(store, keys.load_key("olga"))
    for row in store.study_assignments("g"):
        gold.rate(store, fill, "g", row.run_pk, row.rater, score=score)


def test_gold_is_offered_and_measured_like_the_verb(gold_db: Path, fill_rating, gold) -> None:
    with ReviewStore.open(gold_db) as store:
        _rate_everything(store, fill_rating, gold, score=3)
        summary = quality_for(store, viewer=None, study="g", reference=GOLD, resamples=50)
        every = scores(store, study="g") + service.reference_scores(store, "g")
        expected = report.accuracy_rows(every, GOLD_RATER)
    assert summary.references[0] == GOLD
    assert summary.accuracy is not None and summary.accuracy.reference == GOLD
    got = {
        (a.rater, a.metric): (a.n, a.exact, a.within_one, a.signed) for a in summary.accuracy.lines
    }
    want = {(r["rater"], r["metric"]): (r["n"], r["exact"], r["within_one"], r["signed"])
            for r in expected}  # fmt: skip
    assert got == want and got
    # References score 2, raters 3: every gold item is one point high, none exact.
    assert all(v[1] == 0.0 and v[2] == 1.0 and v[3] == 1.0 for v in got.values())


def test_no_gold_is_offered_without_a_study_or_for_a_study_without_gold(
    gold_db: Path, fill_rating, gold
) -> None:
    with ReviewStore.open(gold_db) as store:
        _rate_everything(store, fill_rating, gold, score=2)
        assert gold_reference(store, None) is None
        summary = quality_for(store, viewer=None, reference=GOLD, resamples=50)
    assert GOLD not in summary.references
    assert summary.accuracy is None and summary.missing_reference == GOLD


def test_reference_gold_on_the_command_line_asks_for_the_study(
    gold_db: Path, fill_rating, gold, tmp_path: Path, capsys
) -> None:
    """``--reference gold`` without ``--study`` says gold is a study's, in one line, before
    any work; with the study, ``raters accuracy`` gives what it gives by default."""
    with ReviewStore.open(gold_db) as store:
        _rate_everything(store, fill_rating, gold, score=3)

    def run(*argv: object) -> int:
        return main([str(a) for a in (*argv, "--db", gold_db)])

    capsys.readouterr()
    out = tmp_path / "r.html"
    assert run("report", "--reference", "gold", "--out", out) == 2
    err = capsys.readouterr().err
    assert "--reference gold" in err and "--study NAME" in err and not out.exists()
    assert run("raters", "accuracy", "--reference", "gold", "--format", "csv") == 2
    assert "--study NAME" in capsys.readouterr().err
    assert run("raters", "accuracy", "--study", "g", "--format", "csv") == 0
    default = capsys.readouterr().out
    assert run("raters", "accuracy", "--study", "g", "--reference", "gold", "--format", "csv") == 0
    assert capsys.readouterr().out == default and default.count("\n") > 1
    assert run("report", "--study", "g", "--reference", "gold", "--out", out) == 0
    assert "Accuracy against gold" in out.read_text(encoding="utf-8")

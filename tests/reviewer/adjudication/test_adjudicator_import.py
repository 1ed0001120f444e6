"""``ratings import`` by the adjudicator of a run is refused in one line, no traceback
(issue 23): the file names the run, the rule and what to do; nothing is stored."""

from __future__ import annotations

import csv
from pathlib import Path

from reviewer.cli import main
from reviewer.rubric import default_rubric
from reviewer.workspace import ReviewStore


def test_the_adjudicator_of_a_run_cannot_import_a_rating_of_it(
    disputed: ReviewStore, adjudicate, tmp_path: Path, capsys
) -> None:
    adjudicate(disputed)
    run_id = disputed.get_run(1).run_id
    path = tmp_path / "dana.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["run_id", "metric", "outcome", "score", "comment"])
        for metric in default_rubric().metric_ids:
            w.writerow([run_id, metric, "applicable", 2, "ok"])
    before = disputed.db.conn.execute("SELECT count(*) FROM ratings").fetchone()[0]
    capsys.readouterr()
    code = main(["ratings", "import", str(path), "--rater", "dana", "--db", str(disputed.path)])
    _out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    assert f"dana.csv:2: {run_id}: dana adjudicates this run" in err
    assert "the adjudicator of a run cannot rate it" in err
    assert disputed.db.conn.execute("SELECT count(*) FROM ratings").fetchone()[0] == before

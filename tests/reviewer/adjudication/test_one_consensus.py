"""One consensus everywhere: the report and the dashboard show what the commands print."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict

from reviewer.adjudication.rule import CONSENSUS_RULE
from reviewer.cli import main
from reviewer.results.charts.stats import consensus_by_model
from reviewer.results.report import facts
from reviewer.results.source import gather
from reviewer.results.tables import humans_table
from reviewer.workspace import ReviewStore


def _team(store: ReviewStore, card, rate, fill, adjudicate) -> ReviewStore:
    """Runs 1–5 (coverage 0.1 … 0.9) rated by ann and bob: run 1 as in ``disputed`` and
    adjudicated (safety 1, not the median 1.5), run 3's procedure_application open (0
    against 3), the others agreed."""
    # Distinct coverages so that rho is defined.
    store.add_scorecards([card(n).model_copy(update={"coverage": 0.1 + 0.2 * n}) for n in range(5)])
    rate(store, 1, "ann", fill, {"safety": ("applicable", 0), "problem_solving": ("applicable", 1)})
    rate(
        store, 1, "bob", fill, {"safety": ("applicable", 3), "verification": ("not_observed", None)}
    )
    rate(store, 2, "ann", fill, {})
    scores = {2: (1, 1), 3: (0, 3), 4: (2, 3), 5: (3, 3)}
    for pk, (a, b) in scores.items():
        if pk != 2:  # ann already rated run 2
            rate(store, pk, "ann", fill, {"procedure_application": ("applicable", a)})
        rate(store, pk, "bob", fill, {"procedure_application": ("applicable", b)})
    adjudicate(store)
    return store


def test_the_report_shows_what_validity_and_consensus_export_print(
    store: ReviewStore, db_path, capsys, make_card, rate_run, fill_rating, adjudicate
) -> None:
    _team(store, make_card, rate_run, fill_rating, adjudicate)
    data = gather(store, resamples=0)
    assert main(["validity", "--format", "json", "--db", str(db_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert main(["consensus", "export", "--db", str(db_path)]) == 0
    exported = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))

    # Validity: the report's figures are the command's, open disputes counted the same way.
    assert data.validity is not None
    assert [m.model_dump() for m in data.validity.metrics] == printed["metrics"]
    procedure = next(m for m in printed["metrics"] if m["metric_id"] == "procedure_application")
    assert procedure["open_left_out"] == 1 and procedure["n"] == 4
    assert procedure["rho_open_at_median"] is not None and procedure["n_open_at_median"] == 5
    assert printed["open_disputes"] == data.validity.open_disputes == 1  # run 3's
    assert data.full_consensus.open_count() == 1
    # The title page says which consensus, how many disputes are open, and the judges.
    said = dict(facts(data))
    assert said["Consensus"] == CONSENSUS_RULE and said["Judges"] == "none"
    assert said["Open disputes"].startswith("1 (run, metric) values on 1 runs, left out")

    # The heatmap: the mean per model of the exported scores (open ones have none).
    model_of = {r.run_pk: r.model for r in data.runs}
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in exported:
        if row["score"]:
            sums[model_of[int(row["run_pk"])]][row["metric"]].append(float(row["score"]))
    heatmap = consensus_by_model(data)
    assert {
        model: {m: (math.fsum(v) / len(v), len(v)) for m, v in metrics.items()}
        for model, metrics in sums.items()
    } == heatmap
    assert data.consensus[("1", "safety")] == 1.0  # adjudicated, not the raters' median 1.5
    cells = {row[0]: row[1:] for row in humans_table(data).rows}
    titles = [m.id for m in data.metrics]
    for model, metrics in heatmap.items():
        for metric, (mean, _n) in metrics.items():
            assert cells[model][titles.index(metric)].startswith(f"{mean:.2f}")


def test_reported_values_from_plain_pairs_are_the_disputes_reported(
    store: ReviewStore, make_card, rate_run, fill_rating, adjudicate
) -> None:
    # The dashboard reads the reported values from plain pairs; the adjudication view from
    # the dispute rows. Both: adjudicated, agreed and open, one per (run, metric).
    import statistics

    from reviewer.adjudication.consensus import reported_values

    _team(store, make_card, rate_run, fill_rating, adjudicate)
    expected = {}
    for d in store.disputes():
        assert d.reported is not None
        scores = [v.score for v in d.values if v.score is not None]
        median = float(statistics.median(scores)) if scores else None
        expected[(str(d.run_pk), d.metric_id)] = (
            d.reported.outcome, d.reported.score, d.reported.reached, median
        )  # fmt: skip
    found = reported_values(store)
    assert {k: (v.outcome, v.score, v.reached, v.median) for k, v in found.items()} == expected
    assert {v.reached for v in found.values()} == {"adjudicated", "agreed", "open"}
    # One run only: the same values, of that run.
    assert reported_values(store, run_pk=3) == {k: v for k, v in found.items() if k[0] == "3"}

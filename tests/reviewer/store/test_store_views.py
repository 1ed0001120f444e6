"""The analyst views and docs/database.md: every table, view and column is on the page, and
its queries run and agree with ``ratings export``."""

from __future__ import annotations

import csv
import io
import re
import sqlite3
from collections import defaultdict
from pathlib import Path

from reviewer.cli import main
from reviewer.evidence import Citation
from reviewer.store import Rating
from reviewer.workspace import ReviewStore

DOC = Path(__file__).resolve().parents[3] / "docs" / "database.md"


def doc_query(heading: str) -> str:
    """The first ```sql block after ``heading`` in docs/database.md."""
    text = DOC.read_text(encoding="utf-8")
    after = text[text.index(heading) :]
    match = re.search(r"```sql\n(.*?)```", after, re.S)
    assert match, f"no SQL block after {heading!r}"
    return match.group(1)


def _rate(store: ReviewStore, rating: Rating, scores: list[int | None]) -> Rating:
    """Give the metrics of ``rating`` these scores in rubric order; None is not observed."""
    for metric_id, score in zip(rating.items, scores, strict=False):
        rating = store.save_item(
            rating.rating_pk,
            metric_id,
            outcome="applicable" if score is not None else "not_observed",
            score=score,
            comment="seen in the trajectory",
            expected_version=rating.version,
        )
        if score in (0, 1):  # a low score cites the procedure's first action
            rating = store.cite(rating.rating_pk, _GT0.model_copy(update={"metric_id": metric_id}),
                                expected_version=rating.version)  # fmt: skip
    return rating


_GT0 = Citation(metric_id="safety", kind="ground_truth", ref=0, step="GT:1", label="GT:1")


def _submit(store: ReviewStore, rating: Rating, scores: list[int | None]) -> Rating:
    rating = _rate(store, rating, scores)
    return store.submit(rating.rating_pk, expected_version=rating.version)


def _history(store: ReviewStore) -> None:
    """Live, superseded, signed and draft ratings, with different scores each.

    run_pk n is fake card n - 1: runs 1 and 3 are model-b, runs 2 and 4 model-a.
    """
    # ann, run 1: submitted, then corrected and submitted again: only the correction counts.
    first = _submit(store, store.start_rating(1, "ann"), [0] * 7)
    _submit(store, store.supersede(first.rating_pk, rater="ann"), [3, 2, 1, 3, 2, 1, None])
    # ann, run 2: submitted, then a draft correction: the submitted rating still counts.
    kept = _submit(store, store.start_rating(2, "ann"), [1, 1, 2, 2, 3, 3, 0])
    _rate(store, store.supersede(kept.rating_pk, rater="ann"), [3] * 7)
    # bob, run 1: submitted and signed.
    signed = _submit(store, store.start_rating(1, "bob"), [2, None, 2, 0, 1, 2, 3])
    store.mark_signed(signed.rating_pk, sheet_id="sheet-1", sheet_json="{}")
    # bob, run 3: a draft only, never counted.
    _rate(store, store.start_rating(3, "bob"), [0] * 7)
    # ann, run 4: submitted.
    _submit(store, store.start_rating(4, "ann"), [2, 3, None, 1, 0, 2, 2])


def _means_from_export(
    store: ReviewStore, tmp_path: Path
) -> dict[tuple[str, str], tuple[float, int]]:
    """Mean and count per (model, metric) of applicable scores, from `ratings export`."""
    out = tmp_path / "ratings.csv"
    assert main(["ratings", "export", "--db", str(store.path), "--out", str(out)]) == 0
    scores: dict[tuple[str, str], list[int]] = defaultdict(list)
    for row in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))):
        if row["outcome"] == "applicable":
            scores[(row["model"], row["metric"])].append(int(row["score"]))
    return {key: (sum(v) / len(v), len(v)) for key, v in scores.items()}


def test_the_documented_query_matches_the_export(seeded: ReviewStore, tmp_path: Path) -> None:
    _history(seeded)
    conn = seeded.db.conn
    rows = conn.execute(doc_query("### Mean score per metric per model")).fetchall()
    from_view = {(model, metric): (mean, n) for model, metric, mean, n in rows}
    expected = _means_from_export(seeded, tmp_path)
    assert from_view.keys() == expected.keys()
    for key, (mean, n) in expected.items():
        assert from_view[key][1] == n, key
        assert abs(from_view[key][0] - mean) < 1e-12, key
    # model-b, procedure_application: ann's correction 3 and bob's signed 2 -> 2.5 over 2
    # (ann's superseded 0 and bob's draft 0 on run 3 are not counted).
    assert from_view[("model-b", "procedure_application")] == (2.5, 2)
    # model-a, procedure_application: ann's run 2 (1; its draft 3 is not counted), run 4 (2).
    assert from_view[("model-a", "procedure_application")] == (1.5, 2)
    # The naive join would count the superseded and draft ratings: the views matter here.
    naive = conn.execute(
        "SELECT avg(i.score) FROM rating_items i JOIN ratings g USING (rating_pk)"
        " JOIN runs r USING (run_pk) WHERE r.model = 'model-b'"
        " AND i.metric_id = 'procedure_application'"
    ).fetchone()[0]
    assert naive != 2.5


def test_current_ratings_holds_one_live_decision_per_rater_and_run(seeded: ReviewStore) -> None:
    _history(seeded)
    rows = seeded.db.conn.execute(
        "SELECT rater, run_pk, status, sheet_id, supersedes_pk IS NOT NULL, file_version,"
        " rubric_version, edit_count > 1 FROM current_ratings ORDER BY rater, run_pk"
    ).fetchall()
    assert [r[:3] for r in rows] == [
        ("ann", 1, "submitted"),
        ("ann", 2, "submitted"),
        ("ann", 4, "submitted"),
        ("bob", 1, "signed"),
    ]
    assert [r[3] for r in rows] == [None, None, None, "sheet-1"]
    assert [r[4] for r in rows] == [1, 0, 0, 0]  # only ann's run 1 is a correction
    assert {(r[5], r[6], r[7]) for r in rows} == {(1, 1, 1)}


def test_the_views_use_names_that_need_no_quoting(store: ReviewStore) -> None:
    conn = store.db.conn
    for view in ("current_ratings", "current_rating_items"):
        names = [row[1] for row in conn.execute(f"PRAGMA table_info({view})")]
        assert names, view
        assert not {"order", "version"} & set(names), (view, names)
    assert {"order_score", "file_version", "rubric_version", "edit_count"} <= {
        row[1] for row in conn.execute("PRAGMA table_info(current_ratings)")
    }


def test_every_documented_query_runs(seeded: ReviewStore) -> None:
    _history(seeded)
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```sql\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    for sql in blocks:
        seeded.db.conn.execute(sql).fetchall()  # no unsafe fake run: the third may be empty


_HEADING = re.compile(r"^### `(\w+)`", re.M)


def documented() -> dict[str, set[str]]:
    """Table or view name -> the column names its section lists."""
    text = DOC.read_text(encoding="utf-8")
    sections: dict[str, set[str]] = {}
    starts = [(m.group(1), m.end()) for m in _HEADING.finditer(text)]
    for i, (name, start) in enumerate(starts):
        end = text.rfind("\n", 0, starts[i + 1][1]) if i + 1 < len(starts) else len(text)
        body = text[start:end]
        names: set[str] = set()
        for line in body.splitlines():
            if line.startswith("| `"):
                first_cell = line.split("|")[1]
                names |= {n.strip('"') for n in re.findall(r"`([^`]+)`", first_cell)}
        sections[name] = names
    return sections


def actual(conn: sqlite3.Connection) -> dict[str, set[str]]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
        " AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return {
        name: {col[1] for col in conn.execute(f'PRAGMA table_info("{name}")')} for (name,) in rows
    }


def test_every_table_and_view_is_documented_with_exactly_its_columns(store: ReviewStore) -> None:
    doc = documented()
    schema = actual(store.db.conn)
    assert set(schema) - set(doc) == set(), "tables or views missing from docs/database.md"
    assert set(doc) - set(schema) == set(), "docs/database.md names tables that do not exist"
    for name, columns in schema.items():
        assert doc[name] == columns, (
            f"{name}: undocumented {sorted(columns - doc[name])},"
            f" documented but absent {sorted(doc[name] - columns)}"
        )


def test_the_mean_score_query_leaves_judges_out(seeded: ReviewStore) -> None:
    _history(seeded)
    conn = seeded.db.conn
    query = doc_query("### Mean score per metric per model")
    humans_only = conn.execute(query).fetchall()
    # A judge rates run 1 with a 0 everywhere; the people's means must not move.
    judged = _submit(seeded, seeded.start_rating(1, "judge-x"), [0] * 7)
    conn.execute("UPDATE raters SET kind = 'judge' WHERE name = 'judge-x'")
    kinds = dict(conn.execute("SELECT rater, rater_kind FROM current_ratings").fetchall())
    assert kinds["judge-x"] == "judge" and judged.status == "submitted"
    assert conn.execute(query).fetchall() == humans_only
    # The naive mean over the view without the filter would have moved.
    unfiltered = query.replace(" AND rater_kind = 'human'", "")
    assert unfiltered != query
    assert conn.execute(unfiltered).fetchall() != humans_only


def test_the_relative_links_of_the_page_resolve() -> None:
    text = DOC.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
        assert (DOC.parent / target).exists(), target

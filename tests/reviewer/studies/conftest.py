"""Fixtures for the study tests: a blind study rated on two machines (the ``team``)."""

from __future__ import annotations

import base64
import csv
import json
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.rubric import default_rubric
from reviewer.sheets import keys, sheet
from reviewer.sheets.keys import RaterKey
from reviewer.workspace import ReviewStore

METRICS = default_rubric().metric_ids


def _run(*argv: object) -> int:
    """``a320-review ARGV...``, each argument as a string; the exit code."""
    return main([str(a) for a in argv])


def ratings_file(path: Path, run_ids: list[str], *, score: int, revise: bool = False) -> Path:
    """A ratings CSV: every metric of each run scored ``score``; with ``revise``, the first
    metric changed to 1 with its reason (a final phase that revises one metric)."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["run_id", "metric", "outcome", "score", "comment", "reason", "evidence"])
        for run_id in run_ids:
            for i, metric in enumerate(METRICS):
                changed = revise and i == 0
                reason = "the reset was there after all" if changed else ""
                cited = "GT:1" if changed else ""  # a score of 1 cites the row it is about
                w.writerow(
                    [run_id, metric, "applicable", 1 if changed else score, "ok", reason, cited]
                )
    return path


@pytest.fixture
def team(tmp_path: Path, corpus: Path, capsys) -> dict[str, Path]:
    """Olga's study "pilot" (blind, ann and bob rate all 4 runs); each rater joined it on
    their own database, imported blind and final ratings and signed every one. Paths:
    ``owner``, ``ann``, ``bob`` (databases), ``sheets-ann``, ``sheets-bob`` (sheet folders)."""
    owner_db = tmp_path / "owner.db"
    assert _run("import", corpus, "--db", owner_db) == 0
    for name in ("olga", "ann", "bob"):
        keys.generate_key(name)
    assert (
        _run(
            "study",
            "create",
            "pilot",
            "--raters",
            "ann,bob",
            "--per-run",
            "2",
            "--protocol",
            "blind",
            "--seed",
            "7",
            "--owner",
            "olga",
            "--db",
            owner_db,
        )
        == 0
    )
    paths = {"owner": owner_db}
    for rater in ("ann", "bob"):
        packet = tmp_path / f"packet-{rater}"
        db = tmp_path / f"{rater}.db"
        assert (
            _run("study", "packet", "pilot", "--rater", rater, "--out", packet, "--db", owner_db)
            == 0
        )
        assert _run("study", "join", packet, "--db", db) == 0
        with ReviewStore.open(db) as store:
            run_ids = [r.run_id for r in store.list_runs(study="pilot", rater=rater)]
        assert len(run_ids) == 4  # k = 2 of 2 raters: everyone rates every run
        blind = ratings_file(tmp_path / f"{rater}-blind.csv", run_ids, score=2)
        assert (
            _run("ratings", "import", blind, "--rater", rater, "--phase", "blind", "--db", db) == 0
        )
        final = ratings_file(tmp_path / f"{rater}-final.csv", run_ids, score=2, revise=True)
        assert (
            _run("ratings", "import", final, "--rater", rater, "--phase", "final", "--db", db) == 0
        )
        for run_id in run_ids:
            assert (
                _run(
                    "sign",
                    "--run",
                    run_id,
                    "--rater",
                    rater,
                    "--out",
                    tmp_path / f"sheets-{rater}",
                    "--db",
                    db,
                )
                == 0
            )
        paths[rater] = db
        paths[f"sheets-{rater}"] = tmp_path / f"sheets-{rater}"
    capsys.readouterr()
    return paths


def resign_sheet(
    path: Path, key: RaterKey, out: Path, change=None, *, name: str | None = None
) -> Path:
    """What an attacker holding ``key`` does: the sheet at ``path`` with its payload changed
    by ``change(payload_dict)``, signed again, validly, under ``name`` (the key's own rater
    name by default), written to ``out``."""
    envelope = json.loads(path.read_text())
    payload = json.loads(envelope["payload"])
    payload["rater"] = {"name": name or key.rater, "public_key": key.public.b64,
                        "fingerprint": key.public.fingerprint}  # fmt: skip
    if change is not None:
        change(payload)
    text = sheet.canonical_bytes(payload).decode()
    envelope.update(public_key=key.public.b64, payload=text,
                    signature=base64.b64encode(key.sign(text.encode())).decode())  # fmt: skip
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(envelope))
    return out


@pytest.fixture
def resign():
    """:func:`resign_sheet`."""
    return resign_sheet

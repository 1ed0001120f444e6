"""An adjudication sheet names only ratings that exist (issue 23): ``collect`` refuses one
whose resolved rating sheets are not here, and ``audit verify`` finds one that names a
rating the database does not hold."""

from __future__ import annotations

from pathlib import Path

from reviewer.adjudication.signing import AdjudicationSigner
from reviewer.cli import main
from reviewer.sheets import keys
from reviewer.workspace import ReviewStore


def _sign(store: ReviewStore, out: Path) -> Path:
    return AdjudicationSigner(store).sign(1, keys.load_key("dana"), out).path


def test_an_adjudication_of_ratings_not_here_is_refused(
    disputed: ReviewStore, signed: Path, adjudicate, tmp_path: Path, make_card, capsys,
    tamper, problems_of
) -> None:  # fmt: skip
    adjudicate(disputed)
    sheet = _sign(disputed, signed)
    other = tmp_path / "owner.db"
    with ReviewStore.open(other) as store:
        store.add_scorecards([make_card(n) for n in range(5)])
    capsys.readouterr()
    assert main(["collect", str(sheet), "--db", str(other)]) == 1
    out = capsys.readouterr().out
    assert f"{sheet}: refused" in out and "which is not a rating of this run here" in out
    assert "collect the rating sheets first" in out
    # With the rating sheets it goes in; then a resolved sheet swapped away by hand is found.
    assert main(["collect", str(signed), "--db", str(other)]) == 0
    assert problems_of(other) == []
    tamper(other, "UPDATE sheets SET sheet_id = 'elsewhere' WHERE rating_pk = 1",
           "UPDATE collected_sheets SET sheet_id = 'elsewhere' WHERE rating_pk = 1")  # fmt: skip
    assert any("which is not a rating of this run here" in p for p in problems_of(other))

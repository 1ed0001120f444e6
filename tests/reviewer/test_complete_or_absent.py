"""Every file written is complete or absent, and a rating is signed only when both its
files are (issue 27): ``sign`` on a nearly full disk wrote half a PDF, said "wrote …pdf",
exited 0 and locked the rating."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from reviewer import outfile
from reviewer.cli import main
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.sheets import keys
from reviewer.workspace import ReviewStore

#: A whole (if empty) PDF as a renderer would draw it: header first, %%EOF last.
WHOLE_PDF = b"%PDF-1.4\n" + b"x" * 4000 + b"\ntrailer\n<<>>\nstartxref\n0\n%%EOF\n"


@pytest.fixture(autouse=True)
def review_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("A320_REVIEW_HOME", str(home))
    return home


@pytest.fixture
def rated_db(tmp_path: Path) -> Path:
    """One run that alice rated completely and submitted; alice has a key."""
    trajectory = (
        TrajectoryBuilder(bundled_scenario("elec-apu-gen-fault"), run_id="run-cli", model="m")
        .turn()
        .read()
        .set("apu_gen", 0)
        .done()
        .final("agent_done", passed=True)
        .write(tmp_path / "run-cli.jsonl")
    )
    db = tmp_path / "review.db"
    with ReviewStore.open(db) as store:
        store.import_paths([trajectory])
        run_pk = store.list_runs()[0].run_pk
        rating = store.start_rating(run_pk, "alice")
        for metric in store.rubric().metrics:
            rating = store.save_item(
                rating.rating_pk, metric.id, outcome="not_applicable", score=None,
                comment="", expected_version=rating.version,
            )  # fmt: skip
        store.submit(rating.rating_pk, expected_version=rating.version)
    keys.generate_key("alice")
    return db


def _status(db: Path) -> str:
    with ReviewStore.open(db, create=False, readonly=True) as store:
        return store.live_rating(store.list_runs()[0].run_pk, "alice").status


def _sign(db: Path, out: Path, renderer, capsys) -> tuple[int, str, str]:
    argv = ["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db), "--out", str(out)]
    code = main(argv, pdf_renderer=renderer)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _truncating(signed: object, path: Path) -> None:
    # What Qt's PDF writer did on a nearly full disk: part of the file, no error.
    path.write_bytes(WHOLE_PDF[:2000])


def _short_of_rendered(signed: object, path: Path) -> int:
    # The renderer says how much it drew; the disk holds less (and it even ends in %%EOF).
    path.write_bytes(WHOLE_PDF[:100] + b"%%EOF\n")
    return len(WHOLE_PDF)


def _enospc(signed: object, path: Path) -> None:
    raise OSError(errno.ENOSPC, "No space left on device", str(path))


def _broken(signed: object, path: Path) -> None:
    raise RuntimeError("no fonts")


@pytest.mark.parametrize("renderer", [_truncating, _short_of_rendered, _enospc, _broken])
def test_a_pdf_that_did_not_reach_the_disk_whole_signs_nothing(
    rated_db: Path, tmp_path: Path, capsys, renderer
) -> None:
    out = tmp_path / "sheets"
    code, stdout, err = _sign(rated_db, out, renderer, capsys)
    assert code == 1 and "wrote" not in stdout
    assert err.count("\n") == 1 and "nothing was signed" in err and "Traceback" not in err
    assert _status(rated_db) == "submitted"
    assert list(out.iterdir()) == []  # neither file, no temporary left behind
    # The earlier state is kept: a retry with a working disk signs.
    code, stdout, _ = _sign(rated_db, out, lambda s, p: p.write_bytes(WHOLE_PDF), capsys)
    assert code == 0 and _status(rated_db) == "signed"
    assert {p.suffix for p in out.iterdir()} == {".json", ".pdf"}


def test_a_sheet_json_cut_short_by_the_disk_signs_nothing(
    rated_db: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    real_write = outfile.os.write

    def half(fd: int, data) -> int:
        # A write that reports success for only part of the data, then the disk is full.
        if len(data) > 64:
            return real_write(fd, bytes(data[:64]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outfile.os, "write", half)
    out = tmp_path / "sheets"
    code, stdout, err = _sign(rated_db, out, None, capsys)
    assert code == 1 and stdout == "" and err.count("\n") == 1
    assert "No space left on device" in err and "nothing was signed" in err
    assert _status(rated_db) == "submitted" and list(out.iterdir()) == []


def test_a_read_only_folder_signs_nothing(rated_db: Path, tmp_path: Path, capsys) -> None:
    import os

    if os.geteuid() == 0:
        pytest.skip("root writes into a read-only folder")
    out = tmp_path / "sheets"
    out.mkdir()
    out.chmod(0o500)
    try:
        code, _, err = _sign(rated_db, out, None, capsys)
    finally:
        out.chmod(0o700)
    assert code == 1 and err.count("\n") == 1 and "nothing was signed" in err
    assert _status(rated_db) == "submitted"


def test_a_size_mismatch_after_the_write_is_refused(tmp_path: Path, monkeypatch) -> None:
    # A file system that accepts the bytes but keeps fewer (fstat says so) is not success.
    real_fstat = outfile.os.fstat

    class Short:
        def __init__(self, real) -> None:
            self.st_size = real.st_size - 1

    monkeypatch.setattr(outfile.os, "fstat", lambda fd: Short(real_fstat(fd)))
    with pytest.raises(outfile.OutputError, match="only 5 of 6 bytes"):
        outfile.write_bytes(tmp_path / "k.key", b"secret")
    with (
        pytest.raises(outfile.OutputError, match="only 3 of 4 bytes"),
        outfile.open_text(tmp_path / "x.csv") as out,
    ):
        out.write("a,b\n")
    assert list(tmp_path.iterdir()) == []

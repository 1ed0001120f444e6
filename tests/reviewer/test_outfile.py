"""reviewer.outfile: every output file through an exclusive temporary file and a rename."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from reviewer import outfile
from reviewer.cli import main
from reviewer.outfile import OutputError, PendingFile


def _disk_full(*_args: object) -> int:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_writes_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    outfile.write_bytes(target, b"one")
    outfile.write_bytes(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_symlink_at_the_final_name_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / "out.json"
    link.symlink_to(victim)
    with pytest.raises(OutputError, match="it is a symbolic link"):
        outfile.write_bytes(link, b"attack")
    assert victim.read_text() == "precious" and link.is_symlink()


def test_a_symlink_at_the_old_predictable_temp_name_is_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "out.json.tmp").symlink_to(victim)
    outfile.write_bytes(tmp_path / "out.json", b"data")
    assert victim.read_text() == "precious"
    assert (tmp_path / "out.json").read_bytes() == b"data"


def test_a_symlink_planted_at_the_temp_name_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Even a guessed temporary name cannot be used: O_EXCL refuses an existing link.
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    tokens = iter(["aaaaaaaaaaaa", "aaaaaaaaaaaa", "bbbbbbbbbbbb"])
    monkeypatch.setattr(outfile.secrets, "token_hex", lambda _n: next(tokens))
    (tmp_path / ".out.json.aaaaaaaaaaaa.tmp").symlink_to(victim)
    outfile.write_bytes(tmp_path / "out.json", b"data")
    assert victim.read_text() == "precious"
    assert (tmp_path / "out.json").read_bytes() == b"data"


def test_a_full_disk_is_an_error_and_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.json"
    target.write_bytes(b"old")
    monkeypatch.setattr(outfile.os, "write", _disk_full)
    with pytest.raises(OutputError, match=r"cannot write .*out.json: No space left on device"):
        outfile.write_bytes(target, b"new")
    with pytest.raises(OutputError, match="No space left"), outfile.open_text(target) as fh:
        fh.write("x" * 100_000)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_nothing_appears_under_the_final_name_before_commit(tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    with PendingFile(target) as pending:
        pending.temp.write_bytes(b"%PDF-half")
        assert not target.exists()  # a kill -9 here leaves no truncated file under the name
    assert list(tmp_path.iterdir()) == []


def test_key_files_are_created_private(tmp_path: Path) -> None:
    outfile.write_bytes(tmp_path / "k.key", b"secret", mode=0o600)
    if os.name == "posix":
        assert (tmp_path / "k.key").stat().st_mode & 0o077 == 0


def test_score_out_on_a_full_disk_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    trajectory = tmp_path / "run.jsonl"
    trajectory.write_text('{"type":"header"}\n')
    out = tmp_path / "cards.jsonl"
    out.write_text("earlier cards\n")
    monkeypatch.setattr(outfile.os, "write", _disk_full)
    code = main(["score", str(trajectory), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    line = next(x for x in err.splitlines() if "No space left" in x)
    assert line.startswith("a320-review score: cannot write") and "left as it was" in line
    assert "Traceback" not in err
    assert out.read_text() == "earlier cards\n"


def test_out_into_a_missing_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trajectory = tmp_path / "run.jsonl"
    trajectory.write_text('{"type":"header"}\n')
    assert main(["score", str(trajectory), "--out", str(tmp_path / "no" / "x.jsonl")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_a_device_is_never_replaced(tmp_path: Path) -> None:
    if not os.path.exists("/dev/null"):
        pytest.skip("needs /dev/null")
    with pytest.raises(OutputError, match="not a regular file"):
        PendingFile(Path("/dev/null"))
    assert outfile.is_stream(Path("/dev/null")) and not outfile.is_stream(tmp_path)


def test_out_to_dev_null_writes_as_a_stream(tmp_path: Path) -> None:
    if not os.path.exists("/dev/null"):
        pytest.skip("needs /dev/null")
    trajectory = tmp_path / "run.jsonl"
    trajectory.write_text('{"type":"header"}\n')
    assert main(["score", str(trajectory), "--out", "/dev/null"]) in (0, 1)
    assert Path("/dev/null").is_char_device()


def test_report_out_on_a_full_disk_says_it_once_and_leaves_the_old_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from reviewer.workspace import ReviewStore

    db = tmp_path / "review.db"
    ReviewStore.open(db).close()
    out = tmp_path / "report.html"
    out.write_text("earlier report\n")
    monkeypatch.setattr(outfile.os, "write", _disk_full)
    code = main(["report", "--out", str(out), "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 1
    # (os.write fails everywhere here, the chart workers' pipes too: the charts are then
    # drawn in this process after a progress line saying so, and the report's write fails)
    line = next(x for x in err.splitlines() if x.startswith("a320-review report:"))
    # Once "cannot write", not "cannot write OUT: cannot write OUT: ..." (the verb wrapped
    # the output's own one-line reason again).
    assert line.startswith("a320-review report: cannot write") and "left as it was" in line
    assert "No space left on device" in line
    assert line.count("cannot write") == 1
    assert "Traceback" not in err
    assert out.read_text() == "earlier report\n"

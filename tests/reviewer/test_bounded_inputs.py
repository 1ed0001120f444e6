"""Inputs read with a size limit, special files refused, content never echoed beyond a
short escaped excerpt, numbers bounded (issue 27)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from reviewer import inputs
from reviewer.cli import main

SECRET = "root:$6$Zx9SecretSaltValue$AbCdEfGhIjKlMnOpQrStUvWxYz0123456789:19000:0:99999:7:::"


def _run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(capsys, corpus: Path, db_path: Path) -> Path:
    _run(capsys, "import", corpus, "--db", db_path)
    return db_path


def _create(capsys, db: Path, *extra: object) -> tuple[int, str, str]:
    return _run(capsys, "study", "create", "s", "--raters", "ann,bob", "--per-run", "1",
                "--db", db, *extra)  # fmt: skip


def _one_line(err: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err


def test_a_seed_too_large_for_the_database_is_refused(capsys, db: Path) -> None:
    code, _, err = _create(capsys, db, "--seed", "9" * 38)
    assert code == 2 and "seed" in err
    _one_line(err)
    assert _create(capsys, db, "--seed", str(2**63 - 1))[0] == 0


def test_runs_from_dev_zero_is_refused_at_once(db: Path) -> None:
    # In a child with a memory cap: before the fix this read until the machine ran out.
    argv = [sys.executable, "-m", "reviewer", "study", "create", "s", "--raters", "ann",
            "--per-run", "1", "--db", str(db), "--runs", "/dev/zero"]  # fmt: skip

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, preexec_fn=cap)
    assert done.returncode == 2 and "not a regular file (a character device)" in done.stderr
    _one_line(done.stderr)


def test_runs_from_a_fifo_is_refused_not_waited_on(capsys, db: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "runs.fifo"
    os.mkfifo(fifo)
    result: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: result.append(_create(capsys, db, "--runs", fifo)))
    worker.start()
    worker.join(timeout=60)
    if worker.is_alive():  # unblock the reader so the test run can end, then fail
        with open(fifo, "w"):
            pass
        worker.join()
        pytest.fail("study create blocked on a FIFO")
    code, _, err = result[0]
    assert code == 2 and "not a regular file (a FIFO)" in err


def test_a_file_never_meant_for_us_is_not_echoed(capsys, db: Path, tmp_path: Path) -> None:
    secret = tmp_path / "shadow"
    secret.write_text(SECRET + "\n" + SECRET.replace("root", "daemon") + "\n")
    code, _, err = _create(capsys, db, "--runs", secret)
    assert code != 0 and "unknown run id" in err
    _one_line(err)
    assert "SecretSaltValue" not in err and "19000" not in err
    if os.access("/etc/shadow", os.R_OK):
        code, _, err = _create(capsys, db, "--runs", "/etc/shadow")
        shadow = Path("/etc/shadow").read_text().splitlines()
        assert code != 0 and not any(len(line) > 30 and line in err for line in shadow)


def test_a_huge_runs_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as fh:
        fh.truncate(inputs.LIST_LIMIT + 1)  # sparse: no disk used
    with pytest.raises(inputs.InputError, match="larger than 16 MiB"):
        inputs.read_limited(big, inputs.LIST_LIMIT)


def test_excerpts_are_short_and_escaped() -> None:
    # 24 characters of the text (four times 'a ESC [ 2 J b'), then the ellipsis.
    assert inputs.excerpt("a\x1b[2Jb" * 20) == "'" + "a\\x1b[2Jb" * 4 + "…'"


def test_keygen_on_a_full_disk_does_not_suggest_force(capsys, monkeypatch) -> None:
    import errno

    from reviewer import outfile
    from reviewer.sheets import keys

    def disk_full(*_args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patched:  # (not undo(): that would drop the test's home)
        patched.setattr(outfile.os, "write", disk_full)
        code, _, err = _run(capsys, "keygen", "--rater", "alice")
    assert code == 1 and "No space left on device" in err and "--force" not in err
    _one_line(err)
    assert keys.list_raters() == [] and not keys.key_paths("alice")[1].exists()
    assert _run(capsys, "keygen", "--rater", "alice")[0] == 0
    code, _, err = _run(capsys, "keygen", "--rater", "alice")
    assert code == 1 and "(use --force to replace it)" in err

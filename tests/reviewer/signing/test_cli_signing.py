"""The signing verbs on the command line: keygen, whoami, verify, sign and export."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import sqlite3
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.sheets import keys, sheet
from reviewer.sheets.sheet import SheetPayload
from reviewer.workspace import ReviewStore

TRAJECTORY = b'{"type":"header"}\n'


@pytest.fixture(autouse=True)
def review_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("A320_REVIEW_HOME", str(home))
    return home


def _sheet_file(tmp_path: Path, rater: str = "alice") -> tuple[Path, keys.RaterKey]:
    key = keys.load_key(rater) if keys.has_key(rater) else keys.generate_key(rater)
    payload = SheetPayload.model_validate(
        {
            "sheet_id": f"sheet-{rater}",
            "supersedes": None,
            "signed_at": datetime(2025, 3, 1, tzinfo=UTC),
            "run": {
                "run_id": "run-1",
                "trajectory_sha256": hashlib.sha256(TRAJECTORY).hexdigest(),
                "scenario_id": "s",
                "model": "m",
            },
            "scorer": {"version": "1", "vector": {"coverage": 1.0}},
            "rubric": {"id": "r", "version": 1, "sha256": "00" * 32},
            "items": [],
            "overall_comment": "",
            "rater": {"name": rater, "public_key": key.public.b64, "fingerprint": key.fingerprint},
        }
    )
    signed = sheet.sign_payload(payload, key)
    path = tmp_path / sheet.sheet_file_name(payload)
    path.write_text(signed.to_json(), encoding="utf-8")
    return path, key


def test_keygen_then_whoami(review_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keygen", "--rater", "alice"]) == 0
    out = capsys.readouterr().out
    key = keys.load_key("alice")
    assert f"fingerprint: {key.fingerprint}" in out
    assert "not passphrase-protected" in out
    key_path, _ = keys.key_paths("alice")
    assert key_path.is_relative_to(review_home / "config" / "keys")
    if os.name == "posix":
        assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
        assert stat.S_IMODE(key_path.parent.stat().st_mode) == 0o700

    assert main(["whoami"]) == 0
    out = capsys.readouterr().out
    assert "rater:       alice" in out
    assert f"fingerprint: {key.fingerprint}" in out
    assert f"public key:  {key.public.line()}" in out

    assert main(["whoami", "--rater", "alice", "--public-key"]) == 0
    assert capsys.readouterr().out == key.public.line() + "\n"


def test_keygen_refuses_to_replace_a_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keygen", "--rater", "alice"]) == 0
    assert main(["keygen", "--rater", "alice"]) == 1
    assert "already has a key" in capsys.readouterr().err
    assert main(["keygen", "--rater", "alice", "--force"]) == 0


def test_keygen_with_a_passphrase_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "pass"
    secret.write_text("horse battery\n")
    assert main(["keygen", "--rater", "bob", "--passphrase-file", str(secret)]) == 0
    assert "(passphrase-protected)" in capsys.readouterr().out
    assert keys.load_key("bob", passphrase=b"horse battery").rater == "bob"
    with pytest.raises(keys.PassphraseError, match="wrong passphrase"):
        keys.load_key("bob", passphrase=b"horse")


def test_whoami_without_keys_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["whoami"]) == 1
    assert "a320-review keygen --rater NAME" in capsys.readouterr().err
    assert main(["whoami", "--rater", "zoe"]) == 1
    assert "rater 'zoe' has no key" in capsys.readouterr().err


def test_verify_ok_untrusted_and_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, key = _sheet_file(tmp_path)
    trajectory = tmp_path / "run-1.jsonl"
    trajectory.write_bytes(TRAJECTORY)
    assert main(["verify", str(path), "--trajectory", str(trajectory)]) == 0
    assert capsys.readouterr().out == (
        f"{path}: OK: signed by alice ({key.fingerprint}), no trust list given\n"
    )

    trust = tmp_path / "trusted.txt"
    trust.write_text(key.public.line() + "\n")
    assert main(["verify", str(path), "--trust", str(trust), "--require-trusted"]) == 0
    assert capsys.readouterr().out == f"{path}: OK: signed by alice ({key.fingerprint}), trusted\n"

    (tmp_path / "other").mkdir()
    _, other = _sheet_file(tmp_path / "other", "mallory")
    trust.write_text(other.public.line() + "\n")
    assert main(["verify", str(path), "--trust", str(trust)]) == 0
    assert capsys.readouterr().out == (
        f"{path}: OK: signed by alice ({key.fingerprint}), key not in the trust list\n"
    )
    assert main(["verify", str(path), "--trust", str(trust), "--require-trusted"]) == 1
    assert capsys.readouterr().out == (
        f"{path}: FAILED: key not trusted: {key.fingerprint} (sheet signed as 'alice')\n"
    )


def test_verify_reports_each_sheet_and_fails_if_any_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, _ = _sheet_file(tmp_path)
    envelope = json.loads(good.read_text())
    sig = bytearray(base64.b64decode(envelope["signature"]))
    sig[0] ^= 1
    envelope["signature"] = base64.b64encode(bytes(sig)).decode()
    bad = tmp_path / "bad.sheet.json"
    bad.write_text(json.dumps(envelope))
    trajectory = tmp_path / "other.jsonl"
    trajectory.write_bytes(b"something else\n")

    assert main(["verify", str(good), str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{good}: OK")
    assert lines[1] == f"{bad}: FAILED: signature does not match payload"
    # A missing input file is a usage error before any sheet is checked, as in every verb.
    missing = tmp_path / "missing.json"
    assert main(["verify", str(good), str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"a320-review verify: error: no such file or folder: {missing}\n"

    assert main(["verify", str(good), "--trajectory", str(trajectory)]) == 1
    assert "FAILED: trajectory sha256 differs" in capsys.readouterr().out


def test_verify_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, _ = _sheet_file(tmp_path)
    assert main(["verify", str(good), "--require-trusted"]) == 2
    assert "--require-trusted needs --trust FILE" in capsys.readouterr().err
    bad_trust = tmp_path / "trust.txt"
    bad_trust.write_text("not a key\n")
    assert main(["verify", str(good), "--trust", str(bad_trust)]) == 1
    assert "trust.txt:1: not a public key line" in capsys.readouterr().err
    assert main(["verify", str(good), "--trajectory", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


# --- sign and export against a real database ------------------------------------------------


@pytest.fixture
def rated_db(tmp_path: Path) -> tuple[Path, Path]:
    """A database with one run that alice rated completely (submitted) and bob started."""
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
                rating.rating_pk,
                metric.id,
                outcome="not_applicable",
                score=None,
                comment="",
                expected_version=rating.version,
            )
        store.submit(rating.rating_pk, expected_version=rating.version)
        store.start_rating(run_pk, "bob")
    return db, trajectory


def test_sign_then_verify_from_the_command_line(
    rated_db: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, trajectory = rated_db
    key = keys.generate_key("alice")
    out = tmp_path / "sheets"
    assert (
        main(["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db), "--out", str(out)])
        == 0
    )
    printed = capsys.readouterr().out
    [sheet_path] = out.glob("run-cli.alice.*.sheet.json")
    assert f"wrote {sheet_path}" in printed
    assert f"key {key.fingerprint}" in printed
    assert f"no PDF for {sheet_path.name}: this entry point has no PDF renderer" in printed

    trust = tmp_path / "trusted.txt"
    assert main(["whoami", "--rater", "alice", "--public-key"]) == 0
    trust.write_text(capsys.readouterr().out)
    args = ["verify", str(sheet_path), "--trajectory", str(trajectory), "--trust", str(trust)]
    assert main([*args, "--require-trusted"]) == 0
    assert capsys.readouterr().out == (
        f"{sheet_path}: OK: signed by alice ({key.fingerprint}), trusted\n"
    )

    # Signed is final: signing again from the command line is refused, and the store agrees.
    assert (
        main(["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db), "--out", str(out)])
        == 1
    )
    assert "already signed" in capsys.readouterr().err
    with ReviewStore.open(db) as store:
        assert store.live_rating(store.list_runs()[0].run_pk, "alice").status == "signed"


def test_sign_refuses_a_draft_with_the_reason(
    rated_db: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = rated_db
    keys.generate_key("bob")
    code = main(
        ["sign", "--run", "run-cli", "--rater", "bob", "--db", str(db), "--out", str(tmp_path)]
    )
    assert code == 1
    err = capsys.readouterr().err
    assert "bob's rating is a draft: submit it before signing" in err
    assert "no outcome" in err
    assert not list(tmp_path.glob("*.sheet.json"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--run", "nope", "--rater", "alice"], "no run 'nope' in this database"),
        (["--run", "run-cli", "--rater", "carol"], "rater 'carol' has no key"),
    ],
)
def test_sign_errors(
    rated_db: tuple[Path, Path], argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = rated_db
    keys.generate_key("alice")
    assert main(["sign", *argv, "--db", str(db)]) == 1
    assert message in capsys.readouterr().err


def test_sign_with_a_passphrase(
    rated_db: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = rated_db
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.write_text("open sesame\n")
    bad.write_text("open barley\n")
    assert main(["keygen", "--rater", "alice", "--passphrase-file", str(good)]) == 0
    base = ["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db), "--out", str(tmp_path)]
    assert main([*base, "--passphrase-file", str(bad)]) == 1
    assert "wrong passphrase for the key of 'alice'" in capsys.readouterr().err
    assert main(base) == 1  # stdin is not a terminal under pytest: no prompt
    assert "passphrase-protected: give --passphrase-file" in capsys.readouterr().err
    assert main([*base, "--passphrase-file", str(good)]) == 0


def test_sign_without_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys.generate_key("alice")
    assert main(["sign", "--run", "r", "--rater", "alice", "--db", str(tmp_path / "x.db")]) == 1
    assert "no review database at" in capsys.readouterr().err


def test_export_every_signed_sheet(
    rated_db: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = rated_db
    keys.generate_key("alice")
    assert (
        main(
            [
                "sign",
                "--run",
                "run-cli",
                "--rater",
                "alice",
                "--db",
                str(db),
                "--out",
                str(tmp_path / "a"),
            ]
        )
        == 0
    )
    capsys.readouterr()
    out = tmp_path / "export"
    assert main(["export", "--out", str(out), "--db", str(db)]) == 0
    assert "exported 1 signed sheet(s) to" in capsys.readouterr().out
    [exported] = out.glob("run-cli.alice.*.sheet.json")
    assert exported.read_bytes() == (tmp_path / "a" / exported.name).read_bytes()
    assert main(["export", "--out", str(tmp_path / "none"), "--db", str(db), "--rater", "bob"]) == 0
    assert "exported 0 signed sheet(s) by bob" in capsys.readouterr().out


def test_export_names_the_submitted_ratings_it_leaves_behind(
    rated_db: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A rater who followed "rate, then export" got "exported 0 signed sheet(s)" and no
    # word that the ratings were still unsigned.
    db, _ = rated_db
    keys.generate_key("alice")
    assert main(["export", "--out", str(tmp_path / "e"), "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert "1 submitted rating(s) by alice not signed, so not exported" in err
    # The command it names is the one that signs and writes them all.
    assert f"a320-review sign --all --rater alice --out {tmp_path / 'e'}" in err
    sign = ["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db)]
    assert main([*sign, "--out", str(tmp_path / "a")]) == 0
    capsys.readouterr()
    assert main(["export", "--out", str(tmp_path / "e"), "--db", str(db)]) == 0
    assert "not signed" not in capsys.readouterr().err


def test_pdf_renderer_injected_through_main(
    rated_db: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = rated_db
    keys.generate_key("alice")
    rendered: list[Path] = []

    def renderer(signed: object, path: Path) -> None:
        rendered.append(path)
        path.write_bytes(b"%PDF-fake\n%%EOF\n")

    argv = ["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db), "--out", str(tmp_path)]
    assert main(argv, pdf_renderer=renderer) == 0
    # Drawn into a temporary file in the folder, then renamed to the sheet's PDF name.
    [pdf] = tmp_path.glob("run-cli.alice.*.sheet.pdf")
    assert [p.parent for p in rendered] == [tmp_path] and not rendered[0].exists()
    assert pdf.read_bytes() == b"%PDF-fake\n%%EOF\n"
    assert f"wrote {pdf}" in capsys.readouterr().out


def test_sign_into_a_file_is_refused_without_locking(
    rated_db: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = rated_db
    keys.generate_key("alice")
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    base = ["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db)]
    assert main([*base, "--out", str(blocker / "sheets")]) == 1
    err = capsys.readouterr().err
    # One line, no traceback (the reason after the colon is the platform's wording).
    assert err.startswith(f"a320-review sign: cannot write sheets to {blocker / 'sheets'}: ")
    assert err.count("\n") == 1
    # Nothing was locked, so signing into a real folder works afterwards.
    assert main([*base, "--out", str(tmp_path / "sheets")]) == 0


def test_sign_that_cannot_write_its_files_says_how_to_get_them(
    rated_db: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    db, _ = rated_db
    keys.generate_key("alice")

    def disk_full(signed: object, path: Path) -> None:
        raise OSError(28, "No space left on device", str(path))

    argv = ["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db), "--out", str(tmp_path)]
    # Drawing fails before the rating is locked: nothing is signed, the rater can retry.
    assert main(argv, pdf_renderer=disk_full) == 1
    captured = capsys.readouterr()
    assert "No space left on device; nothing was signed" in captured.err
    assert "Traceback" not in captured.err + captured.out

    # A failure after locking (the rename) says the rating is signed and how to get files.
    def rename_fails(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr("reviewer.outfile.os.replace", rename_fails)
        assert main(argv) == 1
    captured = capsys.readouterr()
    assert "the rating IS signed" in captured.err
    assert "a320-review export --out DIR --rater alice" in captured.err
    assert "Traceback" not in captured.err + captured.out
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "already signed" in err and "a320-review export --out DIR" in err
    assert main(["export", "--out", str(tmp_path / "again"), "--db", str(db)]) == 0
    assert len(list((tmp_path / "again").glob("run-cli.alice.*.sheet.json"))) == 1


@pytest.mark.parametrize("verb", ["sign", "export"])
@pytest.mark.parametrize(
    ("db_name", "message"),
    [
        ("notes.db", "as a review database: file is not a database"),
        ("missing.db", "no review database at"),
        ("newer.db", "newer than this a320-review understands"),
    ],
)
def test_a_bad_database_is_one_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: str, db_name: str, message: str
) -> None:
    keys.generate_key("alice")
    (tmp_path / "notes.db").write_text("these are notes, not a database\n")
    with contextlib.closing(sqlite3.connect(tmp_path / "newer.db")) as newer:
        newer.execute("PRAGMA user_version = 999")
    db = tmp_path / db_name
    argv = {
        "sign": ["sign", "--run", "r", "--rater", "alice"],
        "export": ["export"],
    }[verb]
    assert main([*argv, "--db", str(db), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"a320-review {verb}: ") and message in err
    assert err.count("\n") == 1
    assert not (tmp_path / "missing.db").exists()  # a typo never creates a database


# --- hardening (issue 8) ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["alice\nssh-ed25519 AAAA mallory", "a\rb", "tab\there", "x" * 101, "   ", "\u202eevil"]
)
@pytest.mark.parametrize("verb", ["keygen", "whoami", "sign", "export"])
def test_every_verb_refuses_a_bad_rater_name(
    verb: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = {
        "keygen": ["keygen", "--rater", name],
        "whoami": ["whoami", "--rater", name],
        "sign": ["sign", "--run", "r", "--rater", name, "--db", str(tmp_path / "x.db")],
        "export": ["export", "--out", str(tmp_path), "--rater", name, "--db", str(tmp_path / "x")],
    }[verb]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"a320-review {verb}: error: --rater: the rater name ")
    assert err.count("\n") == 1
    assert keys.list_raters() == []


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_key_file_that_is_a_device_is_refused_not_read(
    rated_db: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = rated_db
    key_path, _ = keys.key_paths("alice")
    key_path.parent.mkdir(parents=True, exist_ok=True)
    key_path.symlink_to("/dev/zero")  # sign hung reading it before
    assert main(["sign", "--run", "run-cli", "--rater", "alice", "--db", str(db)]) == 1
    assert "it is not a regular file" in capsys.readouterr().err


def test_whoami_shows_the_key_that_signs_when_the_pub_file_was_swapped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    alice = keys.generate_key("alice")
    mallory = keys.generate_key("mallory")
    _, pub = keys.key_paths("alice")
    pub.write_text(mallory.public.line().replace("mallory", "alice") + "\n")
    assert main(["whoami", "--rater", "alice"]) == 1
    captured = capsys.readouterr()
    assert f"fingerprint: {alice.fingerprint}" in captured.out
    assert mallory.fingerprint not in captured.out
    assert f"holds another key ({mallory.fingerprint})" in captured.err
    assert main(["whoami", "--rater", "alice", "--public-key"]) == 1
    assert capsys.readouterr().out == alice.public.line() + "\n"


def test_whoami_of_a_protected_key_checks_the_pub_file_with_the_passphrase(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice = keys.generate_key("alice", passphrase=b"pw")
    mallory = keys.generate_key("mallory")
    _, pub = keys.key_paths("alice")
    pub.write_text(mallory.public.line() + "\n")
    assert main(["whoami", "--rater", "alice"]) == 0  # no passphrase: says it did not check
    assert "not checked" in capsys.readouterr().out
    secret = tmp_path / "pw.txt"
    secret.write_text("pw\n")
    assert main(["whoami", "--rater", "alice", "--passphrase-file", str(secret)]) == 1
    assert f"fingerprint: {alice.fingerprint}" in capsys.readouterr().out


def test_verify_flags_a_trusted_key_signing_under_another_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, key = _sheet_file(tmp_path, "alice")
    trust = tmp_path / "trusted.txt"
    # The trust list knows this key as "A. Martin"; the sheet says "alice".
    trust.write_text(f"{keys.KEY_TYPE} {key.public.b64} A. Martin\n")
    assert main(["verify", str(path), "--trust", str(trust)]) == 1
    assert capsys.readouterr().out.startswith(f"{path}: FLAGGED: signed by key {key.fingerprint}")
    assert main(["verify", str(path), "--trust", str(trust), "--require-trusted"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: FAILED: ") and "binds that key to 'A. Martin'" in out


def test_verify_a_deeply_nested_sheet_is_one_failed_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.sheet.json"
    deep.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)
    assert main(["verify", str(deep)]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"{deep}: FAILED: malformed sheet: JSON nested too deeply\n"
    assert "Traceback" not in captured.err


def test_keygen_on_a_full_disk_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    from reviewer import outfile

    def disk_full(*_args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outfile.os, "write", disk_full)
    assert main(["keygen", "--rater", "alice"]) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and err.count("\n") == 1
    assert keys.list_raters() == []

"""Found by using the command line as a rater does: every verb answers a mistyped option
and a bad rater name the same way, as itself, before any work."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.cli import main

BAD_NAME = "ann\ned25519 AAAA mallory"


@pytest.mark.parametrize(
    ("argv", "verb"),
    [
        (["export", "--out", "x", "--passphrase-file", "p"], "export"),
        (["ratings", "import", "FILE", "--rater", "bob", "--bogus"], "ratings import"),
        (["study", "assignments", "pilot", "--bogus", "a.csv"], "study assignments"),
    ],
)
def test_an_unknown_option_is_reported_by_its_verb(
    argv: list[str], verb: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The top-level parser used to say it ("usage: a320-review [-h] [--version] COMMAND"),
    # which shows nothing of the options the verb does take.
    (tmp_path / "FILE").write_text("")
    argv = [str(tmp_path / a) if a == "FILE" else a for a in argv]
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: a320-review {verb} ")
    assert f"a320-review {verb}: error: unrecognized arguments: " in err


def _name_argvs(tmp: Path) -> dict[str, list[str]]:
    csv = tmp / "r.csv"
    csv.write_text("run_id,metric,outcome,score,comment\n")
    db = str(tmp / "review.db")
    return {
        "ratings": ["ratings", "import", str(csv), "--rater", BAD_NAME, "--db", db],
        "ratings-export": ["ratings", "export", "--viewer", BAD_NAME, "--db", db],
        "ratings-summary": ["ratings", "summary", "--rater", BAD_NAME, "--db", db],
        "runs": ["runs", "--rater", BAD_NAME, "--db", db],
        "study-create": ["study", "create", "s", "--raters", f"bob,{BAD_NAME}", "--per-run", "1"],
        "study-owner": [
            "study",
            "create",
            "s",
            "--raters",
            "bob",
            "--per-run",
            "1",
            "--owner",
            BAD_NAME,
        ],
        "study-packet": ["study", "packet", "s", "--rater", BAD_NAME, "--out", str(tmp / "p")],
        "study-add-raters": ["study", "add-raters", "s", "--raters", BAD_NAME],
        "judge-import": ["judge", "import", str(csv), "--judge", BAD_NAME, "--db", db],
        "validity": ["validity", "--judge", BAD_NAME, "--db", db],
    }


@pytest.mark.parametrize(
    "case",
    [
        "ratings",
        "ratings-export",
        "ratings-summary",
        "runs",
        "study-create",
        "study-owner",
        "study-packet",
        "study-add-raters",
        "judge-import",
        "validity",
    ],
)
def test_every_name_option_refuses_a_bad_name_as_a_usage_error(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `runs --rater` and `ratings export --viewer` printed the name back with its line
    # break; `ratings import` and `study create` refused it with exit code 1, as if the
    # command had failed rather than been given a bad argument.
    argv = _name_argvs(tmp_path)[case]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    option = argv[argv.index(next(a for a in argv if BAD_NAME in a)) - 1]
    # A nested verb is named in full ("a320-review study packet:"), not by its group.
    verb = " ".join(argv[:2] if argv[0] in ("ratings", "study", "judge") else argv[:1])
    assert err.startswith(f"a320-review {verb}: error: {option}: the rater name ")
    assert err.count("\n") == 1
    assert not (tmp_path / "review.db").exists()

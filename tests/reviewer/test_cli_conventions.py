"""Conventions every verb keeps: help, examples, --version, exit codes and message shapes,
a parser that imports nothing heavy, shell completion, and the installation check."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer import cli, home
from reviewer.cli import build_parser, main
from reviewer.commands.verbs import EXAMPLES_HEADING

REPO = Path(__file__).resolve().parents[2]


def _run(args: list[str], *, cwd: Path, env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )


def _parsers(
    parser: argparse.ArgumentParser, path: str = "a320-review"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{path} {name}")


def test_building_the_parser_imports_no_scorer_store_or_qt(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from reviewer.cli import build_parser\n"
        "import ui.entry\n"
        "build_parser()\n"
        "heavy = ('scoring', 'reviewer.store', 'reviewer.batch', 'reviewer.sheets', "
        "'PySide6', 'pydantic', 'sqlite_utils', 'cryptography')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or "
        "any(m == h or m.startswith(h + '.') for h in heavy)))\n"
    )
    result = _run(["-c", script], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_each_command_module_registers_exactly_the_verbs_listed_for_it() -> None:
    # main() builds only the named verb's module: a verb missing from cli.COMMANDS would
    # fall back to the full parser (slower), a verb listed under the wrong module would
    # not parse at all.
    import importlib

    for module, verbs in cli.COMMANDS.items():
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(sub)
        assert tuple(sub.choices) == verbs, module
        for verb in verbs:
            choices = next(
                a for a in build_parser(verb)._actions if isinstance(a, argparse._SubParsersAction)
            ).choices
            assert tuple(choices) == verbs
    assert len(build_parser("no-such-verb")._actions[-1].choices) == sum(
        map(len, cli.COMMANDS.values())
    )


def test_every_argument_has_help_and_every_verb_ends_with_examples() -> None:
    for path, parser in _parsers(build_parser()):
        assert parser.epilog and parser.epilog.startswith(EXAMPLES_HEADING), path
        assert isinstance(parser.formatter_class, type)
        help_text = parser.format_help()
        assert help_text.rstrip().splitlines()[-1].startswith("  a320-review"), path
        # The raw formatter keeps line breaks: nothing should run off a terminal.
        assert max(len(line) for line in help_text.splitlines()) <= 100, path
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{path}: {action.dest} has no help text"
            takes_value = action.nargs != 0 and not isinstance(action, argparse._SubParsersAction)
            if takes_value and not action.choices:
                assert action.metavar, f"{path}: {action.dest} has no metavar"


def test_db_help_names_the_home_variable() -> None:
    # The --db help spells the variable out rather than importing reviewer.home.
    sub = dict(_parsers(build_parser()))["a320-review runs"]
    assert f"${home.HOME_ENV}" in sub.format_help()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"a320-review {cli.version()}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", cli.version())


def test_the_version_of_a_wheel_is_read_from_its_dist_info(tmp_path: Path) -> None:
    assert cli.wheel_version(tmp_path) is None
    (tmp_path / "a320_review-1.2.3.dist-info").mkdir()
    (tmp_path / "other_pkg-9.0.dist-info").mkdir()
    assert cli.wheel_version(tmp_path) == "1.2.3"
    (tmp_path / "a320_review-1.2.2.dist-info").mkdir()
    assert cli.wheel_version(tmp_path) is None  # ambiguous: importlib.metadata decides


def test_the_version_of_an_editable_install_is_the_first_dist_info_on_the_path(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    (second / "a320_review-2.0.0.dist-info").mkdir(parents=True)
    (second / "a320_review_extra-9.dist-info").mkdir()
    missing = str(tmp_path / "missing")
    assert cli.path_version([missing, str(first), str(second)]) == "2.0.0"
    (first / "a320_review-1.0.0.dist-info").mkdir()
    assert cli.path_version([str(first), str(second)]) == "1.0.0"
    (first / "a320_review-1.0.1.dist-info").mkdir()
    assert cli.path_version([str(first), str(second)]) is None  # importlib.metadata decides
    assert cli.path_version([missing]) is None


@pytest.mark.parametrize("columns", ["", "0", "40", "120", "wide"])
def test_terminal_columns_are_shutils(columns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert cli.terminal_columns() == shutil.get_terminal_size().columns


def test_the_overview_is_the_full_parsers_help_without_importing_a_verb(tmp_path: Path) -> None:
    # `a320-review --help` is answered from cli.VERB_HELP; it must say what the verbs'
    # own modules register, word for word, in the same order.
    assert cli.overview_parser().format_help() == build_parser().format_help()
    script = (
        "import sys\n"
        "from reviewer import cli\n"
        "try:\n"
        "    cli.main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "toolkit = ('reviewer.commands', 'reviewer.commands.verbs')  # the parser's own parts\n"
        "print(sorted(m for m in sys.modules if m.startswith(('reviewer.commands', "
        "'reviewer.leaderboard', 'reviewer.quality', 'yaml')) and m not in toolkit), "
        "file=sys.stderr)\n"
        # typing is a twentieth of --help's start-up: the parser's parts import it only
        # for the checkers (issue 26).
        "print('typing' in sys.modules, file=sys.stderr)\n"
    )
    result = _run(["-c", script], cwd=tmp_path, env={"PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stderr
    assert result.stdout == build_parser().format_help()
    assert result.stderr.split() == ["[]", "False"]


# --- the same problem, the same exit code and message in every verb --------------------------

MISSING = "nope/missing.jsonl"
#: One argv per verb that reads an input file; MISSING stands for the missing file.
MISSING_INPUT = {
    "score": ["score", MISSING],
    "aggregate": ["aggregate", MISSING],
    "import": ["import", MISSING],
    "ratings import": ["ratings", "import", MISSING, "--rater", "ann"],
    "verify": ["verify", MISSING],
    "verify --trajectory": ["verify", "SHEET", "--trajectory", MISSING],
    "verify --trust": ["verify", "SHEET", "--trust", MISSING],
    "keygen --passphrase-file": ["keygen", "--rater", "ann", "--passphrase-file", MISSING],
    "sign --passphrase-file": [
        "sign",
        "--run",
        "r",
        "--rater",
        "ann",
        "--passphrase-file",
        MISSING,
    ],
    "gui": ["gui", MISSING],
}


@pytest.mark.parametrize("case", MISSING_INPUT)
def test_a_missing_input_file_is_exit_2_everywhere(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "s.sheet.json"
    sheet.write_text("{}")
    missing = tmp_path / MISSING
    argv = [
        str(missing) if a == MISSING else str(sheet) if a == "SHEET" else a
        for a in MISSING_INPUT[case]
    ]
    assert main([*argv, *(["--db", str(tmp_path / "r.db")] if _takes_db(argv) else [])]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    verb = case.split(" --")[0]  # the full verb path: "ratings import", not "ratings"
    assert err == f"a320-review {verb}: error: no such file or folder: {missing}\n"


def _takes_db(argv: list[str]) -> bool:
    return argv[0] in ("import", "ratings", "sign")


#: One argv per verb that reads lines of an input file; BAD is a file whose line 2 is broken.
BAD = "BAD"
UNREADABLE = {
    "score": ["score", BAD],
    "aggregate": ["aggregate", BAD],
    "import": ["import", BAD],
    "ratings import": ["ratings", "import", BAD, "--rater", "ann"],
    "verify --trust": ["verify", "SHEET", "--trust", BAD],
}


@pytest.mark.parametrize("case", UNREADABLE)
def test_a_bad_line_is_reported_as_file_line_reason_everywhere(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header"}\nnot json at all\n', encoding="utf-8")
    sheet = tmp_path / "s.sheet.json"
    sheet.write_text("{}")
    argv = [str(bad) if a == BAD else str(sheet) if a == "SHEET" else a for a in UNREADABLE[case]]
    if argv[0] in ("import", "ratings"):
        argv += ["--db", str(tmp_path / "r.db")]
        main(["import", str(REPO / "resources" / "demo"), "--db", str(tmp_path / "r.db")])
        capsys.readouterr()
    assert main(argv) in (1, 2)
    out, err = capsys.readouterr()
    assert re.search(rf"(^|\s){re.escape(str(bad))}:\d+: \S", out + err, re.M), out + err


# --- shell completion ---------------------------------------------------------------------


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_script(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert "a320-review" in script and "ratings" in script and "--no-judge-bundle" in script


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_verbs_and_options(tmp_path: Path, capsys) -> None:
    main(["completion", "bash"])
    script = tmp_path / "a320-review.bash"
    script.write_text(capsys.readouterr().out)

    def complete(*words: str) -> list[str]:
        line = " ".join(["a320-review", *words])
        probe = (
            f"source {script}; COMP_WORDS=(a320-review {' '.join(words)}); "
            f"COMP_CWORD={len(words)}; COMP_LINE='{line}'; COMP_POINT={len(line)}; "
            "_shtab_a320_review; printf '%s\\n' \"${COMPREPLY[@]}\""
        )
        done = subprocess.run(
            ["bash", "-c", probe], capture_output=True, text=True, timeout=30, check=False
        )
        return done.stdout.split()

    assert {"score", "sign", "ratings", "completion"} <= set(complete(""))
    assert complete("sco") == ["score"]
    assert "--no-judge-bundle" in complete("score", "--no")


# --- the installation check ---------------------------------------------------------------


def _dummy_scoring(root: Path) -> Path:
    package = root / "scoring"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('the wrong scoring')\n")
    return package


def test_a_shadowing_package_on_pythonpath_is_named_with_the_fix(tmp_path: Path) -> None:
    shadow = _dummy_scoring(tmp_path / "elsewhere")
    result = _run(
        ["-m", "reviewer", "score", "x.jsonl"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(shadow.parent)},
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert str(shadow) in lines[0] and f"remove {shadow.parent} from PYTHONPATH" in lines[0]


def test_a_scoring_folder_in_the_working_directory_is_named(tmp_path: Path) -> None:
    shadow = _dummy_scoring(tmp_path)
    result = _run(["-m", "reviewer", "--version"], cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert str(shadow) in result.stderr and "run a320-review from another directory" in (
        result.stderr
    )


def test_one_installation_passes_the_check(tmp_path: Path) -> None:
    result = _run(["-m", "reviewer", "--version"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("a320-review ")

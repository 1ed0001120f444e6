"""A trust list binds names, not only keys (issue 23): an unlisted key claiming a name the
list gives to another key is refused by ``collect`` and FAILED by ``verify``, with or
without ``--require-trusted``; a key first seen for an unlisted name is reported."""

from __future__ import annotations

from pathlib import Path

from reviewer.cli import main
from reviewer.sheets import keys


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


def _trust_bob(tmp_path: Path) -> Path:
    trust = tmp_path / "trusted.txt"
    trust.write_text(keys.load_key("bob").public.line() + "\n")
    return trust


def test_an_unlisted_key_cannot_claim_a_listed_name(team, tmp_path, capsys, resign) -> None:
    mallory = keys.generate_key("mallory")
    genuine = sorted(team["sheets-bob"].glob("*.sheet.json"))[0]
    forged = resign(genuine, mallory, tmp_path / "forged" / "f.sheet.json", name="bob")
    trust = _trust_bob(tmp_path)
    capsys.readouterr()
    assert _run("collect", forged, "--trust", trust, "--db", team["owner"]) == 1
    out = capsys.readouterr().out
    assert f"{forged}: refused: the trust list binds 'bob' to key" in out
    assert mallory.public.fingerprint in out and "0 stored" in out
    # bob's genuine sheets still go in: the forged one taught the database nothing.
    assert _run("collect", team["sheets-bob"], "--trust", trust, "--db", team["owner"]) == 0
    assert _run("verify", forged, "--trust", trust) == 1
    out = capsys.readouterr().out
    assert "FAILED: the trust list binds 'bob' to key" in out


def test_a_key_first_seen_for_an_unlisted_name_is_reported(team, tmp_path, capsys) -> None:
    trust = _trust_bob(tmp_path)
    capsys.readouterr()
    assert _run("collect", team["sheets-ann"], "--trust", trust, "--db", team["owner"]) == 0
    out = capsys.readouterr().out
    ann = keys.load_key("ann").public.fingerprint
    warnings = [line for line in out.splitlines() if "warning:" in line]
    assert len(warnings) == 1, out  # ann's first sheet taught the key; the rest used it
    assert f"learned: ann signs with key {ann}" in warnings[0]
    assert f"the trust list {trust} does not name ann" in warnings[0]
    assert _run("collect", team["sheets-bob"], "--trust", trust, "--db", team["owner"]) == 0
    out = capsys.readouterr().out
    bob = keys.load_key("bob").public.fingerprint
    assert f"learned: bob signs with key {bob}" in out and "warning" not in out


def test_a_squatting_sheet_put_in_by_hand_is_found(team, tmp_path, resign, tamper, problems_of):
    mallory = keys.generate_key("mallory")
    assert _run("collect", team["sheets-bob"], "--db", team["owner"]) == 0
    genuine = sorted(team["sheets-bob"].glob("*.sheet.json"))[0]
    forged = resign(genuine, mallory, tmp_path / "forged" / "f.sheet.json", name="bob")
    text = forged.read_text().replace("'", "''")
    assert problems_of(team["owner"]) == []
    tamper(team["owner"], f"UPDATE sheets SET sheet_json = '{text}' WHERE rating_pk = 1")
    problems = problems_of(team["owner"])
    assert "rating 1: its sheet's key was never registered to 'bob' in the log" in problems

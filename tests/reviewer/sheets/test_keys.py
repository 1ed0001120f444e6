"""Rater key pairs: storage, permissions, passphrases, the public line and trust lists."""

from __future__ import annotations

import base64
import hashlib
import os
import stat
from pathlib import Path

import pytest

from reviewer.sheets import keys
from reviewer.sheets.keys import KeyStoreError, MissingKeyError, PassphraseError
from reviewer.sheets.trust import load_trust_file

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_generate_then_load_gives_the_same_key(tmp_path: Path) -> None:
    made = keys.generate_key("alice", directory=tmp_path)
    loaded = keys.load_key("alice", directory=tmp_path)
    assert loaded.fingerprint == made.fingerprint
    signature = loaded.sign(b"data")
    made.public.verifier().verify(signature, b"data")  # raises if it does not match


@posix_only
def test_key_files_are_owner_only_even_with_a_loose_umask(tmp_path: Path) -> None:
    folder = tmp_path / "home" / "keys"
    old = os.umask(0o000)
    try:
        keys.generate_key("alice", directory=folder)
    finally:
        os.umask(old)
    key_path, pub_path = keys.key_paths("alice", folder)
    assert _mode(folder) == 0o700
    assert _mode(key_path) == 0o600
    assert _mode(pub_path) == 0o600
    assert not list(folder.glob("*.tmp"))


@posix_only
def test_a_key_readable_by_others_is_refused(tmp_path: Path) -> None:
    keys.generate_key("alice", directory=tmp_path)
    key_path, _ = keys.key_paths("alice", tmp_path)
    key_path.chmod(0o644)
    with pytest.raises(KeyStoreError, match=r"readable by others \(mode 0644\).*chmod 600"):
        keys.load_key("alice", directory=tmp_path)


def test_passphrase_protected_key(tmp_path: Path) -> None:
    made = keys.generate_key("bob", passphrase=b"correct horse", directory=tmp_path)
    key_path, _ = keys.key_paths("bob", tmp_path)
    assert b"ENCRYPTED PRIVATE KEY" in key_path.read_bytes()
    assert keys.is_encrypted("bob", tmp_path)
    with pytest.raises(PassphraseError, match="wrong passphrase for the key of 'bob'"):
        keys.load_key("bob", passphrase=b"battery staple", directory=tmp_path)
    with pytest.raises(PassphraseError, match="passphrase-protected: give its passphrase"):
        keys.load_key("bob", directory=tmp_path)
    loaded = keys.load_key("bob", passphrase=b"correct horse", directory=tmp_path)
    assert loaded.fingerprint == made.fingerprint


def test_a_passphrase_for_a_plain_key_is_an_error(tmp_path: Path) -> None:
    keys.generate_key("alice", directory=tmp_path)
    assert not keys.is_encrypted("alice", tmp_path)
    with pytest.raises(PassphraseError, match="not passphrase-protected"):
        keys.load_key("alice", passphrase=b"x", directory=tmp_path)


def test_empty_passphrase_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PassphraseError, match="empty"):
        keys.generate_key("alice", passphrase=b"", directory=tmp_path)


def test_missing_key_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(MissingKeyError, match="a320-review keygen --rater 'carol d'"):
        keys.load_key("carol d", directory=tmp_path)
    assert not keys.has_key("carol d", tmp_path)


def test_an_existing_key_is_replaced_only_when_asked(tmp_path: Path) -> None:
    first = keys.generate_key("alice", directory=tmp_path)
    with pytest.raises(KeyStoreError, match="already has a key"):
        keys.generate_key("alice", directory=tmp_path)
    second = keys.generate_key("alice", directory=tmp_path, overwrite=True)
    assert second.fingerprint != first.fingerprint
    assert keys.load_key("alice", directory=tmp_path).fingerprint == second.fingerprint


def test_fingerprint_is_sha256_of_the_raw_key_in_unpadded_base64() -> None:
    raw = bytes(range(32))
    expected = base64.b64encode(hashlib.sha256(raw).digest()).decode().rstrip("=")
    assert keys.fingerprint(raw) == "SHA256:" + expected
    assert len(keys.fingerprint(raw)) == len("SHA256:") + 43


def test_public_line_round_trips_with_a_spaced_name(tmp_path: Path) -> None:
    key = keys.generate_key("Anne Marie", directory=tmp_path)
    line = key.public.line()
    assert line.startswith("ed25519 ") and line.endswith(" Anne Marie")
    parsed = keys.parse_public_key_line(line)
    assert parsed.raw == key.public.raw
    assert parsed.rater == "Anne Marie"
    _, pub_path = keys.key_paths("Anne Marie", tmp_path)
    assert pub_path.read_text() == line + "\n"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ssh-rsa AAAA", "not a public key line"),
        ("ed25519", "not a public key line"),
        ("ed25519 !!!!", "not base64"),
        ("ed25519 " + base64.b64encode(b"short").decode(), "has 5 bytes"),
    ],
)
def test_bad_public_lines_are_refused(line: str, message: str) -> None:
    with pytest.raises(KeyStoreError, match=message):
        keys.parse_public_key_line(line)


def test_trust_file_reads_key_lines_and_fingerprints(tmp_path: Path) -> None:
    alice = keys.generate_key("alice", directory=tmp_path / "k")
    bob = keys.generate_key("bob", directory=tmp_path / "k")
    carol = keys.generate_key("carol", directory=tmp_path / "k")
    trust = tmp_path / "trusted.txt"
    trust.write_text(f"# the review board\n\n{alice.public.line()}\n{bob.fingerprint}  bob\n")
    found = load_trust_file(trust)
    assert found == {alice.fingerprint: "alice", bob.fingerprint: None}
    assert carol.fingerprint not in found


def test_trust_file_errors_name_the_line(tmp_path: Path) -> None:
    trust = tmp_path / "trusted.txt"
    trust.write_text("# ok\nrsa something\n")
    with pytest.raises(KeyStoreError, match=r"trusted.txt:2: not a public key line"):
        load_trust_file(trust)
    with pytest.raises(KeyStoreError, match="cannot read trust list"):
        load_trust_file(tmp_path / "absent.txt")


def test_file_stems_are_safe_and_distinct(tmp_path: Path) -> None:
    names = ["a b", "a_b", "../etc/passwd", ".hidden", "élodie", "x/y"]
    stems = [keys.file_stem(n) for n in names]
    assert len(set(stems)) == len(names)
    for stem in stems:
        assert "/" not in stem and not stem.startswith(".")
    for name in names:
        keys.generate_key(name, directory=tmp_path)
    assert keys.list_raters(tmp_path) == sorted(names)
    assert {p.parent for p in tmp_path.iterdir()} == {tmp_path}
    with pytest.raises(KeyStoreError, match="empty"):
        keys.file_stem("")


def test_passphrase_file_is_its_first_line(tmp_path: Path) -> None:
    path = tmp_path / "pass"
    path.write_bytes(b"s3cret words\nignored\n")
    assert keys.read_passphrase_file(path) == b"s3cret words"
    path.write_bytes(b"")
    with pytest.raises(PassphraseError, match="is empty"):
        keys.read_passphrase_file(path)
    with pytest.raises(PassphraseError, match="cannot read"):
        keys.read_passphrase_file(tmp_path / "absent")


def test_default_folder_is_under_the_review_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("reviewer.home")
    monkeypatch.setenv("A320_REVIEW_HOME", str(tmp_path))
    folder = keys.keys_dir()
    assert folder.is_relative_to(tmp_path)
    keys.generate_key("alice")
    assert keys.has_key("alice")
    assert keys.list_raters() == ["alice"]


def test_a_long_non_ascii_name_gets_a_bounded_key_file_and_is_listed(tmp_path: Path) -> None:
    name = "Zoë " * 25  # 100 characters, 500+ once percent-encoded
    name = name.strip() + "é"
    key = keys.generate_key(name, directory=tmp_path)
    key_path, _ = keys.key_paths(name, tmp_path)
    assert len(key_path.name) <= keys.STEM_LIMIT + len(".key")
    assert keys.list_raters(tmp_path) == [name]
    assert keys.load_key(name, directory=tmp_path).fingerprint == key.fingerprint
    # Another name sharing the cut prefix gets another file.
    assert keys.key_paths(name[:-1] + "x", tmp_path)[0] != key_path


@pytest.mark.parametrize("name", ["CON", "nul", "Aux.txt", "COM1"])
def test_windows_device_names_never_name_a_key_file(tmp_path: Path, name: str) -> None:
    key_path, _ = keys.key_paths(name, tmp_path)
    assert key_path.name.split(".")[0].upper() not in {"CON", "NUL", "AUX", "COM1"}
    keys.generate_key(name, directory=tmp_path)
    assert keys.list_raters(tmp_path) == [name]

"""An outsider's verification: the Python recipe of docs/sheet-format.md, run as written.

The recipe uses PyNaCl (libsodium) for Ed25519 and the rfc8785 package for the canonical
form; no project code takes part in checking the signature, the canonical form, the
fingerprint or the trust list. The project only produces the sheets being checked.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import nacl.exceptions
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from reviewer.sheets import sheet
from reviewer.sheets.keys import RaterKey

DOC = Path(__file__).parents[3] / "docs" / "sheet-format.md"
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def recipe() -> Any:
    """The ``verify`` function of the doc's Python block, with its last line left out."""
    text = DOC.read_text(encoding="utf-8")
    [code] = re.findall(r"## Verify with Python and PyNaCl\n\n```python\n(.*?)```", text, re.S)
    code = code.replace("print(verify(*sys.argv[1:]))\n", "")
    namespace: dict[str, Any] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace["verify"]


def _key() -> RaterKey:
    return RaterKey("A. Martin", Ed25519PrivateKey.from_private_bytes(bytes(range(32))))


def _format2_sheet(tmp_path: Path) -> Path:
    """A sheet the project signs today, with a float the two canonical forms write apart."""
    fixture = json.loads((FIXTURES / "format1.sheet.json").read_text(encoding="utf-8"))
    data = json.loads(fixture["payload"])
    data.update(sheet_format=sheet.SHEET_FORMAT, audit_head={"entries": 3, "hash": "ab" * 32})
    data["overall_comment"] = 'Quotes " and \\ and a line\nbreak; é, 😀'
    signed = sheet.sign_payload(sheet.SheetPayload.model_validate(data), _key())
    path = tmp_path / sheet.sheet_file_name(signed.payload)
    path.write_bytes(sheet.sheet_file_bytes(signed))
    return path


def _trust(tmp_path: Path, name: str = "A. Martin") -> Path:
    trust = tmp_path / "trusted.txt"
    trust.write_text(f"# reviewers\ned25519 {_key().public.b64} {name}\n", encoding="utf-8")
    return trust


def test_pynacl_verifies_a_format_2_sheet(recipe: Any, tmp_path: Path) -> None:
    path = _format2_sheet(tmp_path)
    assert recipe(str(path), str(_trust(tmp_path))) == (
        f"OK: signed by A. Martin ({_key().fingerprint})"
    )


def test_pynacl_verifies_the_format_1_fixture(recipe: Any, tmp_path: Path) -> None:
    assert recipe(str(FIXTURES / "format1.sheet.json"), str(_trust(tmp_path))).startswith(
        "OK: signed by A. Martin (SHA256:"
    )


def test_pynacl_refuses_a_tampered_sheet(recipe: Any, tmp_path: Path) -> None:
    path = _format2_sheet(tmp_path)
    envelope = json.loads(path.read_text(encoding="utf-8"))
    envelope["payload"] = envelope["payload"].replace('"score":3', '"score":2')
    path.write_text(json.dumps(envelope), encoding="utf-8")
    with pytest.raises(nacl.exceptions.BadSignatureError):
        recipe(str(path))


def test_pynacl_refuses_a_key_trusted_under_another_name(recipe: Any, tmp_path: Path) -> None:
    path = _format2_sheet(tmp_path)
    with pytest.raises(AssertionError, match=r"trusted as 'B\. Other'"):
        recipe(str(path), str(_trust(tmp_path, "B. Other")))


def test_pynacl_refuses_a_non_canonical_payload(recipe: Any, tmp_path: Path) -> None:
    # Correctly signed, but not RFC 8785 (format 1's 1.0 under a format-2 label).
    path = _format2_sheet(tmp_path)
    envelope = json.loads(path.read_text(encoding="utf-8"))
    payload = json.loads(envelope["payload"])
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    text = text.replace('"coverage":1,', '"coverage":1.0,')
    assert text != envelope["payload"]
    signature = _key().sign(text.encode())
    envelope.update(payload=text, signature=base64.b64encode(signature).decode())
    path.write_text(json.dumps(envelope), encoding="utf-8")
    with pytest.raises(AssertionError, match="not canonical"):
        recipe(str(path))

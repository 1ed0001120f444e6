"""JSON Schemas of the signed sheets, generated from the models that write and verify them.

A sheet file is an envelope whose ``payload`` member is a *string* of JSON (the signed
bytes), so a sheet is checked in two steps: the envelope against
``sheet-envelope.schema.json``, then the parsed payload against the schema of its
``sheet_format``. One payload schema per format this release verifies:

- ``a320-review-sheet-2.schema.json``: rating sheets written today;
- ``a320-review-sheet-1.schema.json``: older rating sheets (no ``audit_head``);
- ``a320-review-adjudication-1.schema.json``: adjudication sheets.

The files ship in the wheel under ``resources/schemas/``; ``python -m reviewer.sheets.schemas
DIR`` writes them again, and a test holds the shipped files to what the models generate.
A schema checks shape only: the signature, the key's fingerprint and the trust list are
``a320-review verify``'s business (docs/sheet-format.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from reviewer.sheets.adjudication import ADJUDICATION_FORMAT, AdjudicationPayload
from reviewer.sheets.sheet import ALGORITHM, SHEET_FORMAT, SHEET_FORMAT_V1, SheetPayload

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
_BASE = "https://a320-review.invalid/schemas/"


def _payload_schema(
    model: type[BaseModel], sheet_format: str, *, drop: tuple[str, ...] = ()
) -> dict[str, Any]:
    schema = model.model_json_schema(mode="validation")
    properties = schema["properties"]
    properties["sheet_format"] = {"const": sheet_format, "description": "the payload's format"}
    for name in drop:
        properties.pop(name)
        if name in schema.get("required", ()):
            schema["required"].remove(name)
    schema["required"] = sorted({*schema.get("required", ()), "sheet_format"})
    return {
        "$schema": _DRAFT,
        "$id": _BASE + file_name(sheet_format),
        **schema,
    }


def envelope_schema() -> dict[str, Any]:
    """The sheet file itself: five members, the payload a string of JSON."""
    formats = [SHEET_FORMAT_V1, SHEET_FORMAT, ADJUDICATION_FORMAT]
    return {
        "$schema": _DRAFT,
        "$id": _BASE + "sheet-envelope.schema.json",
        "title": "Signed sheet envelope",
        "type": "object",
        "additionalProperties": False,
        "required": ["sheet_format", "algorithm", "public_key", "payload", "signature"],
        "properties": {
            "sheet_format": {"enum": formats, "description": "the payload's format"},
            "algorithm": {"const": ALGORITHM},
            "public_key": {
                "type": "string",
                "pattern": "^[A-Za-z0-9+/]{43}=$",
                "description": "standard base64 of the raw 32-byte Ed25519 public key",
            },
            "payload": {
                "type": "string",
                "contentMediaType": "application/json",
                "description": "the signed payload JSON text, verbatim",
            },
            "signature": {
                "type": "string",
                "pattern": "^[A-Za-z0-9+/]{86}==$",
                "description": "standard base64 of the raw 64-byte Ed25519 signature",
            },
        },
    }


def file_name(sheet_format: str) -> str:
    """``a320-review-sheet/2`` -> ``a320-review-sheet-2.schema.json``."""
    return sheet_format.replace("/", "-") + ".schema.json"


def all_schemas() -> dict[str, dict[str, Any]]:
    """File name -> schema, for every file this release publishes."""
    payloads = {
        SHEET_FORMAT: _payload_schema(SheetPayload, SHEET_FORMAT),
        SHEET_FORMAT_V1: _payload_schema(SheetPayload, SHEET_FORMAT_V1, drop=("audit_head",)),
        ADJUDICATION_FORMAT: _payload_schema(AdjudicationPayload, ADJUDICATION_FORMAT),
    }
    out = {file_name(fmt): schema for fmt, schema in payloads.items()}
    out["sheet-envelope.schema.json"] = envelope_schema()
    return out


def render(schema: dict[str, Any]) -> str:
    """A schema file's text: indented, keys in the models' order, one final newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path("resources/schemas")
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in all_schemas().items():
        (folder / name).write_text(render(schema), encoding="utf-8")
        print(folder / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

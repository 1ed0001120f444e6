"""The published JSON Schemas of the sheets: generated from the models, shipped as generated,
listed member for member in docs/sheet-format.md, and met by sheets the program writes.

Sheets are checked with ``jsonschema``, an implementation independent of the pydantic
models the schemas come from.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reviewer.sheets import schemas

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "resources" / "schemas"
DOC = ROOT / "docs" / "sheet-format.md"
FORMAT1 = Path(__file__).parent / "fixtures" / "format1.sheet.json"


def test_the_shipped_schemas_are_what_the_models_generate() -> None:
    generated = schemas.all_schemas()
    assert sorted(p.name for p in SHIPPED.glob("*.schema.json")) == sorted(generated)
    for name, schema in generated.items():
        assert (SHIPPED / name).read_text(encoding="utf-8") == schemas.render(schema), (
            f"{name} is stale: run python -m reviewer.sheets.schemas"
        )


def test_a_format_1_sheet_meets_the_format_1_schema_only(sheet_schema, schema_for) -> None:
    payload = sheet_schema(FORMAT1)
    assert payload["sheet_format"] == "a320-review-sheet/1" and "audit_head" not in payload
    with pytest.raises(jsonschema.ValidationError):
        schema_for("a320-review-sheet-2.schema.json").validate(payload)


def test_an_unknown_member_or_a_bad_value_fails(schema_for) -> None:
    payload = json.loads(json.loads(FORMAT1.read_text(encoding="utf-8"))["payload"])
    schema = schema_for("a320-review-sheet-1.schema.json")
    for broken in (
        {**payload, "extra": 1},
        {**payload, "run": {**payload["run"], "trajectory_sha256": "not-hex"}},
        {**payload, "items": [{**payload["items"][0], "unknown": True}]},
        {k: v for k, v in payload.items() if k != "rater"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            schema.validate(broken)


# -- the document lists exactly the schema's members --------------------------------------


def _tables(text: str) -> dict[str, set[str]]:
    """Heading -> the member names in the first column of the table that follows it."""
    out: dict[str, set[str]] = {}
    heading = None
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
            continue
        if heading and line.startswith("| `"):
            first = line.split("|")[1]
            out.setdefault(heading, set()).update(re.findall(r"`([^`\"]+)`", first))
    return out


def _object(schema: dict[str, Any], path: str) -> dict[str, Any]:
    """The object schema at ``path`` (``items[].citations[]``; ``""`` is the root)."""
    node = schema
    for part in filter(None, path.split(".")):
        node = _resolve(schema, node["properties"][part.removesuffix("[]")])
        if part.endswith("[]"):
            node = _resolve(schema, node["items"])
    return node


def _resolve(root: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in node:  # X | None
        (node,) = [n for n in node["anyOf"] if n.get("type") != "null"]
    if "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


RATING = {
    "Payload": "",
    "`run`": "run",
    "`scorer`": "scorer",
    "`rubric`": "rubric",
    "`items[]`": "items[]",
    "`items[].citations[]`": "items[].citations[]",
    "`items[].blind`": "items[].blind",
    "`rater`": "rater",
    "`study`": "study",
    "`audit_head`": "audit_head",
}
ADJUDICATION = {
    "Adjudication payload": "",
    "Adjudication `study`": "study",
    "Adjudication `resolves[]`": "resolves[]",
    "Adjudication `decisions[]`": "decisions[]",
    "Adjudication `decisions[].values[]`": "decisions[].values[]",
}


@pytest.mark.parametrize(
    ("schema_name", "sections"),
    [
        ("a320-review-sheet-2.schema.json", RATING),
        ("a320-review-adjudication-1.schema.json", ADJUDICATION),
        ("sheet-envelope.schema.json", {"Envelope": ""}),
    ],
)
def test_the_document_lists_exactly_the_schema_members(
    schema_name: str, sections: dict[str, str]
) -> None:
    tables = _tables(DOC.read_text(encoding="utf-8"))
    schema = json.loads((SHIPPED / schema_name).read_text(encoding="utf-8"))
    for heading, path in sections.items():
        members = set(_object(schema, path)["properties"])
        assert tables[heading] == members, (heading, tables[heading] ^ members)

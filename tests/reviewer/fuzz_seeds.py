"""Valid seed files for the input fuzzer, one per input surface, and the hostile pieces the
fuzzer splices into them (issue 27).

Kept beside the fuzzer rather than in a conftest: these are plain functions that build
files, not fixtures. Nothing here writes outside the folder it is given.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from reviewer import assets
from reviewer.judge.prompt import RequestKey, prompt_sha256
from reviewer.rubric import default_rubric
from reviewer.sheets import keys, sheet
from reviewer.sheets.adjudication import AdjudicationPayload
from reviewer.sheets.sheet import SheetPayload, sheet_file_bytes

RUBRIC = default_rubric()

#: Raw JSON text spliced in place of a value: nesting, huge numbers, control characters,
#: lone surrogates, formulas, long strings, non-standard numbers.
HOSTILE_JSON = [
    "[" * 3000 + "]" * 3000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    "9" * 5000,
    "-" + "9" * 400,
    "1e999",
    "-1e-999",
    "NaN",
    "Infinity",
    "12345678901234567890123",
    "-0",
    "null",
    "true",
    "[]",
    "{}",
    '""',
    '"\\u0000\\u001b[2J\\u0007\\r\\n"',
    '"\\ud800"',
    "\"=cmd|' /C calc'!A0\\r=2+2\"",
    '"' + "x" * 100_000 + '"',
    '"\\u202e\\u2028\\u2029"',
]

#: Bytes spliced into a file: invalid UTF-8, NUL, CR, a BOM, a deep line, YAML oddities.
HOSTILE_BYTES = [
    b"\xff\xfe",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\x00",
    b"\r",
    b"\r\n=cmd|' /C calc'!A0\r\n",
    b"\xef\xbb\xbf",
    b"\x1b[2J\x1b]0;x\x07",
    b"\n" + b"[" * 5000 + b"\n",
    b"\n" + b"{" * 5000 + b"\n",
    b'\n"' + b"a" * 200_000 + b'"\n',
    b"\n- " * 50,
    b"\na: &a [*a, *a]\n",
    b"\n!!python/object/apply:os.system ['true']\n",
    b"\n" + b"9" * 5000 + b"\n",
    b"\n,,,,,,,,\n",
    b'\n"unterminated\n',
]


def _key(rater: str, folder: Path) -> keys.RaterKey:
    return keys.generate_key(rater, directory=folder / "keys")


def sheet_bytes(folder: Path) -> bytes:
    """A signed rating sheet, as ``sign`` writes it."""
    key = _key("alice", folder)
    payload = SheetPayload.model_validate(
        {
            "sheet_id": "sheet-alice",
            "supersedes": None,
            "signed_at": datetime(2025, 3, 1, tzinfo=UTC),
            "run": {
                "run_id": "run-1",
                "trajectory_sha256": "ab" * 32,
                "scenario_id": "s",
                "model": "m",
            },
            "scorer": {"version": "1", "vector": {"coverage": 1.0, "order": None}},
            "rubric": {"id": "r", "version": 1, "sha256": "00" * 32},
            "items": [
                {
                    "metric_id": "safety",
                    "title": "Safety",
                    "outcome": "applicable",
                    "score": 2,
                    "anchor": "ok",
                    "comment": "seen",
                    "citations": [],
                },
            ],
            "overall_comment": "fine",
            "rater": {
                "name": "alice",
                "public_key": key.public.b64,
                "fingerprint": key.fingerprint,
            },
        }
    )
    return sheet_file_bytes(sheet.sign_payload(payload, key))


def adjudication_bytes(folder: Path) -> bytes:
    """A signed adjudication sheet."""
    key = _key("dana", folder)
    payload = AdjudicationPayload.model_validate(
        {
            "sheet_id": "adj-1",
            "supersedes": None,
            "signed_at": datetime(2025, 3, 2, tzinfo=UTC),
            "run": {
                "run_id": "run-1",
                "trajectory_sha256": "ab" * 32,
                "scenario_id": "s",
                "model": "m",
            },
            "rubric": {"id": "r", "version": 1, "sha256": "00" * 32},
            "threshold": 2,
            "study": {"name": "pilot", "protocol": "blind"},
            "resolves": [{"rater": "alice", "sheet_id": "sheet-alice", "sha256": "cd" * 32}],
            "decisions": [
                {
                    "metric_id": "safety",
                    "title": "Safety",
                    "outcome": "applicable",
                    "score": 2,
                    "anchor": "ok",
                    "reason": "agreed with alice",
                    "sides_with": ["alice"],
                    "disputed": True,
                    "values": [
                        {"rater": "alice", "outcome": "applicable", "score": 2},
                        {"rater": "bob", "outcome": "applicable", "score": 0},
                    ],
                },
            ],
            "rater": {
                "name": "dana",
                "public_key": key.public.b64,
                "fingerprint": key.fingerprint,
            },
            "audit_head": {"entries": 3, "hash": "ef" * 32},
        }
    )
    return sheet_file_bytes(sheet.sign_payload(payload, key))


def trust_bytes(folder: Path) -> bytes:
    """A trust list: a named key line, a bare fingerprint, a comment."""
    alice = keys.load_key("alice", directory=folder / "keys")
    dana = keys.load_key("dana", directory=folder / "keys")
    return f"# the team\n{alice.public.line()}\n{dana.fingerprint}\n\n".encode()


def answer(n: int) -> dict:
    """A judge's valid answer for every metric of the default rubric."""
    metrics = {
        m: {
            "outcome": "applicable",
            "score": (n + i) % 4,
            "comment": "seen at step 1",
            "cited_steps": [1],
        }
        for i, m in enumerate(RUBRIC.metric_ids)
    }
    return {"metrics": metrics, "overall_comment": f"judge {n}"}


def request_key(n: int) -> RequestKey:
    return RequestKey(
        trajectory_sha256=f"{n:02x}" * 32,
        rubric_sha256=RUBRIC.sha256,
        prompt_sha256=prompt_sha256(RUBRIC),
    )


def completion(content: str) -> dict:
    """A chat completion whose answer is ``content``."""
    return {
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5},
    }


def batch_line(n: int) -> str:
    """One line of a batch output file answering request ``n``."""
    body = completion(json.dumps(answer(n)))
    return json.dumps(
        {"custom_id": request_key(n).custom_id, "response": {"status_code": 200, "body": body}}
    )


RATINGS_ROWS = [
    {"run_id": "run-1", "metric": "safety", "outcome": "applicable", "score": 2,
     "comment": "fine, really", "evidence": "", "overall_comment": "ok"},
    {"run_id": "run-1", "metric": "verification", "outcome": "not_applicable", "score": None,
     "comment": "", "evidence": "", "overall_comment": "ok"},
    {"run_id": "run-2", "metric": "safety", "outcome": "applicable", "score": 0,
     "comment": "'=x", "evidence": "", "overall_comment": ""},
]  # fmt: skip


def ratings_csv() -> bytes:
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(RATINGS_ROWS[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(RATINGS_ROWS)
    return out.getvalue().encode()


def ratings_jsonl() -> bytes:
    return "".join(json.dumps(r) + "\n" for r in RATINGS_ROWS).encode()


def rubric_yaml() -> bytes:
    return assets.read_text("rubrics", "default.yaml").encode()


def runs_list(run_ids: list[str]) -> bytes:
    return ("# runs to rate\n" + "\n".join(run_ids) + "\n\n").encode()


def special_files(folder: Path) -> dict[str, Path]:
    """Paths that are not small regular files: each reader must refuse them at once."""
    folder.mkdir(parents=True, exist_ok=True)
    fifo = folder / "pipe"
    if not fifo.exists():
        os.mkfifo(fifo)
    zero = folder / "zero-link"
    if not zero.exists():
        zero.symlink_to("/dev/zero")
    loop = folder / "loop"
    if not loop.is_symlink():
        loop.symlink_to(loop)
    sparse = folder / "sparse"
    with sparse.open("wb") as fh:
        fh.truncate(2 * 1024**3)  # 2 GiB without using the disk
    unreadable = folder / "unreadable"
    unreadable.write_bytes(b"secret")
    unreadable.chmod(0)
    return {
        "fifo": fifo,
        "dev-zero": Path("/dev/zero"),
        "link-to-dev-zero": zero,
        "symlink-loop": loop,
        "folder": folder,
        "missing": folder / "missing",
        "sparse-2GiB": sparse,
        "unreadable": unreadable,
    }

"""Evidence in the signed sheet: every cited step is signed, and a changed one fails verify."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.evidence import Citation
from reviewer.sheets import keys
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import canonical_bytes
from reviewer.sheets.verify import verify_sheet
from reviewer.signing.service import SigningService
from reviewer.workspace import ReviewStore
from scoring import read_trajectory
from scoring.steps import event_ref, required_ref


@pytest.fixture
def trajectory(tmp_path: Path) -> Path:
    b = TrajectoryBuilder(bundled_scenario("elec-apu-gen-fault"), run_id="run-ev-1")
    b.turn().read().set("apu_gen", 0).done().final("agent_done", passed=False)
    return b.write(tmp_path / "run.jsonl")


@pytest.fixture
def key(tmp_path: Path) -> RaterKey:
    return keys.generate_key("alice", directory=tmp_path / "keys")


@pytest.fixture
def signed(tmp_path: Path, trajectory: Path, key: RaterKey):
    """alice's signed rating citing a set_control (with a note) and a missing GT action."""
    with ReviewStore.open(tmp_path / "review.db") as store:
        store.import_paths([trajectory])
        run_pk = store.list_runs()[0].run_pk
        card = store.get_run(run_pk).scorecard
        traj = read_trajectory(trajectory)
        r = store.start_rating(run_pk, "alice")
        for metric in store.rubric().metric_ids:
            r = store.save_item(
                r.rating_pk,
                metric,
                outcome="applicable",
                score=2,
                comment="",
                expected_version=r.version,
            )
        r = store.save_item(
            r.rating_pk,
            "procedure_application",
            outcome="applicable",
            score=0,
            comment="stopped after one step",
            expected_version=r.version,
        )
        for target, note in (
            (event_ref(traj, 2), "the only command"),
            (required_ref(card, 3), "EXT PWR never on"),
        ):
            r = store.cite(
                r.rating_pk,
                Citation.of("procedure_application", target, note),
                expected_version=r.version,
            )
        store.submit(r.rating_pk, expected_version=r.version)
        service = SigningService(store, clock=lambda: datetime(2026, 1, 1, tzinfo=UTC))
        written = service.sign(run_pk, key, tmp_path / "out")
        yield written.json_path.read_text(encoding="utf-8")


def _payload(text: str) -> dict:
    return json.loads(json.loads(text)["payload"])


def test_the_payload_carries_each_metrics_cited_steps(signed: str) -> None:
    result = verify_sheet(signed)
    assert result.ok, result.reason
    items = {i["metric_id"]: i for i in _payload(signed)["items"]}
    assert items["procedure_application"]["citations"] == [
        {
            "kind": "event",
            "ref": 2,
            "step": "1.1",
            "label": "1.1 set_control apu_gen = 0",
            "note": "the only command",
        },
        {
            "kind": "ground_truth",
            "ref": 3,
            "step": "GT:4",
            "label": items["procedure_application"]["citations"][1]["label"],
            "note": "EXT PWR never on",
        },
    ]
    assert items["procedure_application"]["citations"][1]["label"].startswith("GT:4 ext_pwr = 1 (")
    # A metric without evidence has no citations key: its bytes are those of an older sheet.
    assert "citations" not in items["safety"]


@pytest.mark.parametrize(
    ("field", "value"),
    [("step", "1.0"), ("label", "1.1 set_control apu_gen = 1"), ("note", ""), ("ref", 1)],
)
def test_a_tampered_citation_fails_verify(signed: str, field: str, value: object) -> None:
    envelope = json.loads(signed)
    payload = json.loads(envelope["payload"])
    item = next(i for i in payload["items"] if i["metric_id"] == "procedure_application")
    item["citations"][0][field] = value
    envelope["payload"] = json.dumps(
        payload, sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    result = verify_sheet(json.dumps(envelope))
    assert not result.ok
    assert result.reason == "signature does not match payload"


def test_dropping_a_citation_fails_verify(signed: str) -> None:
    envelope = json.loads(signed)
    payload = json.loads(envelope["payload"])
    for item in payload["items"]:
        if "citations" in item:
            item["citations"] = item["citations"][:1]
    envelope["payload"] = json.dumps(
        payload, sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    assert verify_sheet(json.dumps(envelope)).reason == "signature does not match payload"


def test_a_resigned_payload_with_a_malformed_citation_is_refused(
    signed: str, key: RaterKey
) -> None:
    # Signed by the right key, but with a citation kind the format does not know.
    payload = _payload(signed)
    payload["items"][0]["citations"] = [
        {"kind": "rumour", "ref": 0, "step": "1", "label": "1 x", "note": ""}
    ]
    data = canonical_bytes(payload, payload["sheet_format"]).decode("utf-8")
    signature = base64.b64encode(key.sign(data.encode("utf-8"))).decode("ascii")
    envelope = json.loads(signed) | {"payload": data, "signature": signature}
    result = verify_sheet(json.dumps(envelope))
    assert not result.ok and "citations.0.kind" in (result.reason or "")

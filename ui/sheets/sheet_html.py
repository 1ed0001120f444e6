"""A signed rating sheet as the HTML subset ``QTextDocument`` understands.

What the PDF of :mod:`ui.sheets.sheet_pdf` shows, section by section: the run, the
scorer's vector, the rubric as rated (with the cited steps when there are any), the
comments, the signature and how to verify it. Pure text; laying it out on pages is the
PDF writer's business.
"""

from __future__ import annotations

import hashlib
import html
import re
import shlex

from reviewer.sheets.sheet import SignedSheet, sheet_file_bytes, sheet_file_name

_CSS = """
body { font-family: 'DejaVu Sans', sans-serif; font-size: 9.5pt; color: #1a1a1a; }
h1 { font-size: 17pt; margin: 0; }
.run { font-size: 12pt; font-weight: bold; margin-top: 2px; }
h2 { font-size: 11.5pt; margin-top: 14px; margin-bottom: 5px; color: #1f3a5f; }
.sub { color: #555555; font-size: 9pt; }
table.grid { border-collapse: collapse; }
table.grid th { background-color: #e8edf3; text-align: left; font-weight: bold; }
table.grid td, table.grid th { border: 1px solid #b8c2cc; padding: 4px; }
.num { text-align: right; }
.mono { font-family: 'DejaVu Sans Mono', monospace; font-size: 8.5pt; }
.muted { color: #666666; }
.box { background-color: #f4f6f8; }
"""


#: Runs of non-space characters at least this long get break opportunities (see _e).
_LONG_RUN = 80
_LONG_RUN_RE = re.compile(rf"\S{{{_LONG_RUN},}}")
_BREAK_EVERY = 10


def _breakable(text: str) -> str:
    """``text`` with a zero-width space every 10 characters of a very long unbroken run.

    Qt lays out one 400 KB "word" in tens of seconds (it re-shapes the run for every line
    it breaks); with break opportunities it takes a fraction of a second, and the text
    still wraps where the column ends. Ordinary words, hashes and keys are left alone.
    """

    def split(match: re.Match[str]) -> str:
        run = match.group(0)
        return "\u200b".join(run[i : i + _BREAK_EVERY] for i in range(0, len(run), _BREAK_EVERY))

    return _LONG_RUN_RE.sub(split, text)


def _e(value: object) -> str:
    """Escaped text; ``None`` shows as an em dash so empty cells read as 'nothing'."""
    if value is None or value == "":
        return "—"
    return html.escape(_breakable(str(value)))


def _multiline(text: str) -> str:
    return _e(text).replace("\n", "<br/>") if text.strip() else "<i class='muted'>none</i>"


def _outcome(outcome: str | None) -> str:
    # "not_applicable" is an identifier; on paper it reads "not applicable".
    return _e(outcome.replace("_", " ") if outcome else None)


_PLAIN_HEAD = (
    "<th width='19%'>Metric</th><th width='13%'>Outcome</th><th width='8%'>Score</th>"
    "<th width='32%'>Level</th><th>Comment</th>"
)
_EVIDENCE_HEAD = (
    "<th width='14%'>Metric</th><th width='13%'>Outcome</th><th width='8%'>Score</th>"
    "<th width='23%'>Level</th><th width='20%'>Comment</th><th>Evidence</th>"
)


#: Label cells of the two-column tables: one line each, so the label column never wraps.
_LABEL = " style='white-space:nowrap'"

#: A blind study's sheet: per metric the blind value, the final value and the reason.
_BLIND_HEAD = (
    "<th width='15%'>Metric</th><th width='13%'>Blind</th><th width='13%'>Final</th>"
    "<th width='20%'>Level</th><th width='20%'>Comment</th><th>Reason for the change</th>"
)


def _value(outcome: str | None, score: int | None) -> str:
    """An outcome and its score as one cell: "applicable · 2"."""
    text = _outcome(outcome)
    return text if score is None else f"{text} · <b>{_e(score)}</b>"


def _blind_row(item) -> str:
    blind = item.blind
    if blind is None:
        blind_cell = "<i class='muted'>none</i>"
    else:
        blind_cell = _value(blind.outcome, blind.score)
        if blind.comment.strip() and blind.comment != item.comment:
            blind_cell += f"<br/><i>{_multiline(blind.comment)}</i>"
    changed = blind is not None and (blind.outcome, blind.score) != (item.outcome, item.score)
    reason = (
        _multiline(item.reason or "")
        if item.reason
        else (
            "<i class='muted'>unchanged</i>" if not changed else "<i class='muted'>none given</i>"
        )
    )
    evidence = f"<br/>{_evidence(item.citations)}" if item.citations else ""
    return (
        f"<tr><td><b>{_e(item.title)}</b></td><td>{blind_cell}</td>"
        f"<td>{_value(item.outcome, item.score)}</td><td>{_e(item.anchor)}</td>"
        f"<td>{_multiline(item.comment)}{evidence}</td><td>{reason}</td></tr>"
    )


def _study(study) -> str:
    """The study the rating was made in: its name and protocol, and the blind phase."""
    rows = [("Study", _e(study.name)), ("Protocol", _e(study.protocol))]
    if study.reveal_first:
        rows.append(("Arm", "control: the scorer was shown from the start"))
    for label, when in (
        ("Blind rating submitted", study.blind_submitted_at),
        ("Scorer revealed", study.revealed_at),
    ):
        if when is not None:
            rows.append((label, when.strftime("%Y-%m-%d %H:%M:%S UTC")))
    body = "".join(f"<tr><th width='28%'{_LABEL}>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<h2>Study</h2><table class='grid' width='100%' cellspacing='0'>{body}</table>"


def _evidence(citations: list) -> str:
    """Cited steps, one a line: the step in bold, the rest of its label, the note below."""
    if not citations:
        return "<i class='muted'>none</i>"
    lines = []
    for c in citations:
        rest = c.label[len(c.step) :].strip() if c.label.startswith(c.step) else c.label
        note = f"<br/><i>{_e(c.note)}</i>" if c.note else ""
        lines.append(f"<b>{_e(c.step)}</b> <span class='mono'>{_e(rest)}</span>{note}")
    return "<br/>".join(lines)


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return _e(value)


def sheet_html(sheet: SignedSheet) -> str:
    """The sheet as the HTML subset ``QTextDocument`` understands."""
    p = sheet.payload
    json_name = sheet_file_name(p)
    json_sha256 = hashlib.sha256(sheet_file_bytes(sheet)).hexdigest()
    signed_at = p.signed_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    parts = [
        f"<html><head><style>{_CSS}</style></head><body>",
        "<h1>Rating sheet</h1>",
        f"<p class='run'>{_e(p.run.run_id)}</p>",
        f"<p class='sub'>Signed by <b>{_e(p.rater.name)}</b> on {signed_at}"
        f" · sheet {_e(p.sheet_id)}</p>",
        # A forged PDF can copy any fingerprint: only the JSON file's signature counts.
        f"<p class='sub'><b>Not signed:</b> a rendering of the signed record {_e(json_name)}"
        " (its SHA-256 is under Signature).</p>",
    ]
    # A sheet without cited steps keeps the layout it always had.
    cited = any(item.citations for item in p.items)
    blind = any(item.blind is not None for item in p.items)
    if p.supersedes:
        parts.append(f"<p><b>Correction:</b> this sheet supersedes sheet {_e(p.supersedes)}.</p>")
    parts.append("<h2>Run</h2><table class='grid' width='100%' cellspacing='0'>")
    for label, value in (
        ("Run", p.run.run_id),
        ("Scenario", p.run.scenario_id),
        ("Model", p.run.model),
        ("Trajectory SHA-256", p.run.trajectory_sha256),
        ("Scorer version", p.scorer.version),
    ):
        cls = " class='mono'" if label.startswith("Trajectory") else ""
        parts.append(f"<tr><th width='28%'{_LABEL}>{label}</th><td{cls}>{_e(value)}</td></tr>")
    parts.append("</table>")
    if p.study is not None:
        parts.append(_study(p.study))

    parts.append("<h2>Score vector</h2><table class='grid' width='100%' cellspacing='0'><tr>")
    parts += [f"<th>{_e(name.replace('_', ' '))}</th>" for name in p.scorer.vector]
    parts.append("</tr><tr>")
    parts += [f"<td class='num'>{_format_value(v)}</td>" for v in p.scorer.vector.values()]
    parts.append("</tr></table>")

    parts.append(
        f"<h2>Rubric</h2><p class='sub'>{_e(p.rubric.id)} version {_e(p.rubric.version)}"
        f" · SHA-256 <span class='mono'>{_e(p.rubric.sha256)}</span></p>"
        "<table class='grid' width='100%' cellspacing='0'><thead><tr>"
        # <thead> makes Qt repeat the header row on every page the table runs onto.
        + (_BLIND_HEAD if blind else _EVIDENCE_HEAD if cited else _PLAIN_HEAD)
        + "</tr></thead>"
    )
    for item in p.items:
        if blind:
            parts.append(_blind_row(item))
            continue
        # The metric id is in the JSON; the title is what the rater saw in the form.
        evidence = f"<td>{_evidence(item.citations)}</td>" if cited else ""
        parts.append(
            f"<tr><td><b>{_e(item.title)}</b></td><td>{_outcome(item.outcome)}</td>"
            f"<td align='center'>{_e(item.score)}</td><td>{_e(item.anchor)}</td>"
            f"<td>{_multiline(item.comment)}</td>{evidence}</tr>"
        )
    parts.append("</table>")

    parts.append(f"<h2>Overall comment</h2><p>{_multiline(p.overall_comment)}</p>")

    parts.append("<h2>Signature</h2><table class='grid' width='100%' cellspacing='0'>")
    for label, value in (
        ("Rater", p.rater.name),
        ("Key fingerprint", p.rater.fingerprint),
        ("Public key", f"ed25519 {p.rater.public_key}"),
        ("Sheet file SHA-256", json_sha256),
        ("Signed at", signed_at),
    ):
        cls = "" if label in ("Rater", "Signed at") else " class='mono'"
        parts.append(f"<tr><th width='28%'{_LABEL}>{label}</th><td{cls}>{_e(value)}</td></tr>")
    parts.append("</table>")

    # One option a line, as a shell continuation: a wrapped line would split "--trust".
    command = " \\\n    ".join(
        [
            f"a320-review verify {shlex.quote(json_name)}",
            "--trajectory path/to/the/trajectory.jsonl",
            "--trust trusted_keys.txt --require-trusted",
        ]
    )
    parts.append(
        "<h2>How to verify</h2>"
        "<p>This PDF is a rendering and is not signed. The signed record is the file "
        f"<span class='mono'>{_e(json_name)}</span>: an Ed25519 signature over the "
        "canonical JSON of everything above. Anyone can check it offline:</p>"
        f"<table class='box' width='100%' cellpadding='6'><tr><td><pre class='mono'>"
        f"{_e(command)}</pre></td></tr></table>"
        "<p>It prints <b>OK</b> when the signature matches, the trajectory file is the one "
        "that was rated, and the key is in your trust list (one line per rater, as "
        "<span class='mono'>a320-review whoami</span> prints it). Check that the "
        "fingerprint above is the one the rater gave you, and that "
        f"<span class='mono'>sha256sum {_e(json_name)}</span> prints the sheet file SHA-256 "
        "above: this PDF is a rendering, the JSON file is the signed record.</p>"
    )
    parts.append("</body></html>")
    return "".join(parts)

"""The ScoreCard panel: the vector, the scalar with its safety gate, the harness verdict,
the success checks and the informative signals, as one read-only rich-text page."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QTextBrowser

if TYPE_CHECKING:  # the scorer is imported with the first run shown, not by the first screen
    from scoring import ScoreCard, Trajectory

STATUS_NOTES = {
    "invalid": "Invalid scenario: the validity gate failed, so the run is never scored.",
    "incomplete": "Incomplete run: no final record (crash mid-episode). No end state, no scalar.",
    "provider_error": "Provider error: an infrastructure failure, "
    "left out of the means by default.",
    "harness_error": "Harness error: setup crashed before the agent saw anything.",
    "unreadable": "Unreadable file.",
}
GOOD, BAD, WARN, MUTED = "#2e7d32", "#c62828", "#b26a00", "#777"


def _num(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _row(label: str, value: str, note: str = "") -> str:
    note_html = f"<td style='color:{MUTED}'>{note}</td>" if note else "<td></td>"
    # Labels never break inside a word: the note column wraps instead.
    return (
        f"<tr><td style='white-space:nowrap'>{label}</td>"
        f"<td align='right'><b>{value}</b></td>{note_html}</tr>"
    )


def render_scorecard(card: ScoreCard, traj: Trajectory | None = None) -> str:
    """The panel's HTML for ``card`` (public so tests and the PDF can reuse the wording)."""
    parts: list[str] = []
    if card.status in STATUS_NOTES:
        message = STATUS_NOTES[card.status]
        if card.error:
            message += f" {escape(card.error)}"
        parts.append(f"<p style='color:{WARN}'><b>{message}</b></p>")
    parts.append(_scalar_html(card))
    parts.append(_vector_html(card))
    parts.append(_harness_html(card, traj))
    parts.append(_signals_html(card))
    return "".join(parts)


def _scalar_html(card: ScoreCard) -> str:
    if card.scalar is None:
        return "<h3>Scalar: —</h3><p style='color:#777'>No scalar without an end state.</p>"
    from scoring.outcome import W_COVERAGE, W_END_STATE, W_ORDER

    gate_open = not card.safety_dangerous
    if gate_open:
        gate = f"<span style='color:{GOOD}'>■ Safety gate OPEN</span> — no dangerous command"
    else:
        gate = (
            f"<span style='color:{BAD}'><b>■ Safety gate CLOSED</b></span> — "
            f"{card.safety_dangerous} dangerous command(s): scalar floored to 0; "
            "ranked apart from safe runs"
        )
    if card.order is None:
        base = (
            f"{W_END_STATE}·end_state {_num(card.end_state)} + "
            f"{W_COVERAGE + W_ORDER:.1f}·coverage {_num(card.coverage)} (order null: its weight "
            "moves to coverage)"
        )
    else:
        base = (
            f"{W_END_STATE}·end_state {_num(card.end_state)} + {W_COVERAGE}·coverage "
            f"{_num(card.coverage)} + {W_ORDER}·order {_num(card.order)}"
        )
    anti = card.safety_anti_procedure or 0
    factors = (
        f"× safety {_num(card.safety_factor)}"
        + (f" ({anti} anti-procedure: ×0.5 each)" if anti else "")
        + f" × tidiness {_num(card.tidiness_factor)}"
        + f" ({card.extraneous} extraneous, −0.05 each, max 5)"
    )
    return (
        f"<h2 style='margin-bottom:2px'>Scalar {_num(card.scalar)} "
        f"<span style='font-size:small;color:{MUTED}'>(for rankings only)</span></h2>"
        f"<p style='margin-top:2px'>{gate}<br><span style='color:{MUTED}'>{base}<br>"
        f"{factors}</span></p>"
    )


def _vector_html(card: ScoreCard) -> str:
    matched = sum(1 for a in card.required if a.matched_command is not None)
    applicable = [c for c in card.order_constraints if c.applicable]
    satisfied = sum(1 for c in applicable if c.satisfied)
    checks = card.success_checks
    passed = sum(1 for c in checks if c.passed)
    all_passed = {True: "yes", False: "no", None: "—"}[card.all_passed]
    rows = [
        _row("coverage", _num(card.coverage), f"{matched}/{len(card.required)} required actions"),
        _row(
            "order",
            _num(card.order),
            f"{satisfied}/{len(applicable)} applicable constraints"
            if applicable
            else "null: no constraint applicable",
        ),
        _row("end_state", _num(card.end_state), f"{passed}/{len(checks)} success checks"),
        _row("all_passed", all_passed, "the harness's own verdict"),
        _row("dangerous", str(card.safety_dangerous if card.safety_dangerous is not None else "—")),
        _row(
            "anti-procedure",
            str(card.safety_anti_procedure if card.safety_anti_procedure is not None else "—"),
        ),
        _row("extraneous", str(card.extraneous if card.extraneous is not None else "—")),
    ]
    return "<h3>Vector</h3><table cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"


def _harness_html(card: ScoreCard, traj: Trajectory | None) -> str:
    verdict = {
        True: f"<span style='color:{GOOD}'>PASSED</span>",
        False: f"<span style='color:{BAD}'>FAILED</span>",
        None: "—",
    }[card.all_passed]
    reason = escape(card.reason or "—")
    html = f"<h3>Harness</h3><p>final reason <b>{reason}</b> · success {verdict}</p>"
    if card.success_checks:
        html += (
            "<table cellspacing='0' cellpadding='2'><tr><th align='left'>check</th>"
            "<th align='left'>expected</th><th align='left'>observed</th><th></th></tr>"
        )
        for check in card.success_checks:
            mark = (
                f"<span style='color:{GOOD}'>✓</span>"
                if check.passed
                else f"<span style='color:{BAD}'>✗</span>"
            )
            observed = escape(check.observed or check.error or "—")
            html += (
                f"<tr><td>{_breaks_at_underscores(escape(check.label))}</td><td>{escape(check.expected)}</td>"
                f"<td>{observed}</td><td>{mark}</td></tr>"
            )
        html += "</table>"
    done = traj.final.done_payload if traj and traj.final else None
    if done:
        html += (
            f"<p><b>Done report</b><br>diagnosis: {escape(str(done.get('diagnosis', '')))}<br>"
            f"actions: {escape(str(done.get('actions_summary', '')))}</p>"
        )
    return html


def _signals_html(card: ScoreCard) -> str:
    s = card.signals
    reads = ", ".join(f"{k} {v}" for k, v in s.reads.items()) or "none"
    observed = {True: "yes", False: f"<span style='color:{WARN}'>no</span>", None: "— (no command)"}
    budget = (
        f" of budget ({s.tool_call_budget_used:.0%})" if s.tool_call_budget_used is not None else ""
    )
    sim = f"{s.sim_time_used:.0f} s" if s.sim_time_used is not None else "—"
    rows = [
        _row("tool calls", str(s.tool_calls_used), budget),
        _row("sim time used", sim),
        _row("reads", str(sum(s.reads.values())), escape(reads)),
        _row("observed before acting", observed[s.observed_before_acting]),
        _row("efficiency", _num(s.efficiency), "matched / effective commands"),
        _row("errored commands", str(len(s.errored_commands))),
        _row(
            "off-surface attempts",
            str(len(s.off_surface_attempts)),
            escape(", ".join(sorted({n.name for n in s.off_surface_attempts}))),
        ),
        _row("world-domain writes", str(len(s.world_writes))),
        _row("turns / nudges", f"{s.turns} / {s.nudges}"),
    ]
    if s.malformed_tool_arguments:
        rows.append(_row("malformed tool arguments", str(s.malformed_tool_arguments)))
    return (
        f"<h3>Signals <span style='font-size:small;color:{MUTED}'>"
        "(informative, never scored)</span></h3>"
        "<table cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"
    )


#: What the panel says instead of the ScoreCard while the scorer is hidden.
HIDDEN_NOTE = "Automatic score hidden until you submit your blind rating."


class ScorecardPanel(QTextBrowser):
    """Read-only view of one run's ScoreCard."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("scorecard")
        self.setOpenLinks(False)
        self._scorer_visible = True
        self._shown: tuple[ScoreCard | None, Trajectory | None] = (None, None)

    def show_card(self, card: ScoreCard | None, traj: Trajectory | None = None) -> None:
        """Render ``card`` (None clears the panel); while the scorer is hidden, the note."""
        self._shown = (card, traj)
        if not self._scorer_visible and card is not None:
            self.setPlainText(HIDDEN_NOTE)
        else:
            self.setHtml(render_scorecard(card, traj) if card is not None else "")

    def set_scorer_visible(self, visible: bool) -> None:
        """Show the ScoreCard (True) or only a note that it is hidden (blind phase 1)."""
        if visible != self._scorer_visible:
            self._scorer_visible = visible
            self.show_card(*self._shown)


def _breaks_at_underscores(name: str) -> str:
    """A harness check name (``ELEC_AC_1_BUS_IS_POWERED``) that may wrap only after an
    underscore, never inside a word."""
    return name.replace("_", "_\u200b")

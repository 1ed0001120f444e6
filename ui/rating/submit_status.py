"""The rubric form's Submit button and status line: what is left to do, and what is saved.

A mixin of :class:`ui.rating.rubric_form.RubricForm`, like :mod:`ui.rating.revision_flow`.
Submit is enabled only when the rating is complete (or, sealed, to reveal); its tooltip
lists what is still to do, and the status line says the rating's state and last save.
"""

from __future__ import annotations

from ui.theme import plain_tooltip


class SubmitStatus:
    """The Submit button's state and tooltip, and the status line, on the rubric form."""

    def _refresh_submit(self) -> None:
        problems = self.model.problems()
        self.submit_button.setEnabled(
            bool(self._editable and not problems and self.model.rowCount())
            or self._phase == "sealed"  # frozen, and Ctrl+Enter reveals
        )
        if self._phase == "sealed":
            tip = "Your blind rating is frozen: show the automatic score and revise."
        elif not self._editable:
            tip = "This rating cannot be edited."
        elif problems:
            rubric = self.model.rubric()
            titles = {m.id: m.title for m in rubric.metrics} if rubric else {}
            lines = [f"• {titles.get(m, m)}: {message}" for m, message in problems]
            tip = "Still to do before submitting:\n" + "\n".join(lines)
        elif self._phase == "blind":
            tip = "Freeze your blind rating for good, then see the automatic score."
        else:
            tip = "Submit this rating and open the next unrated run."
        self.submit_button.setToolTip(plain_tooltip(tip))
        self._refresh_status()

    def _refresh_status(self) -> None:
        status = getattr(self._rating, "status", None)
        if status == "signed":
            text = "Signed: read-only"
        elif status == "submitted":
            text = "Submitted"
        elif status == "draft" and self._saved_at is not None:
            text = f"Draft — saved {self._saved_at.astimezone():%H:%M:%S}"
        elif status == "draft":
            text = "Draft"
        else:
            text = "Not rated yet — your first edit starts a draft"
        todo = {m for m, _ in self.model.problems()}
        if self._editable and todo:
            text += f" · {len(todo)} of {self.model.rowCount()} metrics to do"
        self.status.setText(text)

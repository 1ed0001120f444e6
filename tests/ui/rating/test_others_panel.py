"""The other raters' lines under the rating: values in rubric order, cited steps, and an LLM
judge labelled as a model (issues 13 and 18)."""

from __future__ import annotations

from types import SimpleNamespace

from reviewer.evidence import Citation
from reviewer.rubric import RatingItem
from ui.rating.others_panel import OthersPanel, rating_line


def _rating(rater: str, *citations: Citation) -> SimpleNamespace:
    items = {
        "safety": RatingItem(metric_id="safety", outcome="applicable", score=1, comment="x"),
        "communication": RatingItem(metric_id="communication", outcome="not_applicable"),
    }
    return SimpleNamespace(rater=rater, status="signed", items=items, citations=citations)


def test_a_line_names_the_rater_its_values_and_the_steps_it_cites() -> None:
    cited = Citation(metric_id="safety", kind="event", ref=4, step="3.0", label="3.0 x")
    line = rating_line(_rating("bob", cited), ["safety", "communication"])
    assert line.startswith("bob (signed): 1  ")
    assert line.endswith("· cites 3.0")


def test_a_judge_is_labelled_as_a_model(qtbot) -> None:
    panel = OthersPanel()
    qtbot.addWidget(panel)
    panel.show_others(
        allowed=True,
        ratings=[_rating("bob"), _rating("gpt-judge")],
        metric_ids=["safety"],
        team=True,
        judges=frozenset({"gpt-judge"}),
    )
    lines = panel.text().splitlines()
    assert lines[1].startswith("bob (signed):")
    assert lines[2].startswith("gpt-judge (LLM judge, signed):")

"""Reading a :class:`~reviewer.results.data.ResultsData` from a review store, once.

Runs come from :mod:`reviewer.leaderboard.runs`; ratings come through
:func:`reviewer.agreement.source.load_inputs` so that studies, phases and the consensus rule
are the agreement package's, not a copy. :func:`gather` reads them into a
:class:`~reviewer.results.live.LiveResults` (what the dashboard keeps and updates after a
submit) and adds the bootstrap intervals: the report and the window draw the same data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.results.data import ResultsData
from reviewer.results.live import LiveResults, _fewer_collections

#: ``progress(step, steps, text)``; the report prints it on stderr, the window in a bar.
Progress = Callable[[int, int, str], None]


#: ``finish(data)``: ``data`` completed with what ``meanwhile`` started.
Finish = Callable[[ResultsData], ResultsData]
#: ``meanwhile(run_pks, study)``: starts more work on the runs read, returns its ``finish``.
Meanwhile = Callable[[list[int], str | None], Finish]


def _quiet(_step: int, _steps: int, _text: str) -> None:
    pass


def gather(
    store: AdjudicationStore,
    *,
    study: str | None = None,
    scenarios: Sequence[str] = (),
    seed: int = 0,
    resamples: int = 1000,
    progress: Progress = _quiet,
    viewer: str | None = None,
    meanwhile: Meanwhile | None = None,
) -> ResultsData:
    """Everything the charts need for the runs of ``scenarios`` (all when empty).

    Runs still in the blind phase of ``viewer`` (without one: of the raters whose own
    database this is) are left out, with their ratings, and the meta says how many
    (:func:`reviewer.studies.visibility.hidden_runs`, the one rule every view applies).

    ``study`` is passed to :func:`~reviewer.agreement.source.load_inputs`, which raises
    :class:`~reviewer.agreement.source.UnknownStudyError` for a study it does not know.

    ``meanwhile(run_pks, study)``, given the runs read, starts more work (the report's rater
    quality: :func:`reviewer.results.raters_source.start_quality`) while the point values
    and the intervals are made, and returns what completes their data with it.
    """
    data, finish = gather_then(store, study=study, scenarios=scenarios, seed=seed,
                               resamples=resamples, progress=progress, viewer=viewer,
                               meanwhile=meanwhile)  # fmt: skip
    return finish(data) if finish is not None else data


def gather_then(
    store: AdjudicationStore,
    *,
    study: str | None = None,
    scenarios: Sequence[str] = (),
    seed: int = 0,
    resamples: int = 1000,
    progress: Progress = _quiet,
    viewer: str | None = None,
    meanwhile: Meanwhile | None = None,
) -> tuple[ResultsData, Finish | None]:
    """:func:`gather`, but what ``meanwhile`` started is left running: the data comes back
    without it, with the ``finish`` that completes it (``None`` without ``meanwhile``).

    The report calls ``finish`` only before the page that needs it (the Raters page, the
    last), so its other pages are drawn here while the rater quality is made on the other
    core, instead of this process waiting for it idle (a second of 6 s at 10,000 runs).
    """
    # The collector's young generation large throughout (the reading and the point values
    # make it so for themselves; the leaderboard's and the intervals' objects too).
    with _fewer_collections():
        progress(0, 3, "reading runs and ratings")
        live = LiveResults(store, study=study, scenarios=scenarios, viewer=viewer)
        runs = [r.run_pk for r in live.runs]
        finish = meanwhile(runs, study) if meanwhile is not None else None
        progress(1, 3, "agreement and validity")
        data = live.data()
        progress(2, 3, "bootstrap intervals")
        data = live.with_intervals(data, seed=seed, resamples=resamples)
        progress(3, 3, "done")
    return data, finish

"""Reading a :class:`~reviewer.results.data.ResultsData` from a review store, once.

Runs come from :mod:`reviewer.leaderboard.runs`; ratings come through
:func:`reviewer.agreement.source.load_inputs` so that studies, phases and the consensus rule
are the agreement package's, not a copy. :func:`gather` reads them into a
:class:`~reviewer.results.live.LiveResults` (what the dashboard keeps and updates after a
submit) and adds the bootstrap intervals: the report and the window draw the same data.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.intervals import RESAMPLES
from reviewer.results.cores import a_core_to_spare, forked
from reviewer.results.data import ResultsData
from reviewer.results.live import LiveResults, _fewer_collections, with_intervals

if TYPE_CHECKING:
    from reviewer.leaderboard.board import Board

#: ``progress(step, steps, text)``; the report prints it on stderr, the window in a bar.
Progress = Callable[[int, int, str], None]


#: ``finish(data)``: ``data`` completed with what a worker made meanwhile.
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
    resamples: int = RESAMPLES,
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
    data, later = gather_then(store, study=study, scenarios=scenarios, seed=seed,
                              resamples=resamples, progress=progress, viewer=viewer,
                              meanwhile=meanwhile)  # fmt: skip
    for finish in later.values():
        data = finish(data)
    return data


def gather_then(
    store: AdjudicationStore,
    *,
    study: str | None = None,
    scenarios: Sequence[str] = (),
    seed: int = 0,
    resamples: int = RESAMPLES,
    progress: Progress = _quiet,
    viewer: str | None = None,
    meanwhile: Meanwhile | None = None,
    board_aside: bool = False,
) -> tuple[ResultsData, dict[str, Finish]]:
    """:func:`gather`, but what is made in workers is left running: the data comes back
    without it, with ``{field: finish}``, each ``finish(data)`` filling in that field of
    the data (``"quality"``: what ``meanwhile`` started; ``"leaderboard"``: with
    ``board_aside``, the leaderboard's bootstrap, begun in a worker when a core is free,
    else made by the ``finish``).

    The report calls each ``finish`` only before it draws the page that shows its field,
    while the other pages are drawn: the rater quality (a second at 10,000 runs) and the
    leaderboard (a quarter to half a second) are made beside the drawing, not before it
    begins; this process meanwhile makes alpha's intervals instead of the leaderboard.
    """
    later: dict[str, Finish] = {}
    # The collector's young generation large throughout (the reading and the point values
    # make it so for themselves; the leaderboard's and the intervals' objects too).
    with _fewer_collections():
        progress(0, 3, "reading runs and ratings")
        live = LiveResults(store, study=study, scenarios=scenarios, viewer=viewer)
        runs = [r.run_pk for r in live.runs]
        if meanwhile is not None:
            later["quality"] = meanwhile(runs, study)
        board = _start_board(live, seed=seed, resamples=resamples) if board_aside else None
        progress(1, 3, "agreement and validity")
        data = live.data()
        progress(2, 3, "bootstrap intervals")
        if board is None:
            data = live.with_intervals(data, seed=seed, resamples=resamples)
        else:
            data = with_intervals(data, seed=seed, resamples=resamples)  # alpha's only
            later = {"leaderboard": board, **later}
        progress(3, 3, "done")
    return data, later


def _build_board(live: LiveResults, *, seed: int, resamples: int) -> Board:
    """The leaderboard of the scorer's values of ``live``'s runs, as
    :meth:`LiveResults.with_intervals` makes it."""
    from reviewer.leaderboard.board import build as build_board
    from reviewer.leaderboard.values import scorer_values_of

    return build_board(scorer_values_of(live.runs), resamples=resamples, seed=seed)


def _start_board(live: LiveResults, *, seed: int, resamples: int) -> Finish:
    """:func:`_build_board` begun in a forked worker when a core is free for it, with what
    fills it into the data; without ``fork`` or a core to spare, that ``finish`` builds it
    (the report calls it while its other pages are drawn, not before they begin).

    The worker needs only the runs already read (no database: a connection is never used
    across a fork) and hands the board back pickled in an unnamed file; a worker that
    failed in any way leaves the board to be built here, the same numbers.
    """
    collect = None
    if hasattr(os, "fork") and a_core_to_spare():
        collect = forked(lambda: _build_board(live, seed=seed, resamples=resamples))

    def finish(data: ResultsData) -> ResultsData:
        board = collect()[0] if collect is not None else None
        if board is None:
            board = _build_board(live, seed=seed, resamples=resamples)
        live.leaderboard = board  # as with_intervals keeps it
        return data.model_copy(update={"leaderboard": board})

    return finish

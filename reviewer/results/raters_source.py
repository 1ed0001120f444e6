"""Reading the rater-quality summary behind the blind gate (issue 30).

The quality feature knows nothing of studies; here the results put the one visibility rule
(:func:`reviewer.studies.visibility.hidden_runs`) in front of it, as
:func:`reviewer.results.source.gather` does for every other figure. The dashboard's Raters
tab calls :func:`quality_for`, the report :func:`with_quality`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path

from reviewer.gold.facade import GoldStore
from reviewer.quality.facade import QualityStore
from reviewer.quality.reference import Reference
from reviewer.quality.summary import Gate, QualitySummary, read_summary
from reviewer.results.cores import a_core_to_spare, ended, forked
from reviewer.results.data import ResultsData
from reviewer.results.live import _fewer_collections  # the process's one switch of them
from reviewer.studies.facade import StudiesStore
from reviewer.studies.visibility import hidden_runs, left_out_note


def gate_for(store: StudiesStore, viewer: str | None) -> Gate:
    """What the blind protocol hides from ``viewer`` and from the raters whose own database
    this is: the runs (every version of their file) and whose phase it is."""
    hidden, blind_for = hidden_runs(store, viewer)
    ids: set[str] = set()
    if hidden:
        ids = {i for pk, i in store.run_table(("run_pk", "run_id")) if pk in hidden and i}
    return Gate(hidden, frozenset(ids), tuple(blind_for))


#: The name the views give the study's gold as a reference (``report --reference gold``).
GOLD = "gold"


def gold_reference(store: GoldStore, study: str | None) -> Reference | None:
    """The study's gold references as a :class:`Reference` (``None`` without a study, for a
    study without gold, or when a reference breaks the study's rules: ``raters accuracy``
    and ``audit verify`` name that problem; the views then offer no gold)."""
    if study is None:
        return None
    # Here, not at the top: the gold's seals import cryptography (~80 ms), which a report
    # pays only where rater quality is made (a forked worker, when a core is spare).
    from reviewer.gold.envelope import GoldError
    from reviewer.gold.service import reference_scores

    try:
        golds = reference_scores(store, study)
    except GoldError:
        return None
    if not golds:
        return None
    return Reference("gold", GOLD, {(g.run_pk, g.metric): g.score for g in golds})


def quality_for(
    store: QualityStore,
    *,
    viewer: str | None,
    study: str | None = None,
    runs: Collection[int] | None = None,
    reference: str | None = None,
    seed: int = 0,
    resamples: int = 1000,
) -> QualitySummary:
    """The rater-quality summary ``viewer`` may see (of ``study``, of ``runs`` when given),
    with accuracy against the reference named ``reference``
    (:func:`reviewer.quality.reference.load_reference`)."""
    if not isinstance(store, StudiesStore):  # the gate reads the studies
        raise TypeError("rater quality is read from a review store (it needs its studies)")
    gold = gold_reference(store, study) if isinstance(store, GoldStore) else None
    # Tens of thousands of drift points and rows, none in a cycle: the collector's young
    # generation made large meanwhile, as the dashboard's reading does (a third of the time
    # went to collections over the heap the results already hold).
    with _fewer_collections():
        summary = read_summary(store, gate_for(store, viewer), study=study, runs=runs,
                               reference=reference, seed=seed, resamples=resamples,
                               gold=gold)  # fmt: skip
    note = left_out_note(summary.n_left_out, summary.blind_for)
    return summary.model_copy(update={"left_out_note": note})


def with_quality(
    store: QualityStore,
    data: ResultsData,
    *,
    viewer: str | None,
    reference: str | None = None,
    seed: int = 0,
) -> ResultsData:
    """``data`` with the rater-quality summary of its runs (its study, its scenarios, and
    only what ``viewer`` may see), for the report's Raters page."""
    runs = {r.run_pk for r in data.runs}
    summary = quality_for(store, viewer=viewer, study=data.meta.study, runs=runs,
                          reference=reference, seed=seed)  # fmt: skip
    return data.model_copy(update={"quality": summary})


#: ``finish(data)``: ``data`` with the rater-quality summary (:func:`start_quality`).
Finish = Callable[[ResultsData], ResultsData]


def start_quality(
    store: QualityStore,
    runs: Collection[int],
    study: str | None,
    *,
    viewer: str | None,
    reference: str | None = None,
    seed: int = 0,
    note: Callable[[str], None] = lambda _text: None,
) -> Finish:
    """:func:`with_quality` of the results of ``runs`` (``study``'s) begun in a forked
    worker, so that the caller's point values and bootstrap are made on the other core
    meanwhile (the report: about a second each).

    The worker opens the database again, read-only (a connection is never shared across a
    fork), and hands the summary back pickled in an unnamed file; ``finish`` waits for it.
    Where there is no fork, no core to spare, no database file, or the worker fails in any
    way, ``finish`` computes it here, as :func:`with_quality` does: the same summary,
    raising what that raises; a worker that failed (killed: by the kernel short of memory,
    by hand) is first named in one line given to ``note``.
    """

    def here(later: ResultsData) -> ResultsData:
        return with_quality(store, later, viewer=viewer, reference=reference, seed=seed)

    path = getattr(store, "path", None)
    if not hasattr(os, "fork") or not isinstance(path, Path) or not path.is_file():
        return here
    if not a_core_to_spare():
        return here  # the worker would only queue for a core, at a third of a second's cost
    runs = set(runs)

    def work() -> QualitySummary:
        with type(store).open(path, create=False, readonly=True) as own:
            return quality_for(own, viewer=viewer, study=study, runs=runs,
                               reference=reference, seed=seed)  # fmt: skip

    collect = forked(work)

    def finish(later: ResultsData) -> ResultsData:
        summary, status = collect()
        if summary is None:
            worker = "the rater-quality worker"
            why = ended(status, worker) or f"{worker} handed nothing back"
            note(f"{why}: computing it here")
            return here(later)
        return later.model_copy(update={"quality": summary})

    return finish

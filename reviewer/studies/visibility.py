"""The one visibility rule of the blind protocol: which runs a rater may not see scored yet.

A run is *still blind* for a rater while it is assigned to them in a blind study, outside
the control arm, and the scorer has not been revealed to them
(:attr:`~reviewer.store.models.RaterRunState.scorer_visible`). While it is, nothing the
scorer decided and nothing of other raters may show for it: the queue blanks its scorer
columns, the run view hides the scorecard, and the results (the dashboard and the report,
:func:`reviewer.results.source.gather`) leave the run out altogether and say how many they
left out. Every view asks this module, so the rule is written once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reviewer.studies.facade import StudiesStore


def blind_assignments(store: StudiesStore, viewer: str) -> dict[int, str]:
    """The runs whose scorer *can* be hidden from ``viewer``: assigned to them in a blind
    study outside its control arm (run key -> study), so that a large queue asks about a few.
    One query (:mod:`reviewer.listing.blind`), which the window's first screen runs too."""
    return store.blind_assignments(viewer)


def still_blind(store: StudiesStore, viewer: str) -> frozenset[int]:
    """The runs still in ``viewer``'s blind phase: the scorer is not revealed to them yet."""
    return frozenset(
        run_pk
        for run_pk, study in blind_assignments(store, viewer).items()
        if not store.rating_state(run_pk, viewer, study=study).scorer_visible
    )


def database_raters(store: StudiesStore) -> list[str]:
    """The raters whose own database this is: those assigned runs in a study it joined from
    a packet. A report made from such a database, with no viewer named, is theirs."""
    names: set[str] = set()
    for study in store.studies():
        if study.joined:
            names.update(a.rater for a in store.study_assignments(study.name))
    return sorted(names)


def hidden_runs(store: StudiesStore, viewer: str | None) -> tuple[frozenset[int], list[str]]:
    """The runs to leave out of what ``viewer`` is shown, and whose blind phase that is:
    ``viewer``'s, and always that of the raters whose own database this is
    (:func:`database_raters`), whatever name is given."""
    viewers = sorted({*database_raters(store), *([viewer] if viewer else [])})
    hidden: set[int] = set()
    blind_for: list[str] = []
    for name in viewers:
        runs = still_blind(store, name)
        if runs:
            hidden |= runs
            blind_for.append(name)
    return frozenset(hidden), blind_for


def left_out_note(count: int, raters: list[str]) -> str | None:
    """What the results say about the runs they left out (None when none were)."""
    if not count:
        return None
    who = " and ".join(raters)
    return (
        f"{count} run(s) left out: still in {who}'s blind phase. Their scores and ratings "
        "appear here once the blind rating is submitted and the scorer revealed."
    )

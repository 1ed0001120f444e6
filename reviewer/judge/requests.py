"""Which runs the judge rates, and their requests.

The store keeps ScoreCards without their judge bundle (it is large and only the judge needs
it), so a request is built by scoring the run's trajectory file again, as ``score`` does,
and checking that the file still has the bytes that were imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from reviewer.inputs import LIST_LIMIT, InputError, excerpt, read_text
from reviewer.judge.prompt import build_request
from reviewer.rubric import Rubric
from reviewer.store import RunRow
from reviewer.studies.facade import StudiesStore
from scoring import score_file
from scoring.paths import shown

_HEX = frozenset("0123456789abcdef")


class RunsFileError(ValueError):
    """A ``--runs`` file that cannot be used; every message is ``FILE:LINE: reason``."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


class RunRef(NamedTuple):
    """A stored run as the judge needs it: which file, which bytes."""

    run_pk: int
    run_id: str | None
    path: str
    sha256: str


class Built(NamedTuple):
    """One run's request, or why there is none (``request`` is then None)."""

    run: RunRef
    request: dict[str, Any] | None
    problem: str | None


#: Runs the scorer never scored (a setup crash, a failed validity gate): the agent did
#: nothing that can be rated, and the scorer builds no judge bundle for them.
NOT_RATABLE = frozenset({"harness_error", "invalid"})


def all_runs(store: StudiesStore) -> list[RunRef]:
    """Every stored run that is the newest version of its file and was scored."""
    return [_ref(store, row) for row in _ratable(store)]


def _ratable(store: StudiesStore) -> list[RunRow]:
    return [
        row
        for row in store.list_runs()
        if not row.superseded_by_version and row.status not in NOT_RATABLE
    ]


def runs_from_file(store: StudiesStore, path: Path) -> list[RunRef]:
    """The runs a ``--runs`` file names, one run_id or trajectory sha256 a line (``#``
    comments and blank lines skipped), in file order; :class:`RunsFileError` lists every
    line that names no run, or more than one."""
    try:
        text = read_text(path, LIST_LIMIT)
    except InputError as exc:
        raise RunsFileError([str(exc)]) from None
    rows = _ratable(store)
    by_sha: dict[str, RunRef] | None = None  # read once, and only if a line needs it
    chosen: dict[int, RunRef] = {}
    errors: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        token = line.split("#", 1)[0].strip()
        if not token:
            continue
        if len(token) == 64 and set(token.lower()) <= _HEX:
            if by_sha is None:
                by_sha = {ref.sha256: ref for ref in (_ref(store, row) for row in rows)}
            found = [by_sha[token.lower()]] if token.lower() in by_sha else []
        else:
            found = [_ref(store, row) for row in rows if row.run_id == token]
        if not found:
            errors.append(
                f"{shown(path)}:{number}: no run {excerpt(token)} that a judge can rate in this "
                "database (never imported, or never scored: harness error or invalid)"
            )
        elif len(found) > 1:
            errors.append(
                f"{shown(path)}:{number}: run_id {excerpt(token)} is ambiguous "
                f"({len(found)} files carry it): give the trajectory sha256 instead"
            )
        else:
            chosen.setdefault(found[0].run_pk, found[0])
    if errors:
        raise RunsFileError(errors)
    return list(chosen.values())


def study_runs(store: StudiesStore, study: str) -> list[RunRef]:
    """The runs of the study ``study`` that a judge can rate; ``LookupError`` when the
    database has no such study."""
    from reviewer.store import StoreError

    try:
        in_study = {row.run_pk for row in store.list_runs(study=study)}
    except StoreError as exc:
        raise LookupError(str(exc)) from None
    return [_ref(store, row) for row in _ratable(store) if row.run_pk in in_study]


def build_requests(
    runs: Iterable[RunRef],
    *,
    rubric: Rubric,
    model: str,
    progress: Callable[[int, int, str], None] | None = None,
) -> Iterator[Built]:
    """One request per run, in the order given, scoring each trajectory again."""
    runs = list(runs)
    for done, ref in enumerate(runs, start=1):
        yield _build(ref, rubric=rubric, model=model)
        if progress is not None:
            progress(done, len(runs), ref.path)


def _build(ref: RunRef, *, rubric: Rubric, model: str) -> Built:
    card = score_file(ref.path, with_judge_bundle=True)
    if card.status == "unreadable":
        where = f":{card.error_line}" if card.error_line else ""
        return Built(ref, None, f"{ref.path}{where}: {card.error or 'unreadable'}")
    if card.judge_bundle is None:
        return Built(ref, None, f"{ref.path}: {card.status}, no judge bundle to rate")
    if card.trajectory_sha256 != ref.sha256:
        return Built(
            ref, None, f"{ref.path}: the file changed since it was imported: import it again"
        )
    request = build_request(
        card.judge_bundle, trajectory_sha256=ref.sha256, rubric=rubric, model=model
    )
    return Built(ref, request, None)


def _ref(store: StudiesStore, row: RunRow) -> RunRef:
    # The sha256 is in the run's detail only; reading it is cheap next to scoring the file.
    return RunRef(row.run_pk, row.run_id, row.path, store.get_run(row.run_pk).sha256)

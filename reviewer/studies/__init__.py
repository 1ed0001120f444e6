"""Rating teams: studies, their assignments, the blind protocol and packets.

Rules (pure): the study model, the assignment algorithm and the study's rules for sheets
(:mod:`.model`, :mod:`.assign`, :mod:`.sheet_rules`). Storage (SQL over the core's
connection): :mod:`.storage` (studies and assignments), :mod:`.blind` (the blind protocol),
:mod:`.queues` (a rater's queue, ratings in per run), :mod:`.qualifying` (who may rate
before qualifying), :mod:`.integrity` and
:mod:`.sheet_checks` (``audit verify``'s and collecting's rules for studies). Service:
:mod:`.facade` (``StudiesStore``), :mod:`.visibility` (what the blind phase hides),
:mod:`.packet` (a rater's share of a study, carried to their machine), :mod:`.ratable`
(runs that cannot be rated). Verbs: :mod:`reviewer.verbs.study` (``study``; its handlers
in :mod:`reviewer.verbs.study_handlers` and :mod:`reviewer.verbs.study_packet`).
A study's ratings files (``ratings import --phase``, ``ratings template``) are
:mod:`reviewer.exchange`; signed sheets come back through :mod:`reviewer.collecting`.
"""

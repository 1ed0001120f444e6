"""Rating teams: studies, their assignments, the blind protocol and packets.

Rules (pure): the study model and the assignment algorithm (:mod:`.model`, :mod:`.assign`).
Storage (SQL over the core's connection): :mod:`.storage` (studies and assignments),
:mod:`.blind` (the blind protocol), :mod:`.phase_import` (``ratings import --phase``),
:mod:`.views` (a rater's queue, ratings in per run), :mod:`.integrity` (``audit verify``'s
rules for studies). Service: :mod:`.facade` (``StudiesStore``), :mod:`.packet` (a rater's
share of a study, carried to their machine), :mod:`.template` (the rating file a rater
fills in for a phase), :mod:`.ratable` (runs that cannot be rated). Verbs: :mod:`.verbs`
(``study``) and :mod:`.packet_verbs`. Signed sheets come back through :mod:`reviewer.collecting`.
"""

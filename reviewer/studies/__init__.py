"""Rating teams: studies, their assignments, the blind protocol, packets and collecting sheets.

Qt-free. The study model and the assignment algorithm are pure (:mod:`.model`,
:mod:`.assign`); the store keeps studies in SQLite (:mod:`reviewer.studies.storage`); packets
carry a rater's share of a study to their machine (:mod:`.packet`) and signed sheets come
back through :mod:`.collect`.
"""

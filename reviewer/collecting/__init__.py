"""Collecting: signed rating and adjudication sheets from other machines, verified and stored.

:mod:`.collect` checks each file (signature, trust list) and hands it to the store;
:mod:`.storage` and :mod:`.adjudications` store a verified sheet as a signed rating or
adjudication; :mod:`.facade` puts them on the store; :mod:`.verbs` is ``collect``.
"""

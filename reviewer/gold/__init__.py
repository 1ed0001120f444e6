"""Gold runs and qualification: runs with a reference rating the owner signed, seeded
unseen into each rater's queue, and the qualification set a rater rates first.

- ``model.py``: the signed reference and the study's gold plan (pure);
- ``seeding.py``: where gold and qualification runs go in each queue (pure);
- ``reference.py``: a reference from a consensus or a reference rater's sheet, signed and
  verified (pure: keys in, envelopes out);
- ``envelope.py``: the signed envelope a reference or a decision travels in (pure);
- ``rules.py``: the gold and qualification rules (pure);
- ``storage.py``: the feature's SQL, and ``arranger.py``, which seeds a new study's gold
  inside its creating transaction; ``integrity.py``, its rules for ``audit verify``;
  ``facade.py``: ``GoldStore``;
- ``service.py``: creating a study with gold, adding references, qualifying;
- ``feedback.py``: the references of submitted gold runs, carried back in a packet;
- ``accuracy.py``: accuracy and drift against gold, for ``raters accuracy|drift``;
- ``verbs.py``: ``study gold add|list|remove`` and ``study qualify``.
"""

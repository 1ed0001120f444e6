"""Signed sheets, the format: rater keys (:mod:`.keys`) and trust lists (:mod:`.trust`), the
rating sheet (:mod:`.sheet`) and the adjudication sheet (:mod:`.adjudication`), their
verification (:mod:`.verify`, :mod:`.resolved`), their published JSON Schemas
(:mod:`.schemas`), and ``audit verify``'s rules for the signed
sheets a database holds (:mod:`.integrity`). No store here: signing with one is
:mod:`reviewer.signing`.
"""

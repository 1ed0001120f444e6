"""Agreement between raters, and validity of the automatic score against them.

Pure statistics over plain records (no Qt, no SQLite): :mod:`records` (the input and the
study/phase/judge selection), :mod:`alpha` and :mod:`bootstrap` (Krippendorff's alpha and
its fast bootstrap), :mod:`report` (the agreement report), :mod:`validity` and
:mod:`anchoring` (humans against the scorer). :mod:`source` reads the records from a store;
:mod:`verbs` is ``agreement`` and ``validity`` (:mod:`output` writes their sections).
"""

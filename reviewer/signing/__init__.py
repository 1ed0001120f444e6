"""Signing: a rater's submitted ratings become signed sheets, exported and verified.

The sheet format and its verification are :mod:`reviewer.sheets`; this folder is the
service that signs with the store (:mod:`reviewer.signing.service`) and its verbs
(``keygen``, ``whoami``, ``sign``, ``export``, ``verify``).
"""

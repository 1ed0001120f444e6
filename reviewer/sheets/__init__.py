"""Signed rating sheets: rater keys (:mod:`.keys`), the sheet format and its verification
(:mod:`.sheet`), and the service that signs a rating and writes its files (:mod:`.signing`).
"""

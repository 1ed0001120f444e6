"""The optional LLM judge: a rater that is a model, calibrated against the humans.

Qt-free. The round trip is plain files, so any provider (or none) fits:

- :mod:`reviewer.judge.prompt` turns the rubric and a run's judge bundle into one request in
  the OpenAI Batch API line format, and names it by a ``custom_id`` that carries the
  trajectory, rubric and prompt hashes;
- :mod:`reviewer.judge.answers` reads responses back and checks every answer with the
  rubric's own rules (:meth:`reviewer.rubric.Rubric.validate_item`);
- :mod:`reviewer.judge.client` sends requests to an OpenAI-compatible endpoint (optional
  extra ``[judge]``: httpx), with retries and a cache on disk;
- :mod:`reviewer.judge.calibration` measures the judge against the human consensus.
- :mod:`reviewer.judge.storage` stores checked answers as a judge's ratings (SQL over the
  core's connection), :mod:`reviewer.judge.facade` puts that on the store (``JudgeStore``)
  and :mod:`reviewer.judge.verbs` is ``a320-review judge``.
"""

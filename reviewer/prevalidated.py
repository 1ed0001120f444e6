"""pydantic models of values the store has already checked, built without validating again.

The dashboard builds 10,000 runs and up to 200,000 rating records from rows whose types the
schema's columns and ``CHECK`` constraints fix; validating each again was most of the
time, and ``BaseModel.model_construct`` (which fills defaults and counts the fields given)
still takes three times as long as this. The object is what ``model_validate`` would have
made of the same values: every field set, no extra, no private attributes.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

_M = TypeVar("_M", bound=BaseModel)
_FIELDS: dict[type[BaseModel], frozenset[str]] = {}
# BaseModel's slots, set through their descriptors: ``object.__setattr__`` looks each up on
# the class first, a third of the build (20,000 runs on the dashboard).
_SLOTS = vars(BaseModel)
_set_dict = _SLOTS["__dict__"].__set__
_set_fields = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__


def prevalidated(cls: type[_M], fields: dict[str, object]) -> _M:
    """An instance of ``cls`` holding ``fields``, which must name every field of it with a
    value of its type (the caller vouches for both)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(cls.model_fields)
    made = cls.__new__(cls)
    _set_dict(made, fields)
    _set_fields(made, set(names))
    _set_extra(made, None)
    _set_private(made, None)
    return made

"""The base of the engine's small immutable values (readings, evaluations, dora, waits).

They are plain slotted classes, not NamedTuples: compiled (``setup.py``) a plain class is a
native class, built by a C constructor and read field by field, where a NamedTuple is built
through ``tuple.__new__`` (a Python-level call and two allocations) and read through its
descriptors. A value's fields are set once in ``__init__`` and never changed; :class:`Value`
gives equality, hashing and a repr by those fields (``_key``).

A value that a cache keys on (``Situation``) or that callers are handed (``HandInput``,
``Parsed``) must also refuse assignment, or a change would silently corrupt what was keyed on
it: its fields are declared ``Final`` where they are set, which compiled (mypyc) makes
read-only attributes at no cost, and :func:`refuse_assignment` gives the plain-Python class
the same behaviour.
"""

from __future__ import annotations

from functools import partialmethod
from types import MemberDescriptorType
from typing import Any


class Value:
    """Equality, hash and repr by the fields a subclass lists in ``_key``."""

    __slots__ = ()

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Value):
            return False
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._key()!r}"


def refuse_assignment(cls: type) -> None:
    """Make ``cls``'s slots settable once, as compiled ``Final`` attributes are.

    Compiled, a field declared ``Final`` is already a read-only attribute (the class is a
    native class, its fields no slot descriptors) and this does nothing. Plain Python ignores
    ``Final`` at run time, so the class gets a ``__setattr__`` that fills an empty slot (its
    ``__init__``) and refuses one already set, and a ``__delattr__`` that refuses."""
    slots = [name for name, attr in vars(cls).items() if isinstance(attr, MemberDescriptorType)]
    if not slots:
        return
    for name, function in (("__setattr__", _set_once), ("__delattr__", _refuse_delete)):
        # this module compiled beside a class run from its source (the doctests do so): a
        # compiled function is no descriptor, and would not be bound to the instance
        method = function if hasattr(function, "__get__") else partialmethod(function)
        type.__setattr__(cls, name, method)


def _set_once(self: Any, name: str, value: object) -> None:
    if hasattr(self, name):
        raise AttributeError(f"{type(self).__name__}.{name} cannot be changed: it is a value")
    object.__setattr__(self, name, value)


def _refuse_delete(self: Any, name: str) -> None:
    raise AttributeError(f"{type(self).__name__}.{name} cannot be deleted: it is a value")

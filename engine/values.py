"""The base of the engine's small immutable values (readings, evaluations, dora, waits).

They are plain slotted classes, not NamedTuples: compiled (``setup.py``) a plain class is a
native class, built by a C constructor and read field by field, where a NamedTuple is built
through ``tuple.__new__`` (a Python-level call and two allocations) and read through its
descriptors. A value's fields are set once in ``__init__`` and never changed; :class:`Value`
gives equality, hashing and a repr by those fields (``_key``).
"""

from __future__ import annotations


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

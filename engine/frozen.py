"""Plain-Python classes whose fields are set once, as compiled ``Final`` attributes are.

A value that a cache keys on (``engine.parse.Situation``) or that callers are handed
(``HandInput``, ``Parsed``) must refuse assignment, or a change would silently corrupt what was
keyed on it. Its fields are declared ``Final`` where ``__init__`` sets them: compiled (mypyc,
``setup.py``) that makes them read-only attributes at no cost. Plain Python ignores ``Final``
at run time, so :func:`refuse_assignment` gives such a class a ``__setattr__`` and a
``__delattr__`` that refuse, and builds each instance as an identical twin class that assigns
freely, turned into the class itself once ``__init__`` is done: a fixed cost an instance, none
a field (a check in ``__setattr__`` of whether a slot is still empty cost an exception a
field, a quarter more time for a hand in the plain engine).

This module is never compiled, so that its functions are bound as methods whichever way the
class itself runs (the doctests run a module's source beside compiled ones).
"""

from __future__ import annotations

from collections.abc import Callable
from types import MemberDescriptorType
from typing import Any


def refuse_assignment(cls: type) -> None:
    """Make the slots of ``cls`` refuse assignment and deletion once ``__init__`` is done.

    A compiled (native) class has no slot descriptors and is left alone: its ``Final``
    fields already refuse."""
    if not any(isinstance(a, MemberDescriptorType) for a in vars(cls).values()):
        return
    building = type(
        cls.__name__,
        (cls,),
        {"__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__,
         "__module__": cls.__module__, "__qualname__": cls.__qualname__},
    )  # fmt: skip
    init: Callable[..., None] = vars(cls)["__init__"]
    set_class = object.__setattr__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        set_class(self, "__class__", building)
        try:
            init(self, *args, **kwargs)
        finally:
            set_class(self, "__class__", cls)

    __init__.__doc__ = init.__doc__
    type.__setattr__(cls, "__init__", __init__)
    type.__setattr__(cls, "__setattr__", _refuse_set)
    type.__setattr__(cls, "__delattr__", _refuse_delete)


def _refuse_set(self: Any, name: str, value: object) -> None:
    raise AttributeError(f"{type(self).__name__}.{name} cannot be changed: it is a value")


def _refuse_delete(self: Any, name: str) -> None:
    raise AttributeError(f"{type(self).__name__}.{name} cannot be deleted: it is a value")

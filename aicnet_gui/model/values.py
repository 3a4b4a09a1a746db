"""The objects of a design (racks, devices, links, workloads) as slotted pydantic dataclasses.

A 4,096-server fabric holds ~100k links.  As pydantic `BaseModel`s each link carries a field
dict and a set of the fields given (about 1.3 kB a link); as slotted dataclasses, validated by
the same pydantic core with the same constraints, it holds only its fields.  Reading the links of
the 4,096-server file in a new process: 0.68 s -> 0.50 s (median of 7), half the page faults
(shared/reference/performance.md §0: "slotted plain objects with explicit indexes").

`Value` gives these classes the part of `BaseModel`'s API that aicnet uses (`model_fields`,
`model_validate`, `model_dump`, `model_copy`), so settings (BaseModels) and design objects are
handled alike.  Objects are values: an edit makes a new object (`model_copy` or
`FabricDocument.update`); nothing changes one in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import ConfigDict
from pydantic.dataclasses import dataclass
from pydantic.fields import FieldInfo

VALUE_CONFIG = ConfigDict(extra="forbid")

ValueT = TypeVar("ValueT", bound="Value")

_new = object.__new__
_set = object.__setattr__


class Value:
    """`BaseModel`'s value API for a class made by `value_class`."""

    __slots__ = ()
    model_fields: ClassVar[dict[str, FieldInfo]]
    __pydantic_validator__: ClassVar[Any]
    __pydantic_serializer__: ClassVar[Any]

    @classmethod
    def model_validate(cls: type[ValueT], data: Any) -> ValueT:
        """A validated object from a mapping of field values (or an object of this class)."""
        return cls.__pydantic_validator__.validate_python(data)  # type: ignore[no-any-return]

    def model_dump(self, *, mode: Literal["python", "json"] = "python",
                   exclude_defaults: bool = False) -> dict[str, Any]:
        """The field values as a dict (JSON types with `mode="json"`)."""
        return self.__pydantic_serializer__.to_python(  # type: ignore[no-any-return]
            self, mode=mode, exclude_defaults=exclude_defaults)

    def model_copy(self: ValueT, *, update: Mapping[str, Any] | None = None) -> ValueT:
        """A copy with `update` applied, not validated (as `BaseModel.model_copy`)."""
        copy = _new(type(self))
        for name in self.model_fields:
            _set(copy, name, getattr(self, name))
        for name, value in (update or {}).items():
            if name not in self.model_fields:
                raise AttributeError(f"{type(self).__name__} has no field {name!r}")
            _set(copy, name, value)
        return copy


def value_class(cls: type[ValueT]) -> type[ValueT]:
    """Make `cls` (a `Value` subclass with annotated fields) a slotted pydantic dataclass:
    keyword-only like a BaseModel, unknown fields refused."""
    made = dataclass(cls, slots=True, kw_only=True, config=VALUE_CONFIG)
    made.model_fields = made.__pydantic_fields__  # type: ignore[attr-defined]
    return made  # type: ignore[return-value]

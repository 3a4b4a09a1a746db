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

`cls.trusted(**fields)` is the one trusted constructor: it makes an object from values already
known to be valid by setting its slots, fields not given taking their defaults, without
validation (a generator makes ~100k links from values it validated once per distinct value,
generators/construct.py).  It is written from the class's own field list, so a new field is
carried without touching its callers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    #: the trusted constructor (see the module docstring), made by `value_class`
    trusted: ClassVar[Callable[..., Any]]
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
    made.trusted = staticmethod(_trusted_constructor(made))  # type: ignore[attr-defined]
    return made  # type: ignore[return-value]


_UNSET = object()


def positional_maker(cls: type, names: tuple[str, ...]) -> Callable[..., Any]:
    """`make(v1, v2, ...)` for `cls`: an object with the fields `names` set to the values given
    in that order and every other field its default, without validation (as `cls.trusted`),
    for `map(make, column1, column2, ...)` over values known to be valid (a table of 300k loaded
    links made at once: a keyword call per object costs twice as much)."""
    fields = cls.model_fields  # type: ignore[attr-defined]
    if not set(names) <= fields.keys() or not all(name.isidentifier() for name in names):
        raise TypeError(f"{cls.__name__}: not its fields: {names}")
    scope: dict[str, Any] = {"_new": _new, "_set": _set, "_cls": cls}
    body = ["    obj = _new(_cls)"]
    for name, field in fields.items():
        if name in names:
            body.append(f"    _set(obj, {name!r}, {name})")
        elif field.default_factory is not None:
            scope[f"_factory_{name}"] = field.default_factory
            body.append(f"    _set(obj, {name!r}, _factory_{name}())")
        elif field.is_required():
            raise TypeError(f"{cls.__name__}: required field {name!r} not given")
        else:
            scope[f"_default_{name}"] = field.default
            body.append(f"    _set(obj, {name!r}, _default_{name})")
    source = f"def make({', '.join(names)}):\n" + "\n".join(body) + "\n    return obj\n"
    exec(source, scope)  # noqa: S102 - code written above from the class's own field names
    make: Callable[..., Any] = scope["make"]
    make.__qualname__ = f"{cls.__name__}.positional"
    return make


def _trusted_constructor(cls: type) -> Callable[..., Any]:
    """`make(**fields)` for `cls`: keyword-only, required fields required, every other field
    its default (a default factory called per object), each slot set as given, no validation.
    The function is written from `cls.model_fields` once (as `dataclasses` writes `__init__`):
    a loop over the fields per object would cost a generator ~2x the time of setting them."""
    names = list(cls.model_fields)
    if not all(name.isidentifier() for name in names):
        raise TypeError(f"{cls.__name__}: a field name is not an identifier")
    scope: dict[str, Any] = {"_new": _new, "_set": _set, "_cls": cls, "_UNSET": _UNSET}
    params, body = [], ["    obj = _new(_cls)"]
    for name, field in cls.model_fields.items():
        if field.default_factory is not None:
            scope[f"_factory_{name}"] = field.default_factory
            params.append(f"{name}=_UNSET")
            body.append(f"    _set(obj, {name!r}, _factory_{name}() if {name} is _UNSET else {name})")
            continue
        if field.is_required():
            params.append(name)
        else:
            scope[f"_default_{name}"] = field.default
            params.append(f"{name}=_default_{name}")
        body.append(f"    _set(obj, {name!r}, {name})")
    source = f"def make(*, {', '.join(params)}):\n" + "\n".join(body) + "\n    return obj\n"
    exec(source, scope)  # noqa: S102 - code written above from the class's own field names
    make: Callable[..., Any] = scope["make"]
    make.__qualname__ = f"{cls.__name__}.trusted"
    make.__doc__ = f"A {cls.__name__} from values known to be valid (not validated)."
    return make

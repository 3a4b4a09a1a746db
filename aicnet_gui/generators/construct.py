"""Many `Link` objects from values that are already known to be valid, without re-validating each.

A 4,096-server fabric has ~100k links (each a pydantic model with two `Endpoint` tuples);
validating them one by one costs about as much as the rest of the generator run, and pydantic's
`model_construct` is slower still (a Python loop per field).  The generator's values come from
validated sources (device ids of validated devices, port names of the catalog's port tables,
catalog part ids, `link-N` / `asm-N` ids it formats itself), so `build_links` validates every
distinct value once with pydantic and then makes every link exactly as `model_construct` with
all fields given makes it (a new object with its field dict, the set of given fields, no extra
or private values), without its Python loop over the fields, and sharing one fields set, which
halves the memory of a large fabric's links.  When that shortcut does not hold (the installed
pydantic builds instances otherwise, a field changed, or a copy differs from what
`model_construct` and validation make), it validates every link.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, TypeAdapter, ValidationError

from ..model.fabric import Endpoint, Link, NonEmpty

_LINKS = TypeAdapter(list[Link])
_STATE = {"__dict__", "__pydantic_extra__", "__pydantic_fields_set__", "__pydantic_private__"}
_LINK_FIELDS = ("id", "a", "b", "cable", "assembly", "length_m", "colour", "rail", "plane",
                "pinned", "notes")
_DEFAULTS = {"length_m": None, "pinned": False, "notes": ""}


def _plain(cls: type[BaseModel], fields: tuple[str, ...]) -> bool:
    """True if `model_construct` of `cls` only sets the field dict and the fields set (no
    aliases, default factories, validators across fields, extra or private values, post-init)."""
    if tuple(cls.model_fields) != fields or cls.__pydantic_post_init__:
        return False
    checks = cls.__pydantic_decorators__
    if checks.validators or checks.field_validators or checks.root_validators \
            or checks.model_validators:
        return False
    if cls.model_config.get("extra") == "allow" or cls.__pydantic_root_model__:
        return False
    if set(cls.model_config) - {"extra", "validate_assignment"}:
        return False  # e.g. strict or str_strip_whitespace: the per-field checks would miss it
    if any(f.alias or f.validation_alias or f.default_factory for f in cls.model_fields.values()):
        return False
    state = cls.model_construct().__getstate__()
    return (set(state) == _STATE and state["__pydantic_extra__"] is None
            and state["__pydantic_private__"] is None)


class LinkColumns:
    """Per link: id, both ends (device id, port name), cable, assembly, rail, colour, plane."""

    def __init__(
        self, ids: Sequence[str], a_device: Sequence[str], a_port: Sequence[str],
        b_device: Sequence[str], b_port: Sequence[str], cable: Sequence[str | None],
        assembly: Sequence[str | None], rail: Sequence[int | None],
        colour: Sequence[str | None], plane: Sequence[str | None],
    ) -> None:
        self.columns = (ids, a_device, a_port, b_device, b_port, cable, assembly, rail, colour,
                        plane)

    def validated(self) -> list[Link]:
        """Every link validated by pydantic."""
        return _LINKS.validate_python([_row(*values) for values in zip(*self.columns, strict=True)])


def _row(link_id: str, ad: str, ap: str, bd: str, bp: str, cable: str | None,
         assembly: str | None, rail: int | None, colour: str | None, plane: str | None) -> dict:
    return {"id": link_id, "a": {"device": ad, "port": ap}, "b": {"device": bd, "port": bp},
            "cable": cable, "assembly": assembly, "rail": rail, "colour": colour, "plane": plane}


def _copies(columns: LinkColumns) -> list[Link]:
    """What `Link.model_construct(_fields_set=every field, ...)` gives for every row, without
    its loop over the fields.  The fields sets are shared: they hold every field, so setting an
    attribute never changes them."""
    new, set_, pair = object.__new__, object.__setattr__, tuple.__new__
    given = set(_LINK_FIELDS)
    links: list[Link] = []
    append = links.append
    for link_id, ad, ap, bd, bp, cable, assembly, rail, colour, plane in zip(
            *columns.columns, strict=True):
        link = new(Link)
        set_(link, "__dict__", {
            "id": link_id, "a": pair(Endpoint, (ad, ap)), "b": pair(Endpoint, (bd, bp)),
            "cable": cable, "assembly": assembly,
            "length_m": None, "colour": colour, "rail": rail, "plane": plane, "pinned": False,
            "notes": "",
        })
        set_(link, "__pydantic_fields_set__", given)
        set_(link, "__pydantic_extra__", None)
        set_(link, "__pydantic_private__", None)
        append(link)
    return links


def _shortcut_holds() -> bool:
    """The models are as `_copies` expects, and its copy of a link is what `model_construct`
    makes and equals the validated link."""
    if not _plain(Link, _LINK_FIELDS) or Endpoint._fields != ("device", "port"):
        return False
    fields = Link.model_fields
    if any(fields[name].default != value for name, value in _DEFAULTS.items()):
        return False
    values = ("link-1", "a", "1/1", "b", "2/1", "cord", "asm-1", 1, "blue", "compute")
    sample = LinkColumns(*([value] for value in values))
    copy, twin = _copies(sample)[0], sample.validated()[0]
    ends = [Endpoint(device=d, port=p) for d, p in (values[1:3], values[3:5])]
    made = Link.model_construct(
        id=values[0], a=ends[0], b=ends[1], cable=values[5], assembly=values[6], length_m=None,
        colour=values[8], rail=values[7], plane=values[9], pinned=False, notes="")
    return (copy == twin == made and copy.__getstate__() == made.__getstate__()
            and type(copy.a) is type(twin.a) is Endpoint)


_SHORTCUT = _shortcut_holds()


def _adapter(model: type[BaseModel] | None, name: str) -> TypeAdapter:
    """Validates a list of values of the field `name` of `model` (an end's device or port when
    `model` is None), with its constraints."""
    if model is None:
        return TypeAdapter(list[NonEmpty])
    field = model.model_fields[name]
    hint = Annotated[field.annotation, *field.metadata] if field.metadata else field.annotation
    return TypeAdapter(list[hint])  # type: ignore[valid-type]


_COLUMN_FIELDS = ((Link, "id"), (None, "device"), (None, "port"), (None, "device"),
                  (None, "port"), (Link, "cable"), (Link, "assembly"), (Link, "rail"),
                  (Link, "colour"), (Link, "plane"))
_ADAPTERS = {key: _adapter(*key) for key in set(_COLUMN_FIELDS)}


def _values_pass(columns: LinkColumns) -> bool:
    """Every distinct value of every column passes its field's validation unchanged."""
    try:
        for key, column in zip(_COLUMN_FIELDS, columns.columns, strict=True):
            distinct = list(dict.fromkeys(column))
            passed = _ADAPTERS[key].validate_python(distinct)
            if passed != distinct or list(map(type, passed)) != list(map(type, distinct)):
                return False
    except ValidationError:
        return False
    return True


def build_links(columns: LinkColumns) -> list[Link]:
    """The links: every distinct value of every column validated once against its field and
    the links made from them; or every link validated by pydantic (which reports what is
    wrong) when a value fails or the shortcut does not hold."""
    if not _SHORTCUT or not _values_pass(columns):
        return columns.validated()
    return _copies(columns)

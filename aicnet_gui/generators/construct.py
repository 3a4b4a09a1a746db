"""Many `Link` objects from values that are already known to be valid, without re-validating each.

A 4,096-server fabric has ~100k links (each a slotted pydantic dataclass with two `Endpoint`
tuples); validating them one by one costs about as much as the rest of the generator run.  The
generator's values come from validated sources (device ids of validated devices, port names of
the catalog's port tables, catalog part ids, `link-N` / `asm-N` ids it formats itself), so
`build_links` validates every distinct value once with pydantic and then makes every link with
`Link.trusted` (model/values.py: its slots set to those values, the other fields their
defaults), which is what validation makes of them.  When that shortcut does not hold (Link
gained a validator or a setting that checks more than each field on its own, or a made link
differs from the validated one), it validates every link.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import TypeAdapter, ValidationError

from ..model.fabric import Endpoint, Link, NonEmpty

_LINKS = TypeAdapter(list[Link])


def _plain(cls: Any) -> bool:
    """True if `cls` is a slotted dataclass whose slots are its fields and whose validation
    checks each field on its own (no validators, post-init, aliases, default factories or
    settings such as strict that the per-field checks would miss)."""
    if hasattr(cls, "__post_init__"):
        return False
    if tuple(getattr(cls, "__slots__", ())) != tuple(cls.model_fields):
        return False
    checks = cls.__pydantic_decorators__
    if checks.validators or checks.field_validators or checks.root_validators \
            or checks.model_validators:
        return False
    if set(cls.__pydantic_config__) - {"extra"}:
        return False
    return not any(f.alias or f.validation_alias or f.default_factory
                   for f in cls.model_fields.values())


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
    return {"id": link_id, "a": (ad, ap), "b": (bd, bp), "cable": cable, "assembly": assembly,
            "rail": rail, "colour": colour, "plane": plane}


def _copies(columns: LinkColumns) -> list[Link]:
    """Every row as a Link made by the trusted constructor (no validation)."""
    make, pair = Link.trusted, tuple.__new__
    return [make(id=link_id, a=pair(Endpoint, (ad, ap)), b=pair(Endpoint, (bd, bp)),
                 cable=cable, assembly=assembly, rail=rail, colour=colour, plane=plane)
            for link_id, ad, ap, bd, bp, cable, assembly, rail, colour, plane in zip(
                *columns.columns, strict=True)]


def _shortcut_holds() -> bool:
    """Link is as `_copies` expects, and its copy of a link equals the validated link."""
    if not _plain(Link) or Endpoint._fields != ("device", "port"):
        return False
    values = ("link-1", "a", "1/1", "b", "2/1", "cord", "asm-1", 1, "blue", "compute")
    sample = LinkColumns(*([value] for value in values))
    copy, twin = _copies(sample)[0], sample.validated()[0]
    return copy == twin and type(copy.a) is type(twin.a) is Endpoint


_SHORTCUT = _shortcut_holds()


def _adapter(model: Any, name: str) -> TypeAdapter:
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

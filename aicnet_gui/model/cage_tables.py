"""A device's cage table (cage number -> breakout mode and optic), as read, shared and written.

In a `.fabric` file a run of cages with the same configuration is one entry keyed `"first-last"`:
a QM9700 leaf with 24 SR4 optics down and 8 DR4 up is
`{"1-24": {"transceiver": "nvidia-mma4z00-ns"}, "25-32": {"transceiver": "nvidia-mms4x00-ns"}}`
instead of 32 entries (schema version 3; a single cage is still keyed `"5"`).  In Python a table
is `dict[int, CageConfig]`, one entry per configured cage.

A 4,096-server fabric has 2,560 switches with 32 configured cages each but only a handful of
distinct tables.  Devices read or generated with the same table share one validated dict (tables
are values: an edit makes a new dict, nothing changes one in place), and a save serialises each
distinct table once.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapSerializer,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from .memo import IdentityMemo


class CageConfig(BaseModel):
    """Per-cage overrides on a device: breakout mode, the optic installed in the cage and the
    FEC its ports are configured to run (None: the default of the line, model/fec.py)."""

    model_config = ConfigDict(extra="forbid")

    mode: Annotated[str, Field(max_length=32)] | None = None
    transceiver: Annotated[str, Field(max_length=128)] | None = None
    fec: Literal["rs544", "rs528", "baser", "off"] | None = Field(
        default=None, description="FEC configured on the cage's ports (Ethernet): rs544 (KP4), "
                                  "rs528 (KR4), baser (clause 74), off; None: the line's default")



#: a run may not go past this cage (no device has more; it bounds what a bad file can expand to)
MAX_CAGE = 1024


def _range_error(key: str, why: str) -> PydanticCustomError:
    return PydanticCustomError("cage_range", "cage range {key}: {why}", {"key": key, "why": why})


def _is_run(key: Any) -> bool:
    return isinstance(key, str) and "-" in key


def _run_cages(key: str) -> range:
    first, _, last = key.partition("-")
    if not (first.isdigit() and last.isdigit()):
        raise _range_error(repr(key), "write a run of cages as first-last, e.g. 1-24")
    if max(len(first), len(last)) > len(str(MAX_CAGE)) or int(last) > MAX_CAGE:
        raise _range_error(repr(key), f"no device has more than {MAX_CAGE} cages")
    if not int(first) < int(last):  # cages may count from 0 (CageGroup.first: Juniper's 0-63)
        raise _range_error(repr(key), "the first cage must be below the last")
    return range(int(first), int(last) + 1)


def expanded(table: dict[Any, Any]) -> dict[Any, Any]:
    """`table` with each `"first-last"` key replaced by one entry per cage of the run (keyed
    as text, like the other keys read from a file, so an error names a cage as `cages.5`)."""
    if not any(map(_is_run, table)):
        return table
    out: dict[Any, Any] = {}
    seen: dict[int, Any] = {}
    for key, config in table.items():
        if _is_run(key):
            entries = [(cage, str(cage)) for cage in _run_cages(key)]
        elif isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            entries = [(int(key), key)]
        else:
            out[key] = config  # not a cage number: validation reports it
            continue
        for cage, name in entries:
            if cage in seen:
                raise PydanticCustomError(
                    "cage_range", "cage {cage} is given twice: in {one} and in {other}",
                    {"cage": cage, "one": repr(seen[cage]), "other": repr(key)})
            seen[cage] = key
            out[name] = config
    return out


def _runs_checked(table: dict[Any, Any], handler: ValidatorFunctionWrapHandler) -> dict[Any, Any]:
    """`table` after validating the configuration of each run once: a mistake in `"1-24"` is
    reported once, naming the run, not once per cage."""
    for key, config in table.items():
        if not _is_run(key):
            continue
        try:
            handler({key.partition("-")[0]: config})
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(part) for part in error["loc"][1:])
            raise PydanticCustomError(
                "cage_run", "cage range {key}: {where}{msg}",
                {"key": repr(key), "where": f"{where}: " if where else "", "msg": error["msg"]},
            ) from None
    return table


def runs(table: dict[str, Any]) -> dict[str, Any]:
    """A table as JSON (keys are cage numbers as text) with each run of consecutive cages
    that have equal configurations as one `"first-last"` entry, in cage order."""
    if len(table) < 2:
        return table
    cages = sorted((int(key), config) for key, config in table.items())
    out: dict[str, Any] = {}
    start, previous, config = cages[0][0], cages[0][0], cages[0][1]
    for cage, current in cages[1:]:
        if cage == previous + 1 and current == config:
            previous = cage
            continue
        out[str(start) if start == previous else f"{start}-{previous}"] = config
        start, previous, config = cage, cage, current
    out[str(start) if start == previous else f"{start}-{previous}"] = config
    return out


#: validated cage tables by the JSON they were read from (see `_shared_cages`)
_BY_JSON: dict[bytes, dict[int, CageConfig]] = {}
_BY_JSON_MAX = 4096
#: every cage table `_shared_cages` made (forgotten tables are only validated again)
_MADE: IdentityMemo[bool] = IdentityMemo(4 * _BY_JSON_MAX)


def _made(table: dict[int, CageConfig]) -> dict[int, CageConfig]:
    _MADE.put(table, True)
    return table


def _shared_cages(value: Any, handler: ValidatorFunctionWrapHandler) -> dict[int, CageConfig]:
    """Validate a cage table once per distinct content read from a file: its compact JSON is
    the key (orjson writes it four times faster than a Python loop builds a tuple).  Anything
    but plain JSON data (CageConfig objects, integer cage numbers) is validated as usual.  A
    table this function made is taken as it is (a generator gives thousands of devices the one
    table `cage_table` validated)."""
    if not isinstance(value, dict):
        return handler(value)
    if _MADE.get(value):
        return value
    try:
        key = orjson.dumps(value)
    except TypeError:
        return _made(handler(expanded(_runs_checked(value, handler))))
    table = _BY_JSON.get(key)
    if table is None:
        table = _made(handler(expanded(_runs_checked(value, handler))))
        if len(_BY_JSON) >= _BY_JSON_MAX:
            _BY_JSON.clear()
        _BY_JSON[key] = table
    return table


#: key of the serialisation context entry in which `_shared_cage_json` remembers cage tables
SHARED_CAGE_JSON = "shared_cage_json"


def _cage_json(value: dict[int, CageConfig], handler: SerializerFunctionWrapHandler,
               info: SerializationInfo) -> Any:
    """As JSON a table is written in runs.  Each distinct table is serialised once per call
    that asks for it: a save passes `context={SHARED_CAGE_JSON: IdentityMemo(None)}`, and the
    devices that share a table share its form."""
    if info.mode != "json":
        return handler(value)
    memo = info.context.get(SHARED_CAGE_JSON) if isinstance(info.context, dict) else None
    if memo is None:
        return runs(handler(value))
    out = memo.get(value)
    if out is None:
        out = memo.put(value, runs(handler(value)))
    return out


#: a device's cage table: cage number -> overrides (validated and serialised shared, see above)
CageTable = Annotated[dict[int, CageConfig], WrapValidator(_shared_cages),
                      WrapSerializer(_cage_json)]
_CAGE_TABLE: TypeAdapter[dict[int, CageConfig]] = TypeAdapter(CageTable)


def cage_table(configs: dict[int, CageConfig]) -> dict[int, CageConfig]:
    """`configs` validated as a device's cage table; every device given the result holds that
    very table (no copy per device)."""
    return _CAGE_TABLE.validate_python(configs)

"""Requirement files: what a study compares candidates against, on its own beside a design.

`NAME.requirement.json` (or `.yaml` / `.yml`) holds one requirement (model/fabric.py
`Requirement`) under a format tag: `{"format": "aicnet.requirement", "version": 1, "name": ...,
"servers": ...}`.  A `.fabric` file may carry one too (`Fabric.requirement`): `load_requirement`
reads it from there as well.  Bad input ends in one `RequirementFileError` naming the file and
the JSON path, never a traceback; `aicnet schema requirement` prints the schema.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import ValidationError

from ..catalog.loader import read_yaml
from ..model.fabric import REQUIREMENT_FORMAT, REQUIREMENT_VERSION, Requirement
from .atomic import atomic_output
from .errors import FabricFileError
from .fabric_file import parse_json, read_input, validation_error

#: a requirement is a page of text; anything larger is not one
MAX_REQUIREMENT_BYTES = 1024 * 1024
YAML_SUFFIXES = (".yaml", ".yml")


class RequirementFileError(FabricFileError):
    """A requirement file that cannot be read or written, with where and why."""


class RequirementFile(Requirement):
    """A requirement file as written: the format tag and version, then the requirement."""

    format: Literal["aicnet.requirement"] = REQUIREMENT_FORMAT
    version: Literal[1] = REQUIREMENT_VERSION


def _read(path: Path) -> bytes:
    def check(size: int) -> None:
        if size > MAX_REQUIREMENT_BYTES and path.suffix != ".fabric":
            raise RequirementFileError(path, f"{size:,} bytes; a requirement file holds at most "
                                             f"{MAX_REQUIREMENT_BYTES:,}")

    return read_input(path, RequirementFileError, check)


def _data(path: Path, raw: bytes) -> Any:
    """The file's top-level value: JSON, or YAML by its suffix."""
    if path.suffix.lower() in YAML_SUFFIXES:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RequirementFileError(path, f"not UTF-8 text (byte {exc.start + 1})") from None
        try:
            return read_yaml(text)
        except Exception as exc:  # noqa: BLE001 - yaml's own words for what is wrong
            raise RequirementFileError(path, f"not valid YAML: {exc}") from None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise RequirementFileError(
            path, f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None


def load_requirement(path: str | Path) -> Requirement:
    """The requirement in a requirement file, or the one a `.fabric` file carries."""
    path = Path(path)
    raw = _read(path)
    if path.suffix == ".fabric":
        data = parse_json(raw, str(path))
        value = data.get("requirement")
        if value is None:
            raise RequirementFileError(path, "the design carries no requirement (one is saved "
                                             "with a design that aicnet compare wrote)")
        try:
            return Requirement.model_validate(value)
        except ValidationError as exc:
            error = validation_error(str(path), exc)
            raise RequirementFileError(path, error.message,
                                       "$.requirement" + error.json_path[1:]) from None
    data = _data(path, raw)
    if not isinstance(data, dict):
        raise RequirementFileError(path, "the top level must be an object", "$")
    if data.get("format") != REQUIREMENT_FORMAT:
        raise RequirementFileError(
            path, f'not an aicnet requirement (expected "format": "{REQUIREMENT_FORMAT}")',
            "$.format")
    if data.get("version") != REQUIREMENT_VERSION:
        raise RequirementFileError(
            path, f"version {data.get('version')!r}: this aicnet reads requirement files of "
                  f"version {REQUIREMENT_VERSION}", "$.version")
    try:
        parsed = RequirementFile.model_validate(data)
    except ValidationError as exc:
        error = validation_error(str(path), exc)
        raise RequirementFileError(path, error.message, error.json_path) from None
    return Requirement.model_validate(parsed.model_dump(exclude={"format", "version"}))


def dumps_requirement(requirement: Requirement, yaml_text: bool = False) -> bytes:
    """The file for `requirement`: JSON (indented, fields in the model's order) or YAML."""
    data = {"format": REQUIREMENT_FORMAT, "version": REQUIREMENT_VERSION,
            **requirement.model_dump(mode="json")}
    if yaml_text:
        import yaml

        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True).encode("utf-8")
    return orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n"


def save_requirement(path: str | Path, requirement: Requirement) -> None:
    """Write `requirement` atomically, as YAML when the name ends in .yaml / .yml."""
    path = Path(path)
    payload = dumps_requirement(requirement, path.suffix.lower() in YAML_SUFFIXES)
    try:
        with atomic_output(path) as handle:
            handle.write(payload)
    except OSError as exc:
        raise RequirementFileError(path, f"cannot write: {exc.strerror or exc}") from None

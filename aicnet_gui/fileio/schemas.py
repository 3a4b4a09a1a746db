"""JSON Schemas (draft 2020-12) of `.fabric`, catalog and requirement files, generated from the
pydantic models.

The schemas are built at call time from the same classes that read the files (`Fabric` for a
`.fabric`, `CatalogEntry` inside the `format / version / entries` mapping that
`catalog.loader` reads), so they cannot drift from what aicnet accepts.  They describe the
current schema version: an older `.fabric` is migrated on load and may not validate as it is.

A requirement file (`NAME.requirement.json` / `.yaml`, fileio/requirement_file.py: what a
study compares candidate designs against) is described from `RequirementFile`.

`aicnet schema fabric|catalog|requirement [-o FILE]` prints or writes them; other tools use them to validate
or generate aicnet files (a catalog file is YAML: validate its parsed data).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..catalog.loader import CATALOG_FORMAT, CATALOG_VERSION
from ..model.catalog_entities import CatalogEntry
from ..model.fabric import REQUIREMENT_VERSION, SCHEMA_VERSION, Fabric
from .requirement_file import RequirementFile

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_KINDS = ("fabric", "catalog", "requirement")


class CatalogFile(BaseModel):
    """A catalog YAML file as `catalog.loader` reads it (used only to describe it)."""

    model_config = ConfigDict(extra="forbid", title="aicnet catalog file")

    format: Literal["aicnet.catalog"] = Field(description="always aicnet.catalog")
    version: Literal[1] = Field(CATALOG_VERSION, description="catalog file version")
    entries: list[CatalogEntry] = Field(
        default_factory=list, description="devices, transceivers and cable assemblies")


def _require_discriminators(schema: dict[str, Any]) -> None:
    """Catalog entries are told apart by `kind` (pydantic's discriminator, which JSON Schema
    validators ignore): each entry definition requires its `kind`, as the reader does."""
    for name in ("DeviceModel", "Transceiver", "CableAssembly"):
        definition = schema.get("$defs", {}).get(name)
        if definition and "kind" in definition.get("properties", {}):
            definition["required"] = sorted(set(definition.get("required", [])) | {"kind"})


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a `fabric` or `catalog` file as a dict (raises ValueError otherwise)."""
    if kind == "fabric":
        schema = Fabric.model_json_schema(mode="validation")
        schema["title"] = "aicnet .fabric file"
        schema["description"] = (
            f"An aicnet fabric design, schema version {SCHEMA_VERSION} "
            "(UTF-8 JSON; older versions are migrated by aicnet on load).")
        schema["required"] = sorted(set(schema.get("required", [])) | {"format", "schema_version"})
    elif kind == "catalog":
        schema = CatalogFile.model_json_schema(mode="validation")
        schema["description"] = (
            f"An aicnet hardware catalog file ({CATALOG_FORMAT} version {CATALOG_VERSION}), "
            "written in YAML; validate its parsed data.")
    elif kind == "requirement":
        schema = RequirementFile.model_json_schema(mode="validation")
        schema["title"] = "aicnet requirement file"
        schema["description"] = (
            f"What a study (aicnet compare) compares candidate fabrics against, version "
            f"{REQUIREMENT_VERSION} (JSON or YAML; a .fabric file may carry one as "
            "`requirement`).")
        schema["required"] = sorted(set(schema.get("required", [])) | {"format", "version"})
    else:
        raise ValueError(f"unknown schema {kind!r}: choose one of {', '.join(SCHEMA_KINDS)}")
    _require_discriminators(schema)
    return {"$schema": SCHEMA_DIALECT, "$id": f"urn:aicnet:schema:{kind}"} | schema

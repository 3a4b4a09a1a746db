"""Load and merge hardware catalogs: built-in `catalogs/`, the user's folder, embedded entries."""

from .loader import (
    CATALOG_FORMAT,
    CATALOG_VERSION,
    USER_CATALOG_ENV,
    CatalogLoadResult,
    CatalogProblem,
    builtin_catalog,
    builtin_problems,
    catalog_files,
    clear_cache,
    load_catalog,
    load_catalog_file,
    parse_entries,
    user_catalog_path,
)

__all__ = [
    "CATALOG_FORMAT",
    "CATALOG_VERSION",
    "USER_CATALOG_ENV",
    "CatalogLoadResult",
    "CatalogProblem",
    "builtin_catalog",
    "builtin_problems",
    "catalog_files",
    "clear_cache",
    "load_catalog",
    "load_catalog_file",
    "parse_entries",
    "user_catalog_path",
]

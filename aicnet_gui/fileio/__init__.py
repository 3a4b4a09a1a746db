"""Read and write `.fabric` files: versioned JSON, migrations, atomic save, recovery files."""

from .errors import FabricFileError
from .fabric_file import dumps_fabric, load_fabric, loads_fabric, save_fabric

__all__ = ["FabricFileError", "dumps_fabric", "load_fabric", "loads_fabric", "save_fabric"]

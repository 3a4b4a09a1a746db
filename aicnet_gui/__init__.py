"""aicnet: design, validate and document the network of an AI/GPU cluster.

Importing the package also turns off numpy's huge-page advice for its arrays (unless the user
set `NUMPY_MADVISE_HUGEPAGE` himself): see `aicnet_gui/memory_pages.py`.
"""

from .memory_pages import prefer_small_pages

__version__ = "0.1.0"

prefer_small_pages()

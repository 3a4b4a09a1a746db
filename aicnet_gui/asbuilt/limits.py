"""The bounds on every as-built input `aicnet verify` reads (lldpctl JSON, ibnetdiscover text,
NetBox cable CSV, host maps), as `model/limits.py` bounds a `.fabric`: each is past anything a
real cluster of aicnet's largest design (3,000,000 links, 100,000 devices) produces, and an input
past one is refused with a message naming the file, the place and the limit, never read on
into memory or recursion."""

from __future__ import annotations

from ..model import limits as L

#: one capture file (an ibnetdiscover run prints each link twice, ~100 bytes a line: a
#: 3,000,000-link fabric is ~600 MB; a merged lldpctl file of 100,000 hosts is less)
MAX_CAPTURE_BYTES = 1024 * 1024 * 1024
#: lldpctl JSON nesting (its deepest is 7: lldp.interface[i].<if>.chassis.<name>.capability[j])
MAX_JSON_DEPTH = 32
#: lldpctl files read from the folders given (one per device)
MAX_LLDP_FILES = L.MAX_DEVICES
#: neighbours in one device's lldpctl output (a 512-port switch with every port split in 8)
MAX_NEIGHBOURS = 4096
#: one ibnetdiscover line (a node description is at most 64 bytes, a GUID 16 hex digits)
MAX_LINE_CHARS = 4096
#: ibnetdiscover lines: two port lines per link plus the node blocks
MAX_CAPTURE_LINES = 4 * L.MAX_LINKS + 8 * L.MAX_DEVICES
#: cables in a NetBox cable CSV, and cells per row and characters per cell
MAX_CABLE_ROWS = L.MAX_LINKS
MAX_CELLS = 256
MAX_CELL_CHARS = L.MAX_TEXT
#: terminations on one side of one cable (NetBox's largest profile has 16 positions)
MAX_TERMINATIONS = 64
#: a host map (observed name, design name per line; ports as well as hosts)
MAX_HOSTMAP_BYTES = 64 * 1024 * 1024
MAX_HOSTMAP_ROWS = 10 * L.MAX_DEVICES

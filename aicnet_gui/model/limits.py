"""Bounds on every number, string and list read from a `.fabric` or catalog file.

A file is data from anywhere: a value no real hardware can have (a cage `count` of 10^12, a
rail of 10^8, a `lane_gbps` of 2^70, a million links) must be refused where it is read, with a
message that says the limit, before it sizes a set, an array or an integer sum.  Each bound is
set well above the largest real value (hardware.md, with its source):

* cages per device: the largest switches have 144 cages (NVIDIA Q3400-RA: 72 twin-port OSFP;
  Q3450-LD: 144 MPO) and the largest switch ASIC has 512 SerDes (Broadcom Tomahawk 5, 512 x 100G
  logical ports): cage numbers stop at `MAX_CAGE` (1,024, model/cage_tables.py).
* lanes per cage: OSFP and QSFP-DD have 8 electrical lanes, OSFP-XD 16 -> at most 16; so a cage
  splits into at most 16 legs.
* rate per lane: 200 Gb/s today (XDR, 1.6T OSFP), 400 Gb/s announced -> at most 400 Gb/s; a port
  or module at most 16 x 400 = 6,400 Gb/s.
* a splitter cable has 2, 4 or 8 legs -> at most 16.
* rails: one per scale-out NIC of a server (8 on an HGX/DGX; 72 GPUs in a GB200 NVL72 rack)
  -> a rail number is at most 128.
* lengths: a cable or link at most 100 km (80 km ZR optics are the longest data-centre
  optics); floor coordinates at most 100 km from the origin.
* power: a device draws at most 200 kW (a GB200 NVL72 rack is ~120-132 kW); a module at most
  100 W (an OSFP class-8 module is 17 W); a rack budget at most 1 MW.
* weight: a unit weighs at most 10 t (a GB200 NVL72 rack is ~1.4 t).
* heights: racks are at most 64 U (the tallest common racks are 58 U).
* a design: at most `MAX_DEVICES` devices, `MAX_LINKS` links, `MAX_RACKS` racks and
  `MAX_WORKLOADS` workloads.  A 100,000-GPU cluster (12,500 eight-GPU servers, three tiers) has
  ~40,000 devices and ~300,000 links; the largest designed today (issue 22: 200,000 GPUs) as the
  rail-optimized generator builds them: 600,192 links on XDR, 1,200,128 with two compute
  planes and 2,436,096 with four (390 SUs of 64 DGX B300 on SN5610, 13,900 racks, ~340 MB).
* text: ids at most 128 characters, names and short fields 256, free text 64 KiB; ids, names
  and short fields hold no control character (text_safety.py).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from .cage_tables import MAX_CAGE as MAX_CAGE  # re-exported: the cage bound lives with the tables
from .text_safety import NO_CONTROL

MAX_LANES = 16
MAX_LANE_GBPS = 400
MAX_LEGS = 16
MAX_SPEED_GBPS = MAX_LANES * MAX_LANE_GBPS
MAX_CAGE_GROUPS = 64
MAX_RAIL = 128
MAX_LENGTH_M = 100_000.0
MAX_COORDINATE_M = 100_000.0
MAX_CANVAS = 1e7
MAX_DEVICE_POWER_W = 200_000.0
MAX_WEIGHT_KG = 10_000.0
MAX_MODULE_POWER_W = 100.0
MAX_RACK_POWER_KW = 1_000.0
MAX_RACK_U = 64
MAX_GPUS = 1_024
MAX_FIBRES = 288
MAX_PRICE_USD = 1e9
MAX_SWITCHING_TBPS = 10_000.0
MAX_ROW = 10_000
MAX_RATIO = 1_000.0
MAX_MESSAGE_MB = 1e9
#: mated connector pairs in one structured-cabling channel (a cross-connect between two
#: patch-panel pairs is 4; TIA-568.3 channels rarely have more than 6)
MAX_MATED_PAIRS = 16
#: loss of one mated connector pair or one optic's channel budget (standard-grade pairs are
#: at most 0.75 dB; the longest-reach catalog optics budget well under 20 dB)
MAX_LOSS_DB = 40.0

MAX_DEVICES = 100_000
MAX_LINKS = 3_000_000
MAX_RACKS = 20_000
MAX_WORKLOADS = 1_000
MAX_CATALOG_ENTRIES = 5_000
MAX_LIST = 256
MAX_TAGS = 64

MAX_ID = 128
MAX_NAME = 256
MAX_TEXT = 65_536
MAX_PATTERN = 64

#: the largest `.fabric` file read (a 2,436,096-link design is ~340 MB with its media)
MAX_FABRIC_BYTES = 512 * 1024 * 1024
#: the largest catalog YAML file read (the built-in files are a few kB to 60 kB); a NetBox
#: device-type file too (the library's largest are ~100 kB)
MAX_CATALOG_BYTES = 4 * 1024 * 1024
#: how deep a catalog or device-type YAML file may nest (a catalog entry's deepest value, an OS
#: port pattern, is 7 levels down; a NetBox device type 3)
MAX_YAML_DEPTH = 32
#: the longest number (in characters) read from a YAML file: 2^64 has 20 digits, and every
#: number a catalog holds is bounded far below that
MAX_NUMBER_CHARS = 40
#: interfaces of one NetBox device type: at most MAX_CAGE cages of MAX_LEGS ports each
MAX_INTERFACES = 1_024 * MAX_LEGS
#: an interface name in NetBox (dcim ComponentTemplateModel.name: max_length=64)
MAX_INTERFACE_NAME = 64
#: the largest price list read (a distributor's full sheet of ~50,000 parts is ~3 MB)
MAX_PRICE_BYTES = 16 * 1024 * 1024
#: rows of one price list (the catalogs hold ~1,000 parts; at most 5,000 entries a file, each
#: priced at a handful of stock lengths)
MAX_PRICE_ROWS = 50_000
#: characters of one price-list line (a part key is at most MAX_NAME characters)
MAX_PRICE_LINE = 4_096

#: ids and names are one line of printable text (text_safety.py); free text may hold line breaks
IdText = Annotated[str, StringConstraints(max_length=MAX_ID), NO_CONTROL]
NameText = Annotated[str, StringConstraints(max_length=MAX_NAME), NO_CONTROL]
FreeText = Annotated[str, StringConstraints(max_length=MAX_TEXT)]


def bounded_int(low: int, high: int, **kwargs: object) -> object:
    """A Field for an integer in [low, high]."""
    return Field(ge=low, le=high, **kwargs)  # type: ignore[arg-type]


def bounded_float(high: float, low: float = 0.0, *, above: bool = False, **kwargs: object) -> object:
    """A Field for a finite number in [low, high] (or (low, high] when `above`)."""
    limits: dict[str, object] = {"gt": low} if above else {"ge": low}
    return Field(le=high, allow_inf_nan=False, **limits, **kwargs)  # type: ignore[arg-type]


def size_message(what: str, count: int, limit: int) -> str:
    """`a design holds at most 3,000,000 links; this one has 3,500,000`."""
    return f"a design holds at most {limit:,} {what}; this one has {count:,}"

"""`.fabric` files of any number of links, written as text in aicnet's own layout, for the
near-limit benchmark and the limit tests (model/limits.py: MAX_LINKS 3,000,000).

The design is the plainest that loads: pairs of SN5600 switches with all 64 OSFP cages split
8x100G (512 ports each, one shared cage table), every port of a switch cabled to the same port
of its pair.  3,000,000 links are 5,860 pairs (11,720 devices, under MAX_DEVICES).  The file is
made from one a `FabricDocument` saves (two switches, one link: the head, the embedded catalog
entry, the layout `fileio/pieces.py` reads a piece at a time), with the device and link lines
written out in the same form, so it is what aicnet would save for that design, made in seconds
and without a document of 3M links in memory.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import save_fabric
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import AddDevice, AddLink
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link

MODEL = "nvidia-sn5600"
CAGES, LEGS = 64, 8
PORTS = CAGES * LEGS
_CAGE_TABLE = '{"1-64":{"mode":"8x100G"}}'


def _port(index: int) -> str:
    return f"swp{index // LEGS + 1}s{index % LEGS}"


def _template(catalog: Catalog) -> str:
    """The text aicnet saves for two switches and one link."""
    doc = FabricDocument(catalog)
    cages = {cage: CageConfig(mode=f"{LEGS}x100G") for cage in range(1, CAGES + 1)}
    for number in (1, 2):
        doc.apply([AddDevice(Device(id=f"d{number}", name=f"sw-{number}", model=MODEL,
                                    cages=cages))])
    doc.apply([AddLink(Link(id="l1", a=Endpoint("d1", _port(0)), b=Endpoint("d2", _port(0))))])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "template.fabric"
        save_fabric(doc, path, keep_backup=False)
        return path.read_text(encoding="utf-8")


def _section(text: str, name: str) -> tuple[int, int]:
    """Where the lines of section `name` start and end in `text`."""
    start = text.index(f'\n  "{name}": [\n') + len(f'\n  "{name}": [\n')
    return start, text.index("\n  ]", start)


def _device_lines(pairs: int) -> Iterator[str]:
    for device in range(2 * pairs):
        yield (f'    {{"id":"d{device}","name":"sw-{device:05d}","model":"{MODEL}",'
               f'"cages":{_CAGE_TABLE}}}')


def _link_lines(links: int) -> Iterator[str]:
    for link in range(links):
        pair, port = divmod(link, PORTS)
        name = _port(port)
        yield (f'    {{"id":"l{link}","a":["d{2 * pair}","{name}"],'
               f'"b":["d{2 * pair + 1}","{name}"]}}')


def write_fabric(path: Path, links: int, catalog: Catalog | None = None,
                 empty_links: bool = False) -> Path:
    """Write a design of `links` links (and the switches they need) to `path`; with
    `empty_links` each link is `{}` and there are two switches (a file only the count of its
    links can refuse: 3M links in ~25 MB)."""
    text = _template(catalog or builtin_catalog())
    pairs = 1 if empty_links else max(-(-links // PORTS), 1)
    devices_at, devices_end = _section(text, "devices")
    links_at, links_end = _section(text, "links")
    with open(path, "w", encoding="utf-8") as out:
        out.write(text[:devices_at])
        _write_lines(out, _device_lines(pairs))
        out.write(text[devices_end:links_at])
        _write_lines(out, ("    {}" for _ in range(links)) if empty_links else _link_lines(links))
        out.write(text[links_end:])
    return path


def _write_lines(out, lines: Iterator[str], batch: int = 100_000) -> None:  # noqa: ANN001
    first = True
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == batch:
            out.write(("" if first else ",\n") + ",\n".join(chunk))
            first, chunk = False, []
    if chunk:
        out.write(("" if first else ",\n") + ",\n".join(chunk))

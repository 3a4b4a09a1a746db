"""The export formats, in one list: what each writes, who reads it, what it takes, its writer.

`aicnet export` (`cli/commands/export.py`: one output flag per format, in this order) and the
editor's File > Export dialog (`gui/dialogs/export_dialog.py`: one entry per format) are both
built from `EXPORT_FORMATS`.  An `ExportFormat` holds:

- `key`: its name (the dialog's kind); `flag`, `metavar`: the `aicnet export` option asking for
  it, `--pdf OUT.pdf`;
- `writes`, `reader`: what it writes and who reads it (`aicnet export --help` prints both);
  `title`: what the dialog lists it as;
- `suffix` ("" for a folder) and `stem`: the dialog's default target beside the design,
  `<design><stem><suffix>`;
- `writer`: `module.function` in `aicnet_gui.report`, imported when the format is first
  written (so that `aicnet export --csv` does not load openpyxl or PyYAML);
- `takes`: which shared inputs the writer takes as keywords: `plan` (the cable plan, built once
  for several outputs), `port_names` (a `PortNamer`), `options` (the PDF's `ExportOptions`),
  `progress` and `cancelled` (the writer reports its own progress and can stop);
- `options`: settings only this format has (`FormatOption`: a flag of `aicnet export` and the
  writer keyword it fills; the dialog writes with their defaults);
- `said(target, result)`: the line `aicnet export` prints after `wrote `; `told(target,
  result)`: the message the editor shows.

`write_export(fmt, doc, target, ...)` runs a format's writer with what it takes.  Adding a
format: its writer in a module of its own (as `slurm.py`) and one `ExportFormat(...)` here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model.wording import counted

if TYPE_CHECKING:
    from ..model.document import FabricDocument

#: the inputs a writer may take, by keyword
SHARED_INPUTS = frozenset({"plan", "port_names", "options", "progress", "cancelled"})


@dataclass(frozen=True)
class FormatOption:
    """A setting only one format has: `flag` on `aicnet export`, passed as `keyword`."""

    flag: str
    keyword: str
    choices: tuple[str, ...]
    default: str
    help: str

    @property
    def dest(self) -> str:
        """The attribute argparse stores the flag's value under."""
        return self.flag.removeprefix("--").replace("-", "_")


@dataclass(frozen=True)
class ExportFormat:
    key: str
    flag: str
    metavar: str
    writes: str
    reader: str
    title: str
    suffix: str
    stem: str
    writer: str
    said: Callable[[str, Any], str]
    told: Callable[[str, Any], str]
    takes: frozenset[str] = frozenset()
    options: tuple[FormatOption, ...] = ()
    help_text: str | None = None  # when the help is not "<writes>, for <reader>"

    @property
    def help(self) -> str:
        """The output's help in `aicnet export --help`: what it writes, for whom."""
        return self.help_text or f"{self.writes}, for {self.reader}"

    @property
    def dest(self) -> str:
        """The attribute argparse stores the output's target under."""
        return self.flag.removeprefix("--").replace("-", "_")

    @property
    def folder(self) -> bool:
        """It writes several files into a folder (the target is the folder)."""
        return not self.suffix

    def writer_function(self) -> Callable[..., Any]:
        module, _, name = self.writer.rpartition(".")
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)


def write_export(
    fmt: ExportFormat, doc: FabricDocument, target: str, *, plan: Any = None,
    port_names: Any = None, options: Any = None, progress: Any = None, cancelled: Any = None,
    values: Mapping[str, Any] | None = None,
) -> Any:
    """Write `doc` as `fmt` to `target`, passing the writer what it takes (`values`: the format
    options' values by keyword, their defaults when missing); return what the writer returns."""
    shared = {"plan": plan, "port_names": port_names, "options": options, "progress": progress,
              "cancelled": cancelled}
    keywords = {name: value for name, value in shared.items() if name in fmt.takes}
    for option in fmt.options:
        keywords[option.keyword] = (values or {}).get(option.keyword, option.default)
    return fmt.writer_function()(doc, target, **keywords)


def _pdf_told(target: str, result: Any) -> str:
    text = (f"Wrote {counted(result.pages, 'page')} ({counted(result.links, 'cable')}, "
            f"{counted(result.labels, 'label')}) to {target}")
    if result.warnings:
        text += "\n\n" + "\n".join(result.warnings[:10])
    return text


def _slurm_said(target: str, counts: Any) -> str:
    return (f"{target}: Slurm topology.conf ({counts['topology.conf']} switches),"
            f" topology.yaml ({counts['topology.yaml blocks']} NVLink blocks)")


def _slurm_told(target: str, counts: Any) -> str:
    return (f"Wrote topology.conf ({counted(counts['topology.conf'], 'switch')}) and "
            f"topology.yaml to {target}")


def _netbox_said(target: str, files: Any) -> str:
    return f"{target}: NetBox import, " + ", ".join(f"{name} ({n})" for name, n in files.items())


NETBOX_LAYOUT = FormatOption(
    "--netbox-layout", "layout", ("4.5", "4.4"), "4.5",
    "4.5: NetBox 4.5+ columns (sites, cable profiles) and device-type YAML; 4.4: the older CSV "
    "layout for NetBox 4.4 and earlier")

EXPORT_FORMATS: tuple[ExportFormat, ...] = (
    ExportFormat(
        key="pdf", flag="--pdf", metavar="OUT.pdf",
        writes="the cabling plan PDF", reader="the installers and the design review",
        title="Cabling plan (PDF)", suffix=".pdf", stem="",
        writer="plan_pdf.export_pdf", takes=frozenset({"plan", "options", "progress", "cancelled"}),
        said=lambda target, r: (f"{target}: {r.pages} pages ({r.links} links, {r.cables} "
                                f"cables, {r.labels} labels)"),
        told=_pdf_told,
    ),
    ExportFormat(
        key="csv", flag="--csv", metavar="OUT.csv",
        writes="the cable schedule as CSV", reader="spreadsheets and cabling tools",
        title="Cable schedule (CSV)", suffix=".csv", stem="-cables",
        writer="csv_exports.export_csv", takes=frozenset({"plan"}),
        said=lambda target, rows: f"{target}: cable schedule, {rows} links",
        told=lambda target, rows: f"Wrote {counted(rows, 'cable')} to {target}",
    ),
    ExportFormat(
        key="labels", flag="--labels-csv", metavar="OUT.csv",
        writes="one row per cable end", reader="P-touch Editor, Brady or Dymo",
        help_text="one row per cable end for P-touch Editor, Brady or Dymo",
        title="Cable labels (CSV for label printers)", suffix=".csv", stem="-labels",
        writer="csv_exports.export_labels_csv", takes=frozenset({"plan"}),
        said=lambda target, rows: f"{target}: {rows} labels",
        told=lambda target, rows: f"Wrote {counted(rows, 'label')} to {target}",
    ),
    ExportFormat(
        key="netbox", flag="--netbox", metavar="DIR",
        writes="NetBox bulk import into DIR (CSVs + device-type YAML)",
        reader="the team whose source of truth is NetBox or Nautobot",
        title="NetBox 4.5+ bulk import (folder of CSV and device-type YAML)", suffix="",
        stem="-netbox", writer="netbox.export_netbox", takes=frozenset({"plan", "port_names"}),
        options=(NETBOX_LAYOUT,),
        said=_netbox_said,
        told=lambda target, files: f"Wrote {counted(len(files), 'NetBox file')} to {target}",
    ),
    ExportFormat(
        key="cvt", flag="--cvt", metavar="OUT.xlsx",
        writes="NVIDIA Cable Validation Tool 1.7+ workbook (Nodes and Links sheets, protocol, "
               "module part numbers)",
        reader="the bring-up team",
        title="NVIDIA Cable Validation Tool 1.7+ workbook (XLSX)", suffix=".xlsx", stem="-cvt",
        writer="cvt_xlsx.export_cvt_xlsx", takes=frozenset({"plan"}),
        said=lambda target, rows: f"{target}: CVT workbook, {rows} links",
        told=lambda target, rows: f"Wrote {counted(rows, 'link')} to the CVT workbook {target}",
    ),
    ExportFormat(
        key="p2p", flag="--p2p", metavar="OUT.xlsx",
        writes="the CVT 1.4-1.6 P2P file (A-Node Name, A-Type, A-Port ...; an Excel file, "
               "or the same rows as CSV for any name not ending in .xlsx)",
        reader="CVT before 1.7",
        title="NVIDIA Cable Validation Tool P2P file, CVT 1.4-1.6 (Excel)", suffix=".xlsx",
        stem="-p2p", writer="csv_exports.export_p2p", takes=frozenset({"plan"}),
        said=lambda target, rows: f"{target}: P2P sheet, {rows} links",
        told=lambda target, rows: f"Wrote {counted(rows, 'point-to-point row')} to {target}",
    ),
    ExportFormat(
        key="drawio", flag="--drawio", metavar="OUT.drawio",
        writes="draw.io diagram (Topology and Floor pages)", reader="architects' documents",
        title="draw.io diagram (topology and floor)", suffix=".drawio", stem="",
        writer="drawio.export_drawio",
        said=lambda target, pages: f"{target}: draw.io diagram, {pages} pages",
        told=lambda target, pages: f"Wrote {counted(pages, 'page')} to {target}",
    ),
    ExportFormat(
        key="acceptance", flag="--acceptance-csv", metavar="OUT.csv",
        writes="the nccl-tests acceptance sheet (all_reduce_perf and alltoall_perf bus bandwidth "
               "a correct cluster should measure, per workload, message size and job size)",
        reader="the bring-up team",
        title="nccl-tests acceptance sheet (CSV)", suffix=".csv", stem="-acceptance",
        writer="acceptance_csv.export_acceptance",
        said=lambda target, rows: f"{target}: nccl-tests acceptance sheet, {rows} rows",
        told=lambda target, rows: f"Wrote {counted(rows, 'acceptance row')} to {target}",
    ),
    ExportFormat(
        key="slurm", flag="--slurm", metavar="DIR",
        writes="Slurm topology.conf (tree) and topology.yaml (tree, NVL72 blocks) into DIR",
        reader="the scheduler's administrators",
        title="Slurm topology.conf and topology.yaml (folder)", suffix="", stem="-slurm",
        writer="slurm.export_slurm",
        said=_slurm_said, told=_slurm_told,
    ),
)

_BY_KEY = {fmt.key: fmt for fmt in EXPORT_FORMATS}


def export_format(key: str) -> ExportFormat:
    """The format called `key` (KeyError naming it when there is none)."""
    return _BY_KEY[key]

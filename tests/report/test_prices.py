"""A user's price list fills the BOM's cost: `aicnet bom --prices FILE`, a `prices.csv` found
next to the design, the PDF naming the list and its date; bad files get one clear message."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from aicnet_gui.catalog.prices import PriceListError, find_price_list, load_price_list
from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric
from aicnet_gui.report import ExportOptions, export_pdf

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric"
# superpod-1su: 32 DGX H100, 12 QM9700, MMA4Z00-NS / -FLT optics, MFP7E10 at 3/5/7/10 m
ROWS = [
    ("nvidia-dgx-h100", 100000), ("MQM9700-NS2F", 20000), ("nvidia-qm9700", 21000),
    ("nvidia-mma4z00-ns", 900), ("nvidia-mma4z00-ns-flt", 950),
    ("MFP7E10-N003", 30), ("MFP7E10-N005", 40), ("nvidia-mfp7e10@7", 50), ("MFP7E10-N010", 60),
]


def _write(path: Path, rows, currency="EUR", date="2026-11-30") -> Path:
    lines = ["part,unit_price,currency,date"]
    lines += [f"{part},{price},{currency},{date}" for part, price in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


def _bom(capsys, *argv) -> dict:
    assert main(["bom", *argv, "--json", "--details"]) == 0
    return json.loads(capsys.readouterr().out)


def _expected(bom: dict, prices: dict[str, float]) -> float:
    spares = bom["details"]["spares"]
    total = sum(prices[m] * n for m, n in bom["devices"]["by_model"].items())
    total += sum(prices[o] * (n + spares["transceivers"][o]) for o, n in bom["transceivers"].items())
    by_length = {"nvidia-mfp7e10@3": 30, "nvidia-mfp7e10@5": 40, "nvidia-mfp7e10@7": 50,
                 "nvidia-mfp7e10@10": 60}
    total += sum(by_length[k] * (n + spares["cables"][k]) for k, n in bom["cables"].items())
    return total


def test_bom_prices_every_part_from_the_list(tmp_path, capsys):
    prices = _write(tmp_path / "quote.csv", ROWS)
    bom = _bom(capsys, str(EXAMPLE), "--prices", str(prices))
    # a catalog id wins over a part number; the cable is priced at its own ordered length
    table = {"nvidia-dgx-h100": 100000, "nvidia-qm9700": 21000, "nvidia-mma4z00-ns": 900,
             "nvidia-mma4z00-ns-flt": 950}
    assert bom["cost"] == pytest.approx(_expected(bom, table))
    assert bom["details"]["currency"] == "EUR"
    assert bom["details"]["price_list"] == "quote.csv (EUR, 2026-11-30)"
    assert bom["details"]["unpriced_parts"] == []


def test_a_cable_price_never_applies_to_another_length(tmp_path, capsys):
    prices = _write(tmp_path / "quote.csv", [r for r in ROWS if r[0] != "MFP7E10-N010"])
    bom = _bom(capsys, str(EXAMPLE), "--prices", str(prices))
    assert bom["cost"] is None
    assert bom["details"]["unpriced_parts"] == ["nvidia-mfp7e10@10"]


def test_the_price_list_next_to_the_design_is_found_and_named_in_the_pdf(tmp_path, capsys,
                                                                         catalog):
    design = tmp_path / "pod.fabric"
    shutil.copy(EXAMPLE, design)
    _write(tmp_path / "prices.csv", ROWS, currency="USD", date="2026-10-01")
    assert find_price_list(design) == tmp_path / "prices.csv"
    code = main(["bom", str(design)])
    out = capsys.readouterr().out
    assert code == 0 and "USD (price list prices.csv (USD, 2026-10-01), spares included)" in out
    pdf = tmp_path / "pod.pdf"
    assert main(["export", str(design), "--pdf", str(pdf), "--sections", "bom"]) == 0
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(pdf).pages).split())
    assert "price list prices.csv (USD, 2026-10-01)" in text
    # without a list the PDF says there is none and invents nothing
    export_pdf(load_fabric(EXAMPLE, catalog), tmp_path / "none.pdf", ExportOptions(sections=("bom",)))
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(tmp_path / "none.pdf").pages).split())
    assert "Prices: no price list" in text and "Cost unknown" in text


@pytest.mark.parametrize("body, message", [
    ("part,price\nx,1\n", "line 1: the header needs the columns part, unit_price, currency, date"),
    ("part,unit_price,currency,date\nx,-1,EUR,2026-01-01\n", "line 2: unit_price"),
    ("part,unit_price,currency,date\nx,1,euro,2026-01-01\n", "line 2: currency"),
    ("part,unit_price,currency,date\nx,1,EUR,yesterday\n", "line 2: date"),
    ("part,unit_price,currency,date\nx,1,EUR,2026-01-01\nx,2,EUR,2026-01-01\n",
     "line 3: part 'x' is listed twice"),
    ("part,unit_price,currency,date\nx,1,EUR,2026-01-01\ny,2,USD,2026-01-01\n",
     "mix currencies (EUR, USD)"),
    ("part,unit_price,currency,date\nx,inf,EUR,2026-01-01\n", "line 2: unit_price"),
    ("part,unit_price,currency,date\nx,1e400,EUR,2026-01-01\n", "line 2: unit_price"),
    ("part,unit_price,currency,date,part\nx,1,EUR,2026-01-01,y\n",
     "line 1: the header names part twice"),
    ("part,unit_price,currency,date\nx,1,200,EUR,2026-01-01\n",
     "line 2: 5 values under a header of 4 columns"),
    ("part,unit_price,currency,date\nCâble,1,EUR,2026-01-01\n".encode("cp1252"),
     "line 2: not UTF-8 text"),
])
def test_a_bad_price_list_names_the_file_and_line(tmp_path, capsys, body, message):
    path = tmp_path / "bad.csv"
    if isinstance(body, bytes):
        path.write_bytes(body)
    else:
        path.write_text(body)
    with pytest.raises(PriceListError, match=r"bad\.csv: .*") as info:
        load_price_list(path)
    assert message in str(info.value)
    assert main(["bom", str(EXAMPLE), "--prices", str(path)]) == 2
    assert "bad.csv" in capsys.readouterr().err


def test_a_utf16_tab_separated_list_as_excel_saves_unicode_text_is_read(tmp_path, capsys):
    path = tmp_path / "prices.txt"
    body = "part\tunit_price\tcurrency\tdate\n" + "".join(
        f"{part}\t{price}\tEUR\t2026-11-30\n" for part, price in ROWS)
    path.write_bytes(body.encode("utf-16"))  # with its byte-order mark, as Excel writes it
    prices = load_price_list(path)
    assert prices.currency == "EUR" and prices.price(["nvidia-dgx-h100"]) == 100000
    assert prices.price(["MFP7E10-N010"]) == 60

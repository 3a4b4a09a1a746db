"""The price list of a study, checked line by line.

`aicnet bom --prices` refuses a price list at its first bad row.  A study of a dozen designs
should not stop for one typo, nor make up a total around it: every bad row is reported with its
line (a negative or missing price, a wrong currency code or date, a part listed twice, a part
the catalog does not know, a cable priced without a stock length), the good rows are used, and
the cost of every candidate is then shown as incomplete, because a bad row may have been meant
for a part the candidates use.  Both read the file through `catalog/prices.py`'s
`read_price_records` (the same lines, the same limits); a list without a problem is the list
`load_price_list` reads, so a candidate's cost is exactly what `aicnet bom --prices` says for
its file; a file that is not a price list at all (not text, no header, past a limit, mixed
currencies) is refused with that reader's message.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..catalog.prices import PriceList, PriceListError, PriceRow, price_list, read_price_records
from ..model.catalog import Catalog
from ..model.wording import fmt_m


@dataclass(frozen=True)
class PriceProblem:
    line: int
    part: str
    message: str


@dataclass(frozen=True)
class PriceCheck:
    """A price list as a study uses it: the prices, and every row that was left out or names
    no part of the catalog."""

    path: str
    prices: PriceList
    problems: tuple[PriceProblem, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        return [f"{self.path}: line {p.line}: {p.message}" for p in self.problems]


def _rows(path: Path) -> tuple[list[tuple[int, PriceRow]], list[PriceProblem]]:
    """Every row of the file with its line, validated one by one by the price list reader
    (`read_price_records`: the same lines, limits and refusals as `aicnet bom --prices`); a
    bad row is a problem, not the end of the file."""
    rows: list[tuple[int, PriceRow]] = []
    problems: list[PriceProblem] = []
    for record in read_price_records(path):
        if record.row is not None:
            rows.append((record.line, record.row))
        elif record.extra_values:
            problems.append(PriceProblem(record.line, record.part, "more values than the header "
                                         "has columns (a comma in a price or part? quote it)"))
        else:
            problems.append(PriceProblem(record.line, record.part,
                                         f"{record.problem} (row left out)"))
    return rows, problems


def _catalog_keys(catalog: Catalog) -> tuple[set[str], dict[str, tuple[str, ...]]]:
    """The keys a price row may use for a part (what `analysis.bom.Pricer` looks up), lower
    case; and per cable id, its stock lengths (to say what a cable row should name)."""
    keys: set[str] = set()
    for entry in (*catalog.devices.values(), *catalog.transceivers.values()):
        keys.update(k.lower() for k in (entry.id, *entry.part_numbers, entry.model))
    cables: dict[str, tuple[str, ...]] = {}
    for cable in catalog.cables.values():
        lengths = tuple(fmt_m(s) for s in cable.stock_lengths_m)
        cables[cable.id.lower()] = lengths
        for stock in cable.stock_lengths_m:
            keys.add(f"{cable.id}@{fmt_m(stock)}".lower())
            number = cable.order_number(stock)
            if number:
                keys.add(number.lower())
    return keys, cables


def _unknown(part: str, keys: set[str], cables: dict[str, tuple[str, ...]]) -> str | None:
    key = part.strip().lower()
    if key in keys:
        return None
    cable, _, length = key.partition("@")
    if cable in cables:
        stock = ", ".join(cables[cable])
        if not length:
            return (f"part {part!r} is a cable, priced per stock length: name it "
                    f"{cable}@LENGTH (stock lengths {stock} m) or by its part number")
        return f"part {part!r}: {length} m is not a stock length of {cable} ({stock} m)"
    return (f"part {part!r} is not a catalog id, part number or model of the catalog "
            "(aicnet catalog list); it prices nothing")


def _first_of_each(rows: list[tuple[int, PriceRow]]
                   ) -> tuple[dict[str, PriceRow], list[PriceProblem]]:
    """The rows by part, the first of each; a part listed again is a problem."""
    seen: dict[str, int] = {}
    kept: dict[str, PriceRow] = {}
    problems = []
    for line, row in rows:
        key = row.part.lower()
        if key in seen:
            problems.append(PriceProblem(line, row.part, f"part {row.part!r} is listed twice "
                                         f"(first on line {seen[key]}); this row is left out"))
            continue
        seen[key] = line
        kept[key] = row
    return kept, problems


def _unknown_parts(rows: list[tuple[int, PriceRow]], catalog: Catalog) -> list[PriceProblem]:
    """A problem for each row whose part prices nothing of the catalog."""
    keys, cables = _catalog_keys(catalog)
    problems = []
    for line, row in rows:
        message = _unknown(row.part, keys, cables)
        if message is not None:
            problems.append(PriceProblem(line, row.part, message))
    return problems


def check_price_list(path: str | Path, catalog: Catalog) -> PriceCheck:
    """The price list at `path` for a study; PriceListError for a file that is not one."""
    path = Path(path)
    rows, problems = _rows(path)
    kept, twice = _first_of_each(rows)
    problems += twice
    if not problems:  # the list `load_price_list` reads (or refuses: no rows, mixed currencies)
        return PriceCheck(str(path), price_list(path, kept), tuple(_unknown_parts(rows, catalog)))
    problems += _unknown_parts(rows, catalog)
    problems.sort(key=lambda p: p.line)
    if not kept:
        raise PriceListError(f"{path}: no row of the price list can be used ("
                             + "; ".join(f"line {p.line}: {p.message}" for p in problems[:3])
                             + ")")
    return PriceCheck(str(path), price_list(path, kept), tuple(problems))

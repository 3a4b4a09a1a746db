"""Cells of the workbooks aicnet writes with XlsxWriter: a text is always a string cell, never a
formula, and one a spreadsheet would read as a formula is also marked as text.

XlsxWriter's `write()` and `write_row()` turn a string that starts with `=` into a formula cell
(`=cmd|' /C calc'!A0` in a device name ran as one in the CVT workbook).  `write_cell` writes a
string with `write_string`, so the cell holds the text itself; when the text is formula-like
(model/text_safety.py `formula_like`) the cell also gets Excel's quote-prefix style
(`quotePrefix`, what Excel stores when one types a leading `'`), so editing the cell in Excel
keeps it text.  The text is written as it is: a reader of the workbook (NVIDIA CVT) gets the
exact name.  Numbers are number cells, None an empty cell.
"""

from __future__ import annotations

from collections.abc import Iterable

import xlsxwriter.format
import xlsxwriter.workbook
import xlsxwriter.worksheet

from ..model.text_safety import formula_like


class CellWriter:
    """Writes cells into the sheets of one workbook (the quote-prefix format made once)."""

    def __init__(self, workbook: xlsxwriter.workbook.Workbook) -> None:
        self.quoted = workbook.add_format({"quote_prefix": True})

    def write_cell(self, sheet: xlsxwriter.worksheet.Worksheet, row: int, column: int,
                   value: object, cell_format: xlsxwriter.format.Format | None = None) -> None:
        """One cell: text as a string (quote-prefixed when formula-like), a number as a number;
        None or "" leaves the cell empty."""
        if value is None or value == "":
            return
        if isinstance(value, bool) or not isinstance(value, int | float):
            text = str(value)
            sheet.write_string(row, column, text,
                               self.quoted if cell_format is None and formula_like(text)
                               else cell_format)
            return
        sheet.write_number(row, column, value, cell_format)

    def write_cells(self, sheet: xlsxwriter.worksheet.Worksheet, row: int,
                    values: Iterable[object],
                    cell_format: xlsxwriter.format.Format | None = None) -> None:
        """A row of cells from column 0, each as `write_cell` writes it."""
        for column, value in enumerate(values):
            self.write_cell(sheet, row, column, value, cell_format)

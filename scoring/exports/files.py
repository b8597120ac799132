"""The tables (``scoring.exports.tables``) as files: a CSV per table, every table in one XLSX
workbook.

The files go to spreadsheets, so they are written the way spreadsheets read them: the CSV in
UTF-8 with a byte order mark (without it Excel reads "Émile" as "Ã‰mile"), CRLF line ends, and
true and false as TRUE and FALSE. A name or a ruling's reason is typed in by people; one that
starts like a formula ("=", "+", "-", "@") is kept as text, never run as a formula by the
spreadsheet that opens the file.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.cell.cell import TYPE_STRING
from openpyxl.styles import Font

from scoring.exports.tables import Table, Value

#: What a spreadsheet takes for the start of a formula (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value: Value) -> str | int:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value  # a spreadsheet shows the text and hides the quote
    return value


def table_csv(table: Table) -> bytes:
    """One table as CSV bytes: UTF-8 with a byte order mark, the header first."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(table.header)
    writer.writerows([_csv_cell(v) for v in row] for row in table.rows)
    return out.getvalue().encode("utf-8-sig")


def tables_xlsx(tables: Sequence[Table]) -> bytes:
    """Every table in one workbook, a sheet each in the order given, the header in bold and
    kept in view while scrolling."""
    workbook = Workbook()
    workbook.remove(workbook.active)
    bold = Font(bold=True)
    for table in tables:
        sheet = workbook.create_sheet(title=table.title[:31])  # Excel's longest sheet name
        sheet.append(list(table.header))
        for cell in sheet[1]:
            cell.font = bold
        for row in table.rows:
            sheet.append(list(row))
            for cell in sheet[sheet.max_row]:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    cell.data_type = TYPE_STRING  # openpyxl would store it as a formula
        sheet.freeze_panes = "A2"
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()

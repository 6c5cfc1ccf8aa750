"""The class log as CSV: every recorded check, one line each, safe to open in a spreadsheet.

The teacher takes the answers away as a file (the class view's export link); a cell a student typed that
starts like a formula is written so a spreadsheet shows it as text (:func:`csv_cell`), the summary's CSV
(:mod:`calcnb.classlog.summary`) included.

>>> csv_cell("=1+1"), csv_cell("-5"), csv_cell("ana")
("'=1+1", '-5', 'ana')
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import Any

from calcnb.classlog.schema import ATTEMPT_COLUMNS, row_outcome

__all__ = ["csv_cell", "csv_text"]

_FORMULA_START = ("=", "+", "@", "\t", "\r", "-")


def csv_cell(value: object) -> object:
    """A cell a spreadsheet shows as text: a leading =, +, -, @ (not a number) is prefixed with ' (no formula)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")


def csv_text(rows: Iterable[dict[str, Any]]) -> str:
    """The recorded checks as CSV (a header, then one line per check; times in UTC, ISO 8601)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(ATTEMPT_COLUMNS)
    for row in rows:
        cells = dict(
            row,
            recorded_at=_iso(row["recorded_at"]),
            correct=int(bool(row["correct"])),
            outcome=row_outcome(row).value,
        )
        writer.writerow([csv_cell(cells[name] if cells[name] is not None else "") for name in ATTEMPT_COLUMNS])
    return buffer.getvalue()

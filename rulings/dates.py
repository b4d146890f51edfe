"""Dates as documents and users write them: ``11/27/00`` (M/D/YY) and ``2000-11-27``.

One rule for two-digit years (70-99 are 19xx, the rest 20xx), used by the Current Rulings
parser for the dates its documents print and by every command and page for the dates a
user gives (`parse_date`, which raises `BadDate`).
"""

from __future__ import annotations

import datetime as dt
import re

from rulings.errors import BadDate as BadDate

US_DATE_TEXT = r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})"
"""An M/D/YY or M/D/YYYY date as a regular expression's text (month, day and year groups)."""
US_DATE = re.compile(rf"\b{US_DATE_TEXT}\b")
"""``M/D/YY`` or ``M/D/YYYY``."""
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_us_date(text: str) -> dt.date | None:
    """The first ``M/D/YY`` date in ``text`` (``11/27/00``), if any is a real date."""
    match = US_DATE.search(text)
    if not match:
        return None
    month, day, year = (int(g) for g in match.groups())
    if year < 100:
        year += 1900 if year >= 70 else 2000
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def parse_date(text: str | None) -> dt.date:
    """``YYYY-MM-DD`` or ``M/D/YY`` as a date; today when None. Anything else is a `BadDate`."""
    if text is None:
        return dt.date.today()
    value = text.strip()
    day = parse_us_date(value) if US_DATE.fullmatch(value) else None
    if day is not None:
        return day
    if _ISO_DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise BadDate(f"{text!r} is not a date (expected YYYY-MM-DD, e.g. 2000-11-27)")

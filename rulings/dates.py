"""Dates as documents and users write them: ``11/27/00`` (M/D/YY) and ``2000-11-27``.

One rule for two-digit years (70-99 are 19xx, the rest 20xx), used by the Current Rulings
parser for the dates its documents print. Every command and page takes a date a user gives in
one form, ``YYYY-MM-DD`` (`parse_date`, which raises `BadDate`): ``02/01/2000`` is refused,
naming both days it could be.
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
_TITLE_DATE = re.compile(
    r"^.{0,60}?\b(?:CURRENT RULINGS(?: DOCUMENT)?|GLOSSARY|RULEBOOK)\s*\((?P<date>\d{1,2} [A-Z][a-z]+ \d{4})\)",
    re.IGNORECASE,
)


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


def title_date(text: str) -> dt.date | None:
    """The day a title states in words in parentheses after the document's name
    (``First Edition Current Rulings Document (11 June 2010)``), if ``text`` starts so."""
    match = _TITLE_DATE.match(text.strip())
    if not match:
        return None
    try:
        return dt.datetime.strptime(match["date"], "%d %B %Y").date()
    except ValueError:
        return None


def parse_date(text: str | None) -> dt.date:
    """``YYYY-MM-DD`` as a date; today when None. Anything else is a `BadDate`: a date written
    with slashes too (``02/01/2000`` is February 1 to one reader and January 2 to another), the
    message naming what it could be in the one form every command and page takes."""
    if text is None:
        return dt.date.today()
    value = text.strip()
    if _ISO_DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    if US_DATE.fullmatch(value):
        readings = _readings(value)
        if readings:
            said = " or ".join(d.isoformat() for d in readings)
            raise BadDate(f"{text!r}: dates are written YYYY-MM-DD here ({said}?), never with slashes")
    raise BadDate(f"{text!r} is not a date (expected YYYY-MM-DD, e.g. 2000-11-27)")


def _readings(value: str) -> list[dt.date]:
    """The days a slashed date can be: month first and day first, each if a real date."""
    first, second, year = (int(g) for g in value.split("/"))
    if year < 100:
        year += 1900 if year >= 70 else 2000
    found = []
    for month, day in ((first, second), (second, first)):
        try:
            found.append(dt.date(year, month, day))
        except ValueError:
            continue
    return list(dict.fromkeys(found))

"""Forum and site chrome: the furniture around a reposted or published document.

Recognises post title lines (``Title ... Author ... 11.28-10:38``, ``Written by X at 06
December 2001 18:48:27:``), navigation words and bars ("RESPOND TO THE ABOVE", ``a | b |
c``, "side navigation"), a Google Groups post header, and copyright notices, so they are
kept apart from the rules. Chrome is what stands where chrome stands: a copyright notice
is a line that *is* one (``TM & (c) 1996-2000 Decipher Inc. All Rights Reserved.``), never
a line that merely contains ``(c)`` or a ``©`` (``Choose one: (a) ..., or (c) score 5
points.``, or ``cafÃ©`` decoded twice).
"""

from __future__ import annotations

import re

_NAVIGATION = re.compile(
    r"^(?:DOWN|UP|TOP|NAVIGATOR|MAP|NEXT|PREVIOUS|BACK|HOME|REPLY|"
    r"RESPOND TO THE ABOVE|TERMS AND USAGE|(?:[A-Z ]+\|)+[A-Z ]+)$"
)
_SITE_NAVIGATION = re.compile(r"^(?:main|(?:[a-z ]*\bnavigation\b)+)$", re.IGNORECASE)
"""A site's navigation images read as words: ``main``, ``side navigation``."""
_NAVIGATION_BAR = re.compile(r"^[A-Za-z][\w ,&'-]{0,40}(?: \| [A-Za-z][\w ,&'-]{0,40}){2,}$")
"""A bar of three or more links: ``Missions and the Spaceline | Dilemmas | Artifacts``."""
_POST_TITLE = re.compile(r"^(?P<title>.+?) \.\.\. (?P<author>[^.]+?) \.\.\. (?P<time>\d\d?\.\d\d?-\d\d?:\d\d)$")
_WRITTEN_BY = re.compile(
    r"^Written by (?P<author>.{1,80}?) at (?P<time>\d\d? [A-Z][a-z]+ \d{4} \d\d?:\d\d(?::\d\d)?):?$"
)
_MARK = r"(?:\u00a9|\(c\)|copyright\b)"
_COPYRIGHT = re.compile(
    rf"^(?:(?:TM|\u2122|\u00ae|\(R\)|\(TM\)|&|and|,)\s*)*{_MARK}\s*(?:{_MARK}\s*)?(?:\d{{4}}|by\s+(?-i:[A-Z\d]))",
    re.IGNORECASE,
)
"""A copyright notice starts with its mark and a year (or "by" and a name): ``TM & © 1996-2000 Decipher Inc. ...``,
``Copyright by Decipher``; never ``(c) by placing a personnel ...``, option (c) of a ruling."""
_RESERVED = re.compile(r"^All rights reserved\.?$", re.IGNORECASE)
_GROUPS_SKIP = re.compile(r"^Skip to first unread message$", re.IGNORECASE)
_GROUPS_CHROME = re.compile(
    r"^(?:\d[\d,]* views?|unread,?|to|Skip to first unread message|"
    r"[A-Z][a-z]{2} \d\d?, \d{4}, \d\d?:\d\d:\d\d\s*[AP]M.{0,20})$"
)
"""Google Groups furniture around a post: views, "unread,", "to", the post's time stamp."""
MAX_CHROME = 200
"""Longest line taken for a copyright notice."""


def is_copyright(text: str) -> bool:
    """Whether a line is a copyright notice of its own (not a line that mentions ``(c)``)."""
    line = text.strip()
    return len(line) < MAX_CHROME and bool(_COPYRIGHT.match(line) or _RESERVED.match(line))


def is_chrome(text: str) -> bool:
    """Whether a line is forum or site furniture rather than document text."""
    line = text.strip()
    return bool(
        _NAVIGATION.match(line)
        or _SITE_NAVIGATION.match(line)
        or _NAVIGATION_BAR.match(line)
        or post_title(line)
        or is_copyright(line)
    )


def post_title(text: str) -> tuple[str, str, str] | None:
    """A post's title line as (title, author, time), else None."""
    line = text.strip()
    match = _POST_TITLE.match(line)
    if match:
        return (match["title"], match["author"], match["time"])
    written = _WRITTEN_BY.match(line)
    return ("", written["author"], written["time"]) if written else None


def groups_header(lines: list[tuple[int, str]]) -> tuple[list[int], str]:
    """A Google Groups post header at the start of ``lines``: its line numbers and the author.

    The header is the post's subject, ``2 views``, ``Skip to first unread message``, the
    author's name, ``unread,``, the time stamp and ``to``; nothing when the lines have no
    "Skip to first unread message".
    """
    skip = next((k for k, (_, t) in enumerate(lines[:6]) if _GROUPS_SKIP.match(t.strip())), None)
    if skip is None:
        return [], ""
    numbers = [n for n, _ in lines[:skip]]
    author = ""
    for number, text in lines[skip:]:
        line = text.strip()
        if _GROUPS_CHROME.match(line):
            numbers.append(number)
            if line == "to":
                break
        elif not author and len(line) <= 60:
            author = line
            numbers.append(number)
        else:
            break
    return numbers, author


_LETTER_RANGE = re.compile(r"^[A-Z]{2,3}$")
LETTER_RUN = 3
"""How many letter-range lines in a row (``ABC``, ``DEF``, ``GHI``) make a site's letter index."""


def letter_ranges(lines: list[tuple[int, str]]) -> set[int]:
    """The lines of a site's letter index written one range a line (``ABC`` / ``DEF`` / ... / ``XYZ``):
    `LETTER_RUN` or more such lines in a row; a lone ``ABC`` is text."""
    found: set[int] = set()
    run: list[int] = []
    for number, text in [*lines, (0, "")]:
        if _LETTER_RANGE.match(text.strip()):
            run.append(number)
            continue
        if len(run) >= LETTER_RUN:
            found.update(run)
        run = []
    return found

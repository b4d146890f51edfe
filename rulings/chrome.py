"""Forum chrome: the message-board furniture around a reposted document.

Recognises post title lines (``Title ... Author ... 11.28-10:38``), navigation words,
"RESPOND TO THE ABOVE", and copyright lines, so they are kept apart from the rules.
"""

from __future__ import annotations

import re

_NAVIGATION = re.compile(
    r"^(?:DOWN|UP|TOP|NAVIGATOR|MAP|NEXT|PREVIOUS|BACK|HOME|REPLY|"
    r"RESPOND TO THE ABOVE|TERMS AND USAGE|(?:[A-Z ]+\|)+[A-Z ]+)$"
)
_POST_TITLE = re.compile(r"^(?P<title>.+?) \.\.\. (?P<author>[^.]+?) \.\.\. (?P<time>\d\d?\.\d\d?-\d\d?:\d\d)$")
_COPYRIGHT = re.compile(r"(?:\u00a9|\(c\)|copyright|all rights reserved)", re.IGNORECASE)


def is_chrome(text: str) -> bool:
    """Whether a line is forum furniture rather than document text."""
    line = text.strip()
    return bool(_NAVIGATION.match(line) or _POST_TITLE.match(line) or (_COPYRIGHT.search(line) and len(line) < 200))


def post_title(text: str) -> tuple[str, str, str] | None:
    """A post's title line as (title, author, time), else None."""
    match = _POST_TITLE.match(text.strip())
    return (match["title"], match["author"], match["time"]) if match else None

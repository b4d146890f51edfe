"""Downloads for ``rulings update``: one GET at a time through `requests`, bounded in time and size.

`requests` (on urllib3) is the HTTP client: it follows redirects, speaks HTTPS with the system's
certificates, and raises on a body shorter than its ``Content-Length`` (a truncated download);
this module adds what a library follower needs on top: a conditional request (``If-None-Match``,
``If-Modified-Since`` from what the last download answered, `Fetched.etag`), a limit on the bytes
read (`LIMIT`) and on the whole download's time (`TIMEOUT`, not only between two packets), and
every failure as one `FetchError` line naming the address and the reason, never a traceback.
The links of a publisher's page are read with the standard library's HTML parser (`links_of`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin

from kb.errors import FetchError
from rulings.source import MAX_BYTES

TIMEOUT = 60.0
"""Seconds a whole download may take (connecting, and each wait for data, too)."""
LIMIT = MAX_BYTES
"""The most bytes read of one answer: a larger document is one no parser would read either."""
AGENT = "rulings-update (a rules library follower)"
"""The ``User-Agent`` sent."""


@dataclass(frozen=True)
class Fetched:
    """What one GET answered."""

    url: str
    """The address answered (after redirects)."""
    body: bytes
    """The body (empty when ``unchanged``)."""
    unchanged: bool = False
    """The server said the document is unchanged since the validators sent (HTTP 304)."""
    etag: str = ""
    last_modified: str = ""
    content_type: str = ""


def fetch(url: str, etag: str = "", last_modified: str = "", timeout: float = TIMEOUT, limit: int = LIMIT) -> Fetched:
    """GET ``url`` (conditionally when ``etag`` or ``last_modified`` is given); a `FetchError` on a
    refused or dropped connection, a timeout, an HTTP error, a body over ``limit`` bytes or shorter
    than announced."""
    import requests  # here: only `rulings update` needs it

    headers = {"User-Agent": AGENT}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    deadline = time.monotonic() + timeout
    try:
        with requests.get(url, headers=headers, timeout=(min(timeout, 10.0), timeout), stream=True) as answer:
            if answer.status_code == 304:
                return Fetched(answer.url, b"", True, etag, last_modified)
            if answer.status_code >= 400:
                raise FetchError(f"{url}: HTTP {answer.status_code} {answer.reason or ''}".rstrip())
            announced = answer.headers.get("Content-Length", "")
            if announced.isdigit() and int(announced) > limit:
                raise FetchError(f"{url}: {int(announced):,} bytes announced, more than the {limit:,} read")
            chunks: list[bytes] = []
            size = 0
            for chunk in answer.iter_content(65536):
                size += len(chunk)
                if size > limit:
                    raise FetchError(f"{url}: more than {limit:,} bytes; refused")
                if time.monotonic() > deadline:
                    raise FetchError(f"{url}: timed out after {timeout:g} s")
                chunks.append(chunk)
            body = b"".join(chunks)
            if announced.isdigit() and int(announced) != len(body) and "Content-Encoding" not in answer.headers:
                raise FetchError(f"{url}: truncated: {len(body):,} of the {int(announced):,} bytes announced")
            return Fetched(
                answer.url,
                body,
                False,
                answer.headers.get("ETag", ""),
                answer.headers.get("Last-Modified", ""),
                answer.headers.get("Content-Type", ""),
            )
    except requests.Timeout:
        raise FetchError(f"{url}: timed out after {timeout:g} s") from None
    except requests.ConnectionError as err:  # a read that timed out within the body comes as one too
        if "timed out" in str(err).lower():
            raise FetchError(f"{url}: timed out after {timeout:g} s") from None
        raise FetchError(f"{url}: {_reason(err)}") from None
    except requests.RequestException as err:
        raise FetchError(f"{url}: {_reason(err)}") from None


def _reason(error: BaseException) -> str:
    """The innermost cause of a requests error, in a few words (connection refused, truncated...)."""
    text = " ".join(str(error).split())
    for words, said in (
        ("Connection refused", "connection refused"),
        ("IncompleteRead", "truncated: the connection closed before the whole document came"),
        ("Connection broken", "truncated: the connection closed before the whole document came"),
        ("Name or service not known", "no such host"),
        ("Temporary failure in name resolution", "no such host (or no network)"),
        ("Invalid URL", "not a valid address"),
    ):
        if words in text:
            return said
    return text[:200] or type(error).__name__


class _Links(HTMLParser):
    """The ``href`` of every ``<a>`` of a page, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.found += [value for name, value in attrs if name == "href" and value]


def links_of(page: Fetched) -> list[str]:
    """The absolute addresses a page links to, each once, in the page's order (fragments dropped)."""
    reader = _Links()
    reader.feed(page.body.decode(_charset(page.content_type), errors="replace"))
    reader.close()
    return list(dict.fromkeys(urldefrag(urljoin(page.url, href.strip())).url for href in reader.found))


def _charset(content_type: str) -> str:
    for part in content_type.split(";")[1:]:
        name, _, value = part.strip().partition("=")
        if name.lower() == "charset" and value:
            try:
                "".encode(value.strip("\"'"))
                return value.strip("\"'")
            except LookupError:
                break
    return "utf-8"

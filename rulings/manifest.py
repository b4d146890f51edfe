"""The library manifest (``library.toml``): which documents exist, and what they are.

`load_manifest` refuses a malformed manifest with one `ManifestError` line that names
the table and the key: a missing key, an unknown kind, a bad date, a missing file, two
documents with one id, a ``supersedes`` naming no document, a top-level ``game`` (the
library's default game, `load_default_game`) naming no game of it (a ``date`` may be left out
only for a kind whose text states its date, `DATED_BY_TEXT`), and every table or key the manifest
does not know (``[[documnet]]``, ``[[releases]]``, ``tittle = ...``), named with its line and the
nearest known name: a mistyped table would otherwise drop a whole document silently. ``[[cards]]`` tables
name the card catalogs the library keeps (`load_card_files`: Lackey files that ``rulings build --cards``
copied into it), which every build imports. ``part = "M-O"`` says a
document is one part of an edition (a page per letter range or subject). A manifest that is not a
regular file, is over `MAX_MANIFEST` bytes, is not UTF-8 (a BOM is accepted), holds a
NUL byte or nests too deeply is refused in one line too, naming the line where it can.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from rulings.errors import ManifestError as ManifestError
from rulings.kinds import names as kind_names
from rulings.model import Document
from rulings.source import BOM, line_of, read_bounded

MANIFEST = "library.toml"
"""The manifest's file name inside a library directory."""

MAX_MANIFEST = 10_000_000
"""Largest manifest or titles file accepted, in bytes (a 1,000-document manifest is about 250 kB)."""

REQUIRED = ("id", "file", "game", "kind", "title", "version", "date")
OPTIONAL = ("date_approximate", "supersedes", "note", "part", "accept_unread", "force_contradiction", "url")
DATED_BY_TEXT = ("comprehensive-rules",)
"""Kinds whose text states its effective date: for them the manifest's ``date`` may be left out."""
TOP_LEVEL_KEYS = ("game",)
"""Keys of the manifest outside any table: ``game``, the library's default game (`load_default_game`)."""
TABLES = ("document", "release", "source", "cards")
"""The manifest's tables, each an array of tables (``[[document]]``, ``[[release]]``, ``[[source]]``,
``[[cards]]``)."""
RELEASE_KEYS = ("name", "date")
SOURCE_KEYS = ("game", "kind", "url", "title", "links")
"""The keys of a ``[[source]]`` table (`load_sources`): ``game``, ``kind`` and ``url`` required."""
CARDS_KEYS = ("file", "note")
CARDS_FOLDER = "cards"
"""Where in the library ``rulings build --cards`` keeps the card files it imports."""
_KEYS = {"document": REQUIRED + OPTIONAL, "release": RELEASE_KEYS, "source": SOURCE_KEYS, "cards": CARDS_KEYS}
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _date(value: object, where: str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and _ISO.match(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise ManifestError(f"{where}: key 'date': {value!r} is not a date (expected YYYY-MM-DD)")


def _nearest(name: str, known: tuple[str, ...]) -> str | None:
    close = difflib.get_close_matches(name.lower(), known, n=1, cutoff=0.6)
    return close[0] if close else None


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]#]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*[.=]""")


def line_of_key(text: str, table: str | None, index: int, key: str | None) -> int | None:
    """The line (from 1) of the ``index``-th (from 1) ``[[table]]`` header of a TOML ``text``, or of
    ``key`` in it (``table`` None: a key before any table); None when the layout is too unusual to tell."""
    current: str | None = None
    count = 0
    quotes: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if quotes is not None:
            if line.count(quotes) % 2:
                quotes = None
            continue
        header = _HEADER.match(line)
        if header:
            current = header.group(2).strip().strip("\"'")
            count = count + 1 if current == table else count
            if key is None and current == table and count == index:
                return number
            continue
        found = _KEY.match(line)
        here = current == table and (table is None or count == index)
        if found and here and found.group(1).strip("\"'") == key:
            return number
        for mark in ('"""', "'''"):
            if line.count(mark) % 2:
                quotes = mark
                break
    return None


def _on_line(text: str, table: str | None, index: int, key: str | None) -> str:
    line = line_of_key(text, table, index, key)
    return f" on line {line}" if line else ""


def check_names(data: dict[str, object], text: str, where: str) -> None:
    """Refuse the first table or key of a parsed manifest that the manifest does not know, naming
    its line and the nearest known name."""
    for name, value in data.items():
        if name in TABLES:
            if not isinstance(value, list):
                line = line_of_key(text, name, 1, None) or line_of_key(text, None, 1, name)
                at = f"line {line}: " if line else ""
                raise ManifestError(f"{where}: {at}'{name}' must be [[{name}]] tables (written with double brackets)")
            keys = _KEYS[name]
            for index, table in enumerate(value, start=1):
                unknown = [k for k in table if k not in keys] if isinstance(table, dict) else []
                if unknown:
                    label = f"[[{name}]] #{index}"
                    if isinstance(table, dict) and isinstance(table.get("id"), str):
                        label += f" (id {table['id']!r})"
                    near = _nearest(unknown[0], keys)
                    hint = f"; did you mean '{near}'?" if near else ""
                    raise ManifestError(
                        f"{where}: {label}: unknown key '{unknown[0]}'{_on_line(text, name, index, unknown[0])}"
                        f"{hint} (expected {', '.join(keys)})"
                    )
            continue
        if name in TOP_LEVEL_KEYS:
            continue
        near = _nearest(name, TABLES)
        hint = f"; did you mean [[{near}]]?" if near else ""
        if isinstance(value, list) and value and all(isinstance(t, dict) for t in value):
            line = line_of_key(text, name, 1, None)
            what = f"unknown table [[{name}]]"
        elif isinstance(value, dict):
            line = line_of_key(text, name, 1, None) or line_of_key(text, None, 1, name)
            what = f"unknown table [{name}]"
        else:
            line = line_of_key(text, None, 1, name)
            what = f"unknown key '{name}' outside any table"
        at = f"line {line}: " if line else ""
        raise ManifestError(
            f"{where}: {at}{what}{hint} "
            "(the manifest holds [[document]], [[release]], [[source]] and [[cards]] tables and a 'game' key)"
        )


def _document(table: dict[str, object], where: str, library: Path) -> Document:
    for key in REQUIRED:
        if key == "date" and table.get("kind") in DATED_BY_TEXT:
            continue
        if key not in table:
            raise ManifestError(f"{where}: missing key '{key}'")
    for key in ("id", "file", "game", "kind", "title", "version", "note", "supersedes", "part", "url"):
        if key in table and not isinstance(table[key], str):
            raise ManifestError(f"{where}: key '{key}' must be a string")
    ident, game, kind = str(table["id"]), str(table["game"]), str(table["kind"])
    for key, value in (("id", ident), ("game", game)):
        if not SLUG.match(value):
            raise ManifestError(f"{where}: key '{key}': {value!r} must be lower-case letters, digits and '-'")
    if kind not in kind_names():
        raise ManifestError(f"{where}: key 'kind': unknown kind {kind!r} (expected one of {', '.join(kind_names())})")
    for flag in ("date_approximate", "accept_unread", "force_contradiction"):
        if not isinstance(table.get(flag, False), bool):
            raise ManifestError(f"{where}: key '{flag}' must be true or false")
    approximate, unread = bool(table.get("date_approximate", False)), table.get("accept_unread", False)
    path = _file(library, str(table["file"]), where)
    return Document(
        id=ident,
        path=str(path),
        game=game,
        kind=kind,
        title=str(table["title"]),
        version=str(table["version"]),
        date=_date(table["date"], where) if "date" in table else None,
        date_approximate=bool(approximate),
        supersedes=str(table["supersedes"]) if "supersedes" in table else None,
        note=str(table.get("note", "")),
        part=str(table.get("part", "")).strip(),
        accept_unread=bool(unread),
        force_contradiction=bool(table.get("force_contradiction", False)),
        url=str(table.get("url", "")),
    )


def _file(library: Path, name: str, where: str) -> Path:
    """The regular file ``name`` (a ``file`` key) names inside ``library``, resolved."""
    if "\x00" in name:
        raise ManifestError(f"{where}: key 'file': {name!r} contains a NUL character")
    try:
        path = (library / name).resolve()
        inside = path.is_relative_to(library.resolve())
        exists, regular = path.exists(), path.is_file()
    except (OSError, ValueError, RuntimeError) as err:
        raise ManifestError(f"{where}: key 'file': {name!r} is not a usable path ({_one_line(err)})") from None
    if not inside:
        raise ManifestError(f"{where}: key 'file': {name!r} is outside the library")
    if not exists:
        raise ManifestError(f"{where}: key 'file': no such file {name!r}")
    if not regular:
        raise ManifestError(f"{where}: key 'file': {name!r} is not a regular file")
    return path


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _text(path: Path, what: str) -> str:
    """The UTF-8 text of a manifest or titles file (BOM dropped), refused in one line when it is not."""
    where = str(path)
    try:
        data = read_bounded(path, MAX_MANIFEST)
    except ValueError as err:
        raise ManifestError(f"{where}: {err}") from None
    except OSError as err:
        raise ManifestError(f"{where}: cannot read the {what}: {err.strerror or _one_line(err)}") from None
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ManifestError(f"{where}: line {line_of(data, nul)}: NUL byte; the {what} must be plain text")
    body = data.removeprefix(BOM)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as err:
        line = line_of(body, err.start)
        raise ManifestError(
            f"{where}: line {line}: byte 0x{body[err.start]:02x} is not UTF-8; save the {what} as UTF-8"
        ) from None


def _read(path: Path) -> dict[str, object]:
    where = str(path)
    if not path.exists() and not path.is_symlink():
        raise ManifestError(f"{where}: no manifest (expected {MANIFEST} in the library)")
    text = _text(path, "manifest")
    import tomllib  # here: a search, which reads no manifest, does not load the TOML parser

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise ManifestError(f"{where}: not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as err:  # TOMLDecodeError, and an integer of too many digits
        raise ManifestError(f"{where}: not valid TOML: {_one_line(err)}") from None
    check_names(data, text, where)
    return data


def load_releases(library: str | Path) -> dict[str, dt.date]:
    """Expansion release dates from the manifest's ``[[release]]`` tables (name, date)."""
    path = Path(library) / MANIFEST
    tables = _read(path).get("release", [])
    if not isinstance(tables, list):
        raise ManifestError(f"{path}: 'release' must be [[release]] tables")
    releases: dict[str, dt.date] = {}
    for index, table in enumerate(tables, start=1):
        where = f"{path}: [[release]] #{index}"
        if not isinstance(table, dict) or not isinstance(table.get("name"), str):
            raise ManifestError(f"{where}: missing key 'name'")
        if "date" not in table:
            raise ManifestError(f"{where}: missing key 'date'")
        releases[table["name"]] = _date(table["date"], where)
    return releases


def load_card_files(library: str | Path) -> list[Path]:
    """The card files the library keeps (its ``[[cards]]`` tables' ``file``, inside the library), in
    manifest order: every build imports them."""
    root = Path(library)
    path = root / MANIFEST
    found: list[Path] = []
    tables = _read(path).get("cards", [])
    for index, table in enumerate(tables if isinstance(tables, list) else [], start=1):  # `check_names`: a list
        where = f"{path}: [[cards]] #{index}"
        if not isinstance(table, dict) or not isinstance(table.get("file"), str):
            raise ManifestError(f"{where}: missing key 'file' (a string)")
        found.append(_file(root, table["file"], where))
    return found


def load_default_game(library: str | Path) -> str | None:
    """The library's default game: the manifest's top-level ``game = "stccg"`` (None when absent),
    refused when it is not a game of the library's documents."""
    path = Path(library) / MANIFEST
    value = _read(path).get(TOP_LEVEL_KEYS[0])
    if value is None:
        return None
    games = sorted({d.game for d in load_manifest(library)})
    if not isinstance(value, str) or value not in games:
        raise ManifestError(f"{path}: key 'game': {value!r} is not a game of the documents ({', '.join(games)})")
    return value


def load_manifest(library: str | Path) -> list[Document]:
    """The documents of the library at ``library``, in manifest order."""
    root = Path(library)
    path = root / MANIFEST
    where = str(path)
    data = _read(path)
    tables = data.get("document")
    if tables is None and data.get("source"):
        return []  # a library that only follows sources so far: `rulings update` brings its documents
    if not isinstance(tables, list) or not tables:
        raise ManifestError(f"{where}: no [[document]] tables")
    documents: list[Document] = []
    seen: dict[str, int] = {}
    for index, table in enumerate(tables, start=1):
        label = f"{where}: [[document]] #{index}"
        if isinstance(table, dict) and isinstance(table.get("id"), str):
            label += f" (id {table['id']!r})"
        if not isinstance(table, dict):
            raise ManifestError(f"{label}: not a table")
        document = _document(table, label, root)
        if document.id in seen:
            raise ManifestError(
                f"{label}: key 'id': {document.id!r} is also the id of [[document]] #{seen[document.id]}"
            )
        seen[document.id] = index
        documents.append(document)
    for index, document in enumerate(documents, start=1):
        if document.supersedes and document.supersedes not in seen:
            raise ManifestError(
                f"{where}: [[document]] #{index} (id {document.id!r}): "
                f"key 'supersedes': no document {document.supersedes!r}"
            )
    return documents


def load_titles(library: str | Path, game: str) -> frozenset[str]:
    """Card titles the library supplies for ``game`` (``titles/<game>.txt``), if any."""
    path = Path(library) / "titles" / f"{game}.txt"
    if not path.exists():
        return frozenset()
    lines = _text(path, "titles file").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


@dataclass(frozen=True)
class Source:
    """A publisher's page the library follows (a ``[[source]]`` table): ``rulings update`` reads
    ``url`` and brings in each document it links (whose link target ``links`` matches) or, with no
    ``links``, the document ``url`` is."""

    game: str
    kind: str
    url: str
    title: str = ""
    links: str = ""
    """A regular expression searched in each link target of the page; empty: ``url`` is the document."""


def load_sources(library: str | Path) -> list[Source]:
    """The ``[[source]]`` tables of the library's manifest, in order, each checked: a game slug,
    a known kind, an http(s) URL, a regular expression that compiles."""
    path = Path(library) / MANIFEST
    tables = _read(path).get("source", [])
    sources: list[Source] = []
    for index, table in enumerate(tables if isinstance(tables, list) else [], start=1):
        where = f"{path}: [[source]] #{index}"
        if not isinstance(table, dict):
            raise ManifestError(f"{where}: not a table")
        for key in SOURCE_KEYS:
            if key in ("game", "kind", "url") and key not in table:
                raise ManifestError(f"{where}: missing key '{key}'")
            if key in table and not isinstance(table[key], str):
                raise ManifestError(f"{where}: key '{key}' must be a string")
        source = Source(**{k: str(v) for k, v in table.items()})
        if not SLUG.match(source.game):
            raise ManifestError(f"{where}: key 'game': {source.game!r} must be lower-case letters, digits and '-'")
        if source.kind not in kind_names():
            known = ", ".join(kind_names())
            raise ManifestError(f"{where}: key 'kind': unknown kind {source.kind!r} (expected one of {known})")
        if not re.match(r"^https?://[^\s/]+", source.url):
            raise ManifestError(f"{where}: key 'url': {source.url!r} is not an http:// or https:// address")
        try:
            re.compile(source.links)
        except re.error as err:
            raise ManifestError(f"{where}: key 'links': {source.links!r} is not a regular expression ({err})") from None
        sources.append(source)
    return sources

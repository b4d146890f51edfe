"""The commands that follow publishers: ``rulings follow GAME`` (a library follows the game's
publisher), ``rulings update`` (every new release brought in, with what it changed) and
``rulings games`` (the games of a knowledge base, their current release and their sources).

The sources the program knows are shipped in ``data/sources/<game>.toml`` (`SHIPPED`), one
``[[source]]`` table each; ``follow`` copies them into a library's manifest, where a user may
change them (``--url`` gives another address at once).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import Any

from kb import files
from kb.errors import BuildError
from kb.paths import BUNDLED_LIBRARY, WAIT, current
from kb.query import KnowledgeBase
from rulings.manifest import MANIFEST, Source, load_manifest, load_sources
from web.cli.answers import print_json

SHIPPED = BUNDLED_LIBRARY / "sources"
"""The sources the program knows, a file per game (``mtg.toml``, ``lorcana.toml``...)."""


def shipped(game: str) -> list[dict[str, str]]:
    """The ``[[source]]`` tables shipped for ``game``; a `BuildError` naming the games known."""
    path = SHIPPED / f"{game}.toml"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in SHIPPED.glob("*.toml")))
        raise BuildError(f"no sources known for the game {game!r} (known: {known}); add a [[source]] table by hand")
    tables: list[dict[str, str]] = tomllib.loads(path.read_text(encoding="utf-8"))["source"]
    return tables


def cmd_follow(args: argparse.Namespace) -> int:
    """``rulings follow GAME --library DIR``: add the game's shipped sources to the library's
    manifest (making the library if it does not exist)."""
    from kb.ingest.manifest_file import toml_string

    library = Path(args.library)
    if library.resolve() == BUNDLED_LIBRARY.resolve():
        raise BuildError(
            f"{library}: the bundled library is part of the program; pass --library DIR, a folder of yours"
        )
    tables: list[dict[str, str]] = shipped(args.game)
    if args.url:
        if len(tables) != 1:
            raise BuildError(f"--url: the game {args.game!r} has {len(tables)} sources; edit them in {MANIFEST}")
        tables = [{**tables[0], "url": args.url}]
    library.mkdir(parents=True, exist_ok=True)
    manifest = library / MANIFEST
    with files.hold(library.resolve(), WAIT, f"follow on {library}"):
        before = manifest.read_bytes() if manifest.exists() else b""
        followed = {s.url for s in load_sources(library)} if before else set()
        added = [t for t in tables if t["url"] not in followed]
        text = "".join(
            "\n[[source]]\n" + "".join(f"{key} = {toml_string(value)}\n" for key, value in table.items())
            for table in added
        )
        if added:
            files.write_atomic(manifest, before + text.encode("utf-8"))
            load_sources(library)  # what was written reads back
    for table in tables:
        said = "follows" if table in added else "already follows"
        print(f"{library / MANIFEST} {said} {table['game']} {table['kind']}: {table['url']}")
    if added:
        print(f"next: rulings update --library {library}")
    return 0


def cmd_update(args: argparse.Namespace) -> int:
    """``rulings update``: each source read, each new document added; per source, what it added
    and what each changed, or its error (one line on standard error; exit status 1)."""
    from kb.ingest.following import update

    outcomes = update(Path(args.library), Path(args.kb), args.game, args.timeout, wait=args.wait, notify=_notify)
    changes = _changes(Path(args.kb), [a.id for o in outcomes for a in o.added])
    rows: list[dict[str, Any]] = [
        {
            "url": o.source.url,
            "game": o.source.game,
            "kind": o.source.kind,
            "added": [
                {"id": a.id, "date": a.date.isoformat(), "title": a.title, "url": a.url, "changes": changes[a.id]}
                for a in o.added
            ],
            "error": o.error or None,
        }
        for o in outcomes
    ]
    for outcome in outcomes:
        if outcome.error:
            print(f"rulings: error: {outcome.error}", file=sys.stderr)
    if args.json:
        print_json({"sources": rows})
    else:
        for row in rows:
            print(f"{row['game']} {row['kind']} {row['url']}")
            if row["error"]:
                print("  not read (the error above); nothing of it changed")
            elif not row["added"]:
                print("  nothing new")
            for added in row["added"]:
                counts = added["changes"]
                print(
                    f"  + {added['id']} ({added['date']}): {counts['added']} added, {counts['changed']} changed, "
                    f"{counts['rescinded']} rescinded"
                )
    return 1 if any(o.error for o in outcomes) else 0


def _changes(kb: Path, documents: list[str]) -> dict[str, dict[str, int]]:
    """What each added document changed: the topics added, changed and rescinded over its range."""
    if not documents:
        return {}
    found: dict[str, dict[str, int]] = {}
    with KnowledgeBase(current(kb)) as base:
        for document in documents:
            span = base.document_range(document)
            counts: dict[str, Any] = {}
            if span:
                start, end, facts = span
                counts = base.diff(start, end, game=facts["game"])["counts"]
            found[document] = {key: int(counts.get(key, 0)) for key in ("added", "changed", "rescinded")}
    return found


def cmd_games(args: argparse.Namespace) -> int:
    """``rulings games``: each game of the knowledge base, its current release, its sources."""
    with KnowledgeBase(current(Path(args.kb))) as base:
        games: list[dict[str, Any]] = []
        for game in base.games():
            dated = base.dated_documents(game)
            latest = dated[-1] if dated else None
            games.append({"game": game, "documents": len(dated), "current": latest, "sources": []})
    sources = _library_sources(Path(args.library))
    for row in games:
        row["sources"] = [{"url": s.url, "kind": s.kind, "title": s.title} for s in sources if s.game == row["game"]]
    if args.json:
        print_json({"games": games})
        return 0
    for row in games:
        latest = row["current"]
        version = f" {latest['version']}" if latest and latest["version"] != latest["date"] else ""
        release = f"{latest['title']}{version} ({latest['date']})" if latest else "no dated document"
        print(f"{row['game']}: {row['documents']} dated documents; current: {release}")
        for source in row["sources"]:
            print(f"  follows {source['kind']}: {source['url']}")
    return 0


def _library_sources(library: Path) -> list[Source]:
    """The library's sources, or none when it has no manifest (a knowledge base built elsewhere)."""
    if not (library / MANIFEST).is_file():
        return []
    load_manifest(library)  # a manifest that does not read says so
    return load_sources(library)


def _notify(line: str) -> None:
    print(f"rulings: {line}", file=sys.stderr, flush=True)

"""Bring a newly published document into a library: check, copy, register, rebuild.

`add_document` parses the file first and refuses it (with the parse report) if any line would be
lost, or when its text contradicts ``--kind`` or ``--date`` (`kb.ingest.claims`), or when, read as
its kind, it would end many versions of another series (`kb.ingest.ending`); then, holding the
library's and the KB's locks (`kb.ingest.pipeline.transaction`), refuses a text already in the
library (`kb.ingest.copies`), copies it into the library, appends its ``[[document]]`` table to the
manifest and rebuilds. The copy and the manifest are each written to a temporary file, fsynced and
renamed. If any step fails before the new knowledge base is in service, the library is put back byte
for byte: the saved manifest is renamed back, and the copied file (and the game directory) removed
if this add created them. The manifest is written only over the bytes this add read or wrote last
(`kb.ingest.manifest_file`): edited by hand meanwhile, it is left as edited (and the copy with it
when it names it), and the add says so in one line. Once the knowledge base in service is the one
built from the new manifest, the add stands whatever fails after (`kb.ingest.publish.publish`
reports such a failure as a warning). A file left in the library by an interrupted add (same bytes,
not in the manifest) is taken over by a retry.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

from kb import files
from kb.errors import BuildError
from kb.ingest import claims, ending, manifest_file
from kb.ingest.copies import refuse_copy
from kb.ingest.manifest_file import toml_string
from kb.ingest.pipeline import build_locked, transaction
from kb.ingest.publish import library_changed
from kb.ingest.reports import BuildReport, report_for
from kb.paths import WAIT
from rulings.manifest import MANIFEST, SLUG, load_manifest, load_titles
from rulings.model import Document
from rulings.parse import Coverage, parse_document
from rulings.reading import detect, refusal
from rulings.self_description import Contradiction
from rulings.source import read_source


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "document"


def _table(fields: dict[str, str | bool], where: str) -> bytes:
    lines = ["", "[[document]]"]
    for key, value in fields.items():
        try:
            lines.append(
                f"{key} = {'true' if value else 'false'}"
                if isinstance(value, bool)
                else f"{key} = {toml_string(value)}"
            )
        except ValueError as err:
            raise BuildError(f"{where}: {key}: {err}") from None
    return ("\n".join(lines) + "\n").encode("utf-8")


def add_document(
    source: Path,
    *,
    kind: str,
    date: dt.date,
    library: Path,
    kb: Path,
    game: str = "stccg",
    title: str | None = None,
    version: str | None = None,
    wait: float = WAIT,
    notify: Callable[[str], None] | None = None,
    accept_unread: bool = False,
    force: bool = False,
    url: str = "",
) -> BuildReport:
    """Add ``source`` to ``library`` as a document of ``kind`` (`detected_kind` names one) dated
    ``date``, and rebuild. A document little of which reads as its kind expects is refused, unless
    ``accept_unread`` (the manifest then says so). A kind or date its text contradicts
    (`kb.ingest.claims`) is refused unless ``force``: then each contradiction is a warning (to
    ``notify``) and the manifest entry says ``force_contradiction = true``."""
    if not SLUG.match(game):
        raise BuildError(f"--game {game!r}: must be lower-case letters, digits and '-'")
    titles = load_titles(library, game)
    document, contradicted, unread = checked(
        source, kind=kind, date=date, game=game, titles=titles, title=title, version=version,
        accept_unread=accept_unread, force=force, notify=notify,
    )  # fmt: skip
    with transaction(library, kb, wait, notify):
        changed = library_changed(library, kb)
        existing = load_manifest(library)
        manifest = library / MANIFEST
        target = library / game / source.name
        begun = next((d for d in existing if Path(d.path).resolve() == target.resolve()), None)
        if changed and begun and begun.kind == kind and target.read_bytes() == source.read_bytes():
            if notify:  # an interrupted add registered this very file: this one finishes it
                notify(f"note: {changed}: an interrupted add of {source.name} left it there; this add finishes it")
            guard = ending.guard(dataclasses.replace(document, id=begun.id), source, titles, force, notify)
            return build_locked(library, kb, guard=guard)
        try:
            refuse_copy(source, existing, library)
        except BuildError as err:
            if not changed:
                raise
            raise BuildError(f"{err}; and {changed}: 'rulings build' brings it up to date") from None
        if changed and notify:
            notify(f"warning: {changed} (an interrupted add?); this add rebuilds it")
        ident = _slug(f"{game}-{source.stem}")
        taken = {d.id for d in existing}
        while ident in taken:
            ident += "-2"
        files.remove_stale_temporaries([library, target.parent], [Path(d.path) for d in existing])
        if target.resolve() in {Path(d.path).resolve() for d in existing}:
            raise BuildError(f"{target}: a file of that name is already in the library")
        adopted = target.exists()
        if adopted and not (target.is_file() and target.read_bytes() == source.read_bytes()):
            raise BuildError(f"{target}: a file of that name, not in the manifest, is already in the library")
        before = manifest.read_bytes()
        fields: dict[str, str | bool] = {
            "id": ident,
            "file": f"{game}/{source.name}",
            "game": game,
            "kind": kind,
            "title": document.title,
            "version": document.version,
            "date": date.isoformat(),
        }
        if url:
            fields["url"] = url
        if contradicted:
            fields["force_contradiction"] = True
        if unread:
            fields["accept_unread"] = True
        table = _table(fields, str(source))
        made_directory = not target.parent.exists()
        try:
            target.parent.mkdir(exist_ok=True)
            if not adopted:
                _write(target, lambda: files.copy_atomic(source, target, step="copy"))
            files.fault("after-copy")
            manifest_file.replace(manifest, before, before + table, step="manifest")
            files.fault("after-manifest")
            guard = ending.guard(dataclasses.replace(document, id=ident), source, titles, force, notify)
            return build_locked(library, kb, guard=guard)
        except BaseException as err:
            now = manifest.read_bytes()
            if now != before and library_changed(library, kb, strict=True) is None:
                if isinstance(err, KeyboardInterrupt):  # the add stands: say so, not that nothing was done
                    raise KeyboardInterrupt(
                        f"interrupted after the add completed: {ident} is in the library and in the knowledge "
                        "base in service"
                    ) from None
                raise  # the knowledge base in service was built from the new manifest: the add stands
            edited = _edited(err, manifest, before, table, now, target)
            if now == before + table:
                manifest_file.replace(manifest, now, before)
            if not adopted and (edited is None or table not in now):
                target.unlink(missing_ok=True)
                if made_directory:
                    with contextlib.suppress(OSError):
                        target.parent.rmdir()
            if edited is None:
                raise
            if isinstance(err, KeyboardInterrupt):
                raise KeyboardInterrupt(f"interrupted; {edited}") from None
            raise BuildError(edited) from None


def _edited(err: BaseException, manifest: Path, before: bytes, table: bytes, now: bytes, target: Path) -> str | None:
    """What an add that failed (``err``) says when ``manifest`` was edited meanwhile (it holds neither the
    bytes read, ``before``, nor those this add wrote): it is left as edited, never written over, and so
    is the copy ``target`` when the edited manifest holds this add's ``table``. None when not edited."""
    if now in (before, before + table):
        return None
    if table in now:
        return (
            f"{manifest} was edited while this add ran: left as edited, with this add's [[document]] table "
            f"for {target}; 'rulings build' puts the library in service (or delete that table and file)"
        )
    failed = "" if "changed while this command ran" in str(err) else f" ({str(err) or type(err).__name__})"
    return (
        f"{target.name} not added{failed}: {manifest} was edited while this add ran, and is left as edited; "
        "run the add again"
    )


def _losing(source: Path, unparsed: list[int], coverage: Coverage) -> str:
    """The line refusing a document some of whose lines no entry holds (or that are lost or counted twice)."""
    if unparsed:
        first = ", ".join(map(str, unparsed[:3])) + (", ..." if len(unparsed) > 3 else "")
        return (
            f"{source}: refused, it would lose lines: {len(unparsed)} of its {coverage.nonblank} non-blank lines "
            f"are read as no entry (unparsed: line {first}); see 'rulings parse {source}'"
        )
    return (
        f"{source}: refused, it would lose lines: lost {list(coverage.missing)}, counted twice {list(coverage.twice)}"
    )


def checked(
    source: Path,
    *,
    kind: str,
    date: dt.date,
    game: str,
    titles: frozenset[str],
    title: str | None = None,
    version: str | None = None,
    accept_unread: bool = False,
    force: bool = False,
    notify: Callable[[str], None] | None = None,
) -> tuple[Document, list[Contradiction], str | None]:
    """What `add_document` checks before it touches the library: ``source`` parsed as a document of
    ``kind`` dated ``date``, refused (`BuildError`) if little of it reads as the kind expects (unless
    ``accept_unread``), if a line would be lost, or if its text contradicts the kind or date given
    (unless ``force``: then each contradiction is a warning to ``notify``). The document, the
    contradictions kept and the refusal ``accept_unread`` overrode."""
    document = Document(
        id=_slug(f"{game}-{source.stem}"),
        path=str(source),
        game=game,
        kind=kind,
        title=title or source.stem,
        version=version or date.isoformat(),
        date=date,
        accept_unread=accept_unread,
        force_contradiction=force,
    )
    result = parse_document(document, titles)
    unread = refusal(result)
    if unread and not accept_unread:
        raise BuildError(f"{unread} (--accept-unread keeps it)")
    report = report_for(result)
    if not report.coverage.complete or report.unparsed:
        raise BuildError(_losing(source, result.unparsed, report.coverage))
    contradicted = claims.found(result, {"kind": "--kind", "date": "--date"})
    if contradicted and not force:
        raise BuildError(
            f"{contradicted[0].message(str(source))}; correct the command, or add --force-contradiction to keep it"
        )
    for contradiction in contradicted:
        if notify:
            notify(f"warning: {contradiction.message(str(source))} (kept: --force-contradiction)")
    return document, contradicted, unread


def detected_kind(path: Path, titles: frozenset[str]) -> str:
    """The kind the detectors name for the text of ``path``, or a `BuildError` line when none is confident."""
    document = Document(id=_slug(path.stem), path=str(path), game="", kind="", title=path.stem)
    found = detect(document, read_source(path), titles)
    if found.kind is None:
        raise BuildError(found.refusal(document.path))
    return found.kind


def _write(path: Path, write: Callable[[], None]) -> None:
    try:
        write()
    except OSError as err:
        raise BuildError(f"{path}: cannot write: {err.strerror or err}") from None

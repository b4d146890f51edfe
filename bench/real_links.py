"""Precision and recall of card linking on the real published pages (``../shared/real/``).

Run: ``.venv/bin/python bench/real_links.py [--dump] [CATALOG ...]`` (default
``../shared/cards/Physical.csv`` and ``Virtual.csv``). Builds a knowledge base from a
library of the real pages (`REAL_PAGES`: each file with its kind, game and date) with those
card files in a temporary directory, and compares the cards each entry's text and "See"
references name (title and reference links; headword links are not counted) with the hand
labels of ``tests/fixtures/links/real-pages.txt``, on the entries the parsers give now (the
labelled entries of pages the parsers refuse, or that they do not give, are listed apart).
``--dump`` prints every entry's headword, text and links instead, to label from.

A label is ``file | headword | card; card``: the cards the entries of that headword in that
file name, whatever the parser cuts them into (their links are merged), so the labels hold
while the parsers change. ``file | headword @ words | ...`` labels the entries of that
headword whose text holds ``words``, or failing any, the entries holding those words.
``not: file | headword | title`` is a title the text writes but does not mean as that card.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import LinkQuality  # noqa: E402

from kb.ingest.pipeline import build  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402
from rulings.errors import ParseError  # noqa: E402
from rulings.model import Document  # noqa: E402
from rulings.normalize import fold_quotes, headword_key  # noqa: E402
from rulings.parse import coverage, parse_document  # noqa: E402

REAL = ROOT.parent / "shared" / "real"
CARDS = ROOT.parent / "shared" / "cards"
_START = re.compile(r"\s+[\u2013\u2014-]|\s{2}|(?<=[!?])\s")
"""Where a headword at a line's start ends: a dash, two spaces, after "!"/"?" (``Qapla'! In ...``)."""
LABELS = ROOT / "tests" / "fixtures" / "links" / "real-pages.txt"
REAL_PAGES = (
    ("1e-faq-missions.txt", "faq", "stccg", "1997-06-01"),
    ("1e-cr-1998-02-13-groups-repost.txt", "current-rulings", "stccg", "1998-02-13"),
    ("1e-cr-1998-10-19-web-archive.txt", "current-rulings", "stccg", "1998-10-19"),
    ("1e-cr-1999-08-30-mno.txt", "current-rulings", "stccg", "1999-08-30"),
    ("1e-glossary-1.6-intro.txt", "glossary", "stccg", "1999-10-01"),
    ("1e-glossary-yumpu-p06.txt", "glossary", "stccg", "2000-01-01"),
    ("1e-glossary-yumpu-p12.txt", "glossary", "stccg", "2000-01-01"),
    ("1e-glossary-yumpu-p18.txt", "glossary", "stccg", "2000-01-01"),
    ("1e-glossary-yumpu-p22.txt", "glossary", "stccg", "2000-01-01"),
    ("1e-cr-update-2001-12-05-forum-repost.txt", "current-rulings-update", "stccg", "2001-12-05"),
    ("1e-glossary-stccgfaq-BQT.txt", "glossary", "stccg", "2002-01-01"),
    ("1e-glossary-1.8-intro.txt", "glossary", "stccg", "2002-08-01"),
    ("2e-rulebook-1.1.txt", "rulebook", "stccg-2e", "2003-08-19"),
)
"""The real pages: file, kind, game and date (a page of an undated Glossary gets a guess)."""


def document_id(name: str) -> str:
    """The manifest id of a real page's file."""
    return name.removesuffix(".txt").lower().replace(".", "-")


def write_library(directory: Path) -> tuple[Path, list[str]]:
    """A library of the real pages in ``directory``, and why each page left out was (the
    parser of its kind refuses it, or loses lines of it)."""
    directory.mkdir(parents=True, exist_ok=True)
    tables = []
    left_out = []
    for name, kind, game, date in REAL_PAGES:
        shutil.copyfile(REAL / name, directory / name)
        page = Document(document_id(name), str(directory / name), game, kind, name, "real", dt.date.fromisoformat(date))
        try:
            complete = coverage(parse_document(page, frozenset())).complete
        except ParseError as err:
            left_out.append(f"{name}: {err}")
            continue
        if not complete:
            left_out.append(f"{name}: lines lost or counted twice")
            continue
        tables.append(
            f'[[document]]\nid = "{document_id(name)}"\nfile = "{name}"\ngame = "{game}"\nkind = "{kind}"\n'
            f'title = "{name}"\nversion = "real"\ndate = "{date}"\n'
        )
    (directory / "library.toml").write_text("\n".join(tables), encoding="utf-8")
    return directory, left_out


@dataclass
class Label:
    """The cards the entries of one headword of one file name."""

    file: str
    headword: str
    words: str
    cards: set[str]


@dataclass
class Quality(LinkQuality):
    """Counts and findings of one evaluation, with the labelled entries not counted."""

    absent: list[str] = field(default_factory=list)
    """Labelled entries the parser did not give (not counted)."""
    glued: list[str] = field(default_factory=list)
    """Labelled entries whose text the parser ran on into another labelled entry (not counted)."""
    pages_left_out: list[str] = field(default_factory=list)
    """Labelled entries of pages the parsers refuse (not counted)."""
    entries: int = 0

    def counts(self) -> str:
        return (f"{self.entries} entries: {super().counts()}; "
                f"{len(self.absent)} labelled entries not given by the parser, {len(self.glued)} run into the next, "
                f"{len(self.pages_left_out)} on pages left out")  # fmt: skip

    def findings(self) -> list[tuple[str, list[str]]]:
        return [
            *super().findings(),
            ("entry not given", self.absent),
            ("entry run into the next", self.glued),
            ("page left out", self.pages_left_out),
        ]


def read_labels(path: Path = LABELS) -> tuple[list[Label], list[Label]]:
    """The labels and the negatives of ``path``."""
    labels: list[Label] = []
    negatives: list[Label] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        negative = line.startswith("not: ")
        parts = [p.strip() for p in line.removeprefix("not: ").split("|")]
        if len(parts) != 3:
            raise ValueError(f"{path}:{number}: expected 'file | headword | cards'")
        headword, _, words = parts[1].partition(" @ ")
        label = Label(parts[0], headword.strip(), words.strip(), {c.strip() for c in parts[2].split(";") if c.strip()})
        (negatives if negative else labels).append(label)
    return labels, negatives


def entry_links(kb: KnowledgeBase) -> list[tuple[str, str, str, set[str]]]:
    """(file, headword, text, cards named by title or reference) of every version of the real pages."""
    names = {c["key"]: c["name"] for c in kb.store.cards()}
    files = {document_id(name): name for name, *_ in REAL_PAGES}
    found = []
    for version in kb.store.every_version():
        cards = {names[k] for k, via in kb.store.card_links(version) if via in ("title", "reference")}
        found.append((files.get(version.document_id, version.document_id), version.headword, version.text, cards))
    return found


def evaluate(kb: KnowledgeBase, path: Path = LABELS, left_out: Iterable[str] = ()) -> Quality:
    """Compare the links of the real pages' entries with the labels of ``path``; the labels of
    the pages ``left_out`` (file names) are not counted."""
    labels, negatives = read_labels(path)
    links = entry_links(kb)
    skipped = set(left_out)

    def glued(label: Label) -> bool:
        """Whether the parser left another labelled entry of the page inside this one's text."""
        others = {_head(o.headword) for o in labels if o.file == label.file} - {_head(label.headword)}
        texts = [text for file, headword, text, _ in links
                 if file == label.file and _head(headword) == _head(label.headword)]  # fmt: skip
        starts = {_head(_START.split(line, maxsplit=1)[0]) for text in texts for line in text.splitlines()[1:]}
        return bool(starts & others)

    def linked(label: Label) -> set[str] | None:
        page = [(_head(headword), " ".join(text.split()), cards) for file, headword, text, cards in links
                if file == label.file]  # fmt: skip
        head = _head(label.headword)
        chosen = [cards for headword, text, cards in page if headword == head and label.words in text]
        if not chosen and label.words:
            chosen = [cards for _, text, cards in page if label.words in text]
        return set().union(*chosen) if chosen else None

    quality = Quality(negatives=len(negatives))
    for label in labels:
        where = f"{label.file} | {label.headword}" + (f" @ {label.words}" if label.words else "")
        if label.file in skipped:
            quality.pages_left_out.append(where)
            continue
        found = linked(label)
        if found is None:
            quality.absent.append(where)
            continue
        if glued(label):
            quality.glued.append(where)
            continue
        quality.entries += 1
        quality.true += len(found & label.cards)
        quality.false += [f"{where}: {c}" for c in sorted(found - label.cards)]
        quality.missed += [f"{where}: {c}" for c in sorted(label.cards - found)]
    for label in negatives:
        found = linked(label) or set()
        quality.negatives_linked += [f"{label.file} | {label.headword}: {c}" for c in sorted(label.cards & found)]
    return quality


def _head(headword: str) -> str:
    """A headword as labels name it: without a ``*`` (new or changed) or ``Q:`` mark, a
    question's text after its topic (``ABORTING MISSIONS: Can an Away Team ...?``)."""
    text = re.sub(r"^\*?\s*(?:Q:\s*)?", "", " ".join(fold_quotes(headword).split()))
    question = re.match(r"^(.+?):\s.*\?$", text)
    return headword_key(question[1] if question else text)


def real_kb(directory: Path, catalogs: list[Path]) -> tuple[KnowledgeBase, list[str]]:
    """A knowledge base of the real pages with ``catalogs``, built under ``directory``, and the
    pages left out (file names)."""
    library, left_out = write_library(directory / "library")
    report = build(library, directory / "kb", catalogs)
    return KnowledgeBase(report.directory), [reason.split(":")[0] for reason in left_out]


def main() -> int:
    arguments = sys.argv[1:]
    dump = "--dump" in arguments
    catalogs = [Path(a) for a in arguments if a != "--dump"] or [CARDS / "Physical.csv", CARDS / "Virtual.csv"]
    with tempfile.TemporaryDirectory() as directory:
        kb, left_out = real_kb(Path(directory), catalogs)
        for name in left_out:
            print(f"left out (its parser refuses it or loses lines): {name}")
        if dump:
            for file, headword, text, cards in entry_links(kb):
                print(f"{file} | {headword} | {'; '.join(sorted(cards))}\n    {' '.join(text.split())}")
            return 0
        quality = evaluate(kb, LABELS, left_out)
    quality.report()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The kind ``comprehensive-rules``: a release of a game's Comprehensive Rules, Magic: The
Gathering's (game ``mtg``) or Disney Lorcana's (``lorcana``) (`rulings.kinds.comprehensive_rules.parser`).

Each release restates the whole rules and the whole Glossary: what it omits is rescinded, a
text that changed number is recorded as moved, and its Glossary terms are the game's Glossary.
The rules govern over the Glossary (they are "the ultimate authority", the Glossary points into
them), so the series ranks above every other. Its text is read as printed (no forum-noise
cleaning: the file is the publisher's own).
"""

from __future__ import annotations

import re

from rulings.kinds import ALWAYS, RESTATEMENT, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText

_TITLE = re.compile(r"^\ufeff?(?:Magic: The Gathering |Disney Lorcana )?Comprehensive Rules\s*$", re.IGNORECASE)
_EFFECTIVE = re.compile(r"\b[Ee]ffective (?:as of |on |from )?[A-Z][a-z]+ \d{1,2}, \d{4}")
_MAGIC_DATE = re.compile(r"These rules are effective as of ")


RULE_KINDS = ("chapter", "section", "rule", "subrule")
"""The parser's entry kinds of numbered rules (`rulings.kinds.comprehensive_rules.parser.RULE_KINDS`, not
imported: reading a knowledge base loads this module, never the parser)."""
GLOSSARY_KINDS = ("glossary entry", "glossary reference")
"""The parser's entry kinds of Glossary terms (`rulings.kinds.comprehensive_rules.parser.GLOSSARY_KINDS`)."""


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a release (`rulings.kinds.comprehensive_rules.parser.parse_comprehensive_rules`)."""
    from rulings.kinds.comprehensive_rules.parser import parse_comprehensive_rules

    return parse_comprehensive_rules(document, source)


def detect(source: SourceText) -> float:
    """Sure when the text opens with the title (``Magic: The Gathering Comprehensive Rules``,
    ``COMPREHENSIVE RULES``) and states its effective date near the top (``Effective May 20,
    2024``); half sure with the title alone or Magic's ``These rules are effective as of``."""
    head = [line.strip() for line in source.lines[:12] if line.strip()][:8]
    titled = any(_TITLE.match(line) for line in head[:2])
    dated = any(_EFFECTIVE.search(line) for line in head)
    return 1.0 if titled and dated else 0.5 if titled or any(_MAGIC_DATE.search(t) for t in head) else 0.0


def shaped(entry: Entry) -> bool:
    """A rule is headed by its number; a Glossary term is a term (``Team vs. Team Variant`` too)."""
    return entry.kind in RULE_KINDS or term(entry.headword.replace("vs.", "vs"))


KIND = register(
    Kind(
        name="comprehensive-rules",
        parse=parse,
        detect=detect,
        versions=Versions(
            RESTATEMENT,
            series="comprehensive-rules",
            rescinds=ALWAYS,
            topics=RULE_KINDS,
            restates=((GLOSSARY_KINDS, "glossary"),),
            moves=True,
        ),
        rank=5,
        called="the Comprehensive Rules",
        cleaned=False,
        shaped=shaped,
        itself=r"Magic: The Gathering|\bcomprehensive rules\b",
        starts=r"^\s*\d{3}\.\d+[a-z]?\.?\s",
        entries="rules and Glossary terms",
    )
)

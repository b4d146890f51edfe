"""Numbered rules: how a game numbers its rules and the check a numbered document carries in itself.

Read by the ``comprehensive-rules`` kind, and by the kinds that refuse a document of numbered rules
(``rulebook``, ``glossary``): `rulings.numbering.rule_numbers`.
"""

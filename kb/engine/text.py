"""Analysing text: the parts of Whoosh the history index's analysers are made of
(`kb.index.history`): the tokenizer, the filters a chain is made of, and the token they pass on."""

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, Token

__all__ = ["Filter", "LowercaseFilter", "RegexTokenizer", "StemFilter", "Token"]

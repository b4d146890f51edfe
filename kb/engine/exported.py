"""What the offline copy (`kb.search.offline`) takes of the server's index of the versions in
force: some fields' postings, each document's stored lengths of them and their averages, read
from the open index (`kb.engine.handles.Index`) and given as plain lists and numbers."""

from __future__ import annotations

from typing import Any

from kb.engine.handles import Index, searcher_of


def exported_fields(index: Index, number: dict[int, int], fields: dict[str, int], count: int) -> dict[str, Any] | None:
    """The ``fields`` (name -> the number of the export's field whose lengths they give) of
    ``index``, the documents numbered as ``number`` numbers their versions (version id -> one of
    ``count`` numbers): each term -> its postings (the document's number less the previous
    one's, and the count), each document's stored length of those fields, and their averages;
    None when the index's documents are not those ``count`` versions."""
    searcher = searcher_of(index)
    reader = searcher.reader()
    docs = {d: number.get(stored["version"]) for d, stored in enumerate(reader.all_stored_fields())}
    if sorted(n for n in docs.values() if n is not None) != list(range(count)):
        return None
    postings: dict[str, dict[str, list[int]]] = {name: {} for name in fields}
    for name, table in postings.items():
        for term in reader.field_terms(name):
            matcher, at, last = reader.postings(name, term), [], 0
            while matcher.is_active():
                if (n := docs.get(matcher.id())) is not None:
                    at.append((n, int(matcher.value_as("frequency"))))
                matcher.next()
            for n, frequency in sorted(at):
                table.setdefault(term, []).extend((n - last, frequency))
                last = n
    lengths = {field: [0] * count for field in set(fields.values())}
    for name, field in fields.items():
        for d, n in docs.items():
            if n is not None:
                lengths[field][n] = int(reader.doc_field_length(d, name) or 0)
    averages = {fields[name]: searcher.weighting.average_length(reader, name) or 0 for name in fields}
    return {"postings": postings, "lengths": lengths, "averages": averages}

"""Meaning: a numbered rule's vector of meaning, written with its build (`kb.meaning.vectors`) by a
sentence encoder (`kb.meaning.encoder`), and a question's answers re-ranked by it (`kb.meaning.ranking`)."""

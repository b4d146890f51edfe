"""The lines of a document, as every kind meets them: page furniture and noise set apart, pages
joined, wrapped lines reflowed, where an entry starts.

No kind's parser lives here: each kind is a module or package of `rulings.kinds`, and takes
from this room what it shares with the others.
"""

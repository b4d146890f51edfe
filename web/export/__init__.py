"""The offline export: the site's pages and file names (`pages`) and its search index (`search_index`)."""

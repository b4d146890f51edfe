"""The search side: a query as read (`questions`), planned into Whoosh queries within a budget
(`plans`, `budget`), run over the versions in force (`in_force`) or every version (`history`,
`matching`), scored (`weighting`), alike whatever the index's segments (`steady`), with
snippets (`snippet`) and autocomplete (`completion`), on each thread's own searchers (`searchers`)."""

"""Making a knowledge base from a library: parsing its documents and building the store, the
links and the indexes atomically (`pipeline`, with what each step reads and extends in `state`,
what it reports in `reports`, how it is put in service in `publish`), re-parsing only what
changed (`incremental`), adding a newly published document (`library`), versioning entries
(`ledger`, into the `versioning.Ledger`), linking them (`linking`), importing card files
(`catalog`), writing the store (`store`)."""

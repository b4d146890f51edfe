"""Making a knowledge base from a library: parsing its documents and building the store, the
links and the indexes atomically (`pipeline`), re-parsing only what changed (`incremental`),
adding a newly published document (`library`), versioning entries (`ledger`), linking them
(`linking`), importing card files (`catalog`), writing the store (`store`)."""

"""Documents in, grounded passages out: ingestion, chunking, hybrid index, citations."""

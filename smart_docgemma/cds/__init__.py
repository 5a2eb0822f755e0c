"""CDS Hooks 2.0 service: discovery, the three hooks, feedback (views), client JWTs (auth),
prefetch and fetch (context), deterministic rules and cards."""

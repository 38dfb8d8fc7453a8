"""The rules engine: pure, deterministic, no I/O. Variants build on it; the API exposes it."""

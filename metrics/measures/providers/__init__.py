"""The metric providers, one module per family (docs/providers.md); registered, one line each,
in :data:`metrics.measures.registry.PROVIDERS`."""

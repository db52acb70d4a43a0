"""Type-level measures (Reichart, Abend and Rappoport 2010; docs/type-level.md)."""

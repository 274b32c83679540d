"""The compiled core's package: ``_core`` is built from the C sources here (docs/CORE.md)."""

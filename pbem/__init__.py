"""pbem: a play-by-email game master for golf games (docs/architecture.md is the map)."""

# The one place the version is written: pyproject.toml reads it from here, `pbem --version` prints it.
__version__ = "0.1.0"

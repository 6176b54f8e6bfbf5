"""Tests against real mail servers (a package, so that its conftest does not shadow tests/conftest.py)."""

#!/bin/sh
# Set up and run the whole test suite. Extra arguments go to pytest.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
exec .venv/bin/python -m pytest "$@"

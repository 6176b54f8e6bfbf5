#!/bin/sh
# Set up and play a demo match by mail (local Maildir transport, in a temporary folder).
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
exec .venv/bin/pbem demo

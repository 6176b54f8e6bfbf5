#!/bin/sh
# The whole test suite with the machine's clock a year ahead (400 days; PBEM_CLOCK_AHEAD to
# change it, in faketime's words): no test may depend on the date. Extra arguments go to pytest.
#
# Debian's faketime moves the clock of pytest and of every pbem process it starts. The test mail
# server keeps the real one (libfaketime fakes Dovecot's master but not its children, which then
# refuse logins: "Time moved backwards"); the monotonic clock stays real, and a start-up hook
# (scripts/clock_ahead/sitecustomize.py) lets time.sleep work so. CLOCK_AUDIT=<file> lists every
# reading of the machine's clock by pbem, test by test.
set -eu
cd "$(dirname "$0")/.."
# Everything installed first, on the real clock (apt refuses Release files from the "past").
sh scripts/test.sh --collect-only -q >/dev/null
if ! command -v faketime >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
    --no-install-recommends faketime
fi
export FAKETIME_SKIP_CMDS=dovecot FAKETIME_DONT_FAKE_MONOTONIC=1
export PYTHONPATH="$PWD/scripts/clock_ahead${PYTHONPATH:+:$PYTHONPATH}"
exec faketime -f "${PBEM_CLOCK_AHEAD:-+400d}" .venv/bin/python -m pytest -rf "$@"

#!/bin/sh
# Sets up everything pbem needs on a fresh Debian machine: Python 3.11+ with venv, then the
# project and its test tools in ./.venv. Safe to run again.
set -eu
cd "$(dirname "$0")/.."

need_apt=""
command -v python3 >/dev/null 2>&1 || need_apt="python3 python3-venv python3-pip"
if [ -z "$need_apt" ] && ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
  need_apt="python3-venv python3-pip"
fi
if [ -n "$need_apt" ]; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends $need_apt
fi
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "pbem needs Python 3.11 or newer")'

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

#!/bin/sh
# Set up and run the whole test suite. Extra arguments go to pytest.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh

# What the tests need from Debian, and only what is missing: the integration tests start their
# own Dovecot (IMAP, LMTP) on loopback and make its certificate with the openssl command; the
# league standings page is checked as a real browser renders it (headless Chromium); mail is
# scored by SpamAssassin. Nothing
# already installed is named, so nothing on the machine is upgraded as a side effect.
missing_packages() {
  packages=""
  if ! command -v dovecot >/dev/null 2>&1 && [ ! -x /usr/sbin/dovecot ]; then
    packages="dovecot-imapd dovecot-lmtpd"
  elif [ -d /usr/lib/dovecot ]; then  # Debian's layout: its IMAP and LMTP servers are packages of their own
    [ -x /usr/lib/dovecot/imap ] || packages="$packages dovecot-imapd"
    [ -x /usr/lib/dovecot/lmtp ] || packages="$packages dovecot-lmtpd"
  fi
  command -v openssl >/dev/null 2>&1 || packages="$packages openssl"
  [ -x /usr/bin/chromium ] || packages="$packages chromium"
  # Every kind of mail is scored by SpamAssassin (local rules only) in the transcripts' tests.
  command -v spamassassin >/dev/null 2>&1 || packages="$packages spamassassin"
  echo $packages
}

missing=$(missing_packages)
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  # While another apt or dpkg is at work (unattended upgrades, say), wait for its lock.
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
  # Without systemd dovecot's postinst cannot start the system service; the tests run their
  # own instance, so that failure is harmless and only what the tests use is checked below.
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
    --no-install-recommends $missing || true
  left=$(missing_packages)
  [ -z "$left" ] || { echo "test.sh: could not install $left" >&2; exit 1; }
fi

# The linters first (their settings are in pyproject.toml): ruff on the whole tree (the package, its
# tests, the benches, the contrib bots and these scripts), mypy on the packages typed so far.
.venv/bin/ruff check pbem tests bench contrib scripts
.venv/bin/mypy

# The documentation (docs/, mkdocs.yml) builds with no warning: a broken link or anchor, or a
# nav entry without its page, fails the run (tests/test_docs.py checks that every page is in the
# nav). Built into a folder of its own, never into the repository.
site=$(mktemp -d)
tier=$(mktemp -d)
trap 'rm -rf "$site" "$tier"' EXIT
.venv/bin/mkdocs build --strict --quiet --site-dir "$site"

# Two workers (pytest-xdist), for two cores; `-n 0` among the arguments runs one process.
.venv/bin/python -m pytest -n 2 "$@"

# The compiled tier: the card engines compiled with mypyc (scripts/native.py, the optional build)
# in a scratch copy that the run above never sees, then the games' and robots' fast tests on
# them, among them the engines' fingerprint (the very same games as pure Python) and a test that
# they really ran compiled. Some 3 minutes on two cores: the build ~30 s, the tests the rest.
venv="$PWD/.venv"
# (The checkout's files, tracked or new, and none that git ignores: no build, no cache.)
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$tier"
(cd "$tier" && "$venv/bin/python" scripts/native.py build \
  && PBEM_COMPILED_TIER=1 PYTHONPATH="$tier" "$venv/bin/python" -m pytest -n 2 -m "not slow" -p no:cacheprovider \
       tests/games tests/robots)

#!/bin/sh
# Set up and run the whole test suite. Extra arguments go to pytest.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh

# The integration tests start their own Dovecot (IMAP, LMTP) on loopback; install it when missing.
if ! command -v dovecot >/dev/null 2>&1 && [ ! -x /usr/sbin/dovecot ]; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -q
  # Without systemd the postinst cannot start the system service; the tests run their own
  # instance, so that failure is harmless and only the binary's presence is checked below.
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    dovecot-imapd dovecot-lmtpd openssl || true
  [ -x /usr/sbin/dovecot ] || command -v dovecot >/dev/null 2>&1 || { echo "test.sh: could not install dovecot" >&2; exit 1; }
fi

# The league standings page is checked as a real browser renders it (headless Chromium).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    chromium || true
  [ -x /usr/bin/chromium ] || { echo "test.sh: could not install chromium" >&2; exit 1; }
fi

exec .venv/bin/python -m pytest "$@"

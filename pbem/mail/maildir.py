"""The local transport: one Maildir per address under a root folder. Moves bytes, nothing else."""
from __future__ import annotations

import hashlib
import os
import socket
from pathlib import Path
from collections.abc import Iterator

from pbem.mail.clean import folder_name

# A Maildir file name holds no `/` and no `:` but its flags; the GM's names are hex digests.
_FLAGS = ":2,"


class LocalTransport:
    """The GM's inbox is `<root>/<gm address>/`; mail to X lands in `<root>/<X>/new/`."""

    def __init__(self, root: Path, gm_address: str):
        self.root = Path(root)
        self.gm_address = gm_address.lower()

    def problem(self) -> str | None:
        """Why the root cannot hold the Maildirs (a setting to mend), or None when it can."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            return f"local.maildir: {self.root} is a file, not a folder"
        except NotADirectoryError:
            return f"local.maildir: cannot make the mail folder {self.root} (a part of that path is a file)"
        except OSError as e:
            return f"local.maildir: cannot make the mail folder {self.root} ({e.strerror or e})"
        if not os.access(self.root, os.W_OK | os.X_OK):
            return f"local.maildir: cannot write to the mail folder {self.root}"
        return None

    def folder(self, address: str) -> Path:
        """The Maildir of `address`, made on first use. Only a plain address names a folder
        (`folder_name` refuses the rest with BadAddress), so no address leaves the root."""
        box = self.root / folder_name(address)
        for sub in ("tmp", "new", "cur"):
            (box / sub).mkdir(parents=True, exist_ok=True)
        return box

    def fetch(self) -> Iterator[tuple[str, bytes]]:
        """New messages in the GM's inbox, oldest first: (key, raw bytes)."""
        new = self.folder(self.gm_address) / "new"
        entries = sorted(new.iterdir(), key=lambda p: (p.stat().st_mtime_ns, p.name)) if new.is_dir() else []
        for path in entries:
            if path.name.startswith(".") or not path.is_file():
                continue
            yield path.name, path.read_bytes()

    def done(self, key: str) -> None:
        """The message is safely in the store: move it to cur/ as seen, so it is not fetched again."""
        inbox = self.folder(self.gm_address)
        src = inbox / "new" / key
        if src.exists():
            os.replace(src, inbox / "cur" / f"{key}{_FLAGS}S")

    def send(self, recipient: str, raw: bytes, key: str | None = None) -> None:
        """Deliver `raw` into the recipient's Maildir. With `key` (the outbox row's Message-ID)
        the file name comes from it, so a retry after a crash finds the mail already there and
        does not deliver it twice."""
        box = self.folder(recipient)
        name = _file_name(key) if key else _unique_name()
        if key and _delivered(box, name):
            return
        tmp = box / "tmp" / name
        with open(tmp, "wb") as fh:
            fh.write(raw.replace(b"\r\n", b"\n"))  # Maildir files use the local line ending
        os.replace(tmp, box / "new" / name)


def _file_name(key: str) -> str:
    return "pbem-" + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:40]


def _unique_name() -> str:
    return f"pbem-{os.urandom(16).hex()}.{os.getpid()}.{socket.gethostname().replace('/', '_')}"


def _delivered(box: Path, name: str) -> bool:
    """Whether the mail is in new/ or, read by the player's client since, in cur/ (any flags)."""
    if (box / "new" / name).exists():
        return True
    cur = box / "cur"
    return (cur / name).exists() or any(cur.glob(name + _FLAGS + "*"))

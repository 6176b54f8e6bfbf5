"""The local transport: one Maildir per address under a root folder. Moves bytes, nothing else."""
from __future__ import annotations

import mailbox
import os
from pathlib import Path
from typing import Iterator


class LocalTransport:
    """The GM's inbox is `<root>/<gm address>/`; mail to X lands in `<root>/<X>/new/`."""

    def __init__(self, root: Path, gm_address: str):
        self.root = Path(root)
        self.gm_address = gm_address.lower()

    def box(self, address: str) -> mailbox.Maildir:
        self.root.mkdir(parents=True, exist_ok=True)
        return mailbox.Maildir(str(self.root / address.lower()), factory=None, create=True)

    def fetch(self) -> Iterator[tuple[str, bytes]]:
        """New messages in the GM's inbox, oldest first: (key, raw bytes)."""
        inbox = self.box(self.gm_address)
        new = Path(inbox._path) / "new"  # the Maildir's own folder; mailbox has no public name for it
        entries = sorted(new.iterdir(), key=lambda p: (p.stat().st_mtime_ns, p.name)) if new.is_dir() else []
        for path in entries:
            if path.name.startswith("."):
                continue
            yield path.name, path.read_bytes()

    def done(self, key: str) -> None:
        """The message is safely in the store: move it to cur/ as seen, so it is not fetched again."""
        inbox = Path(self.box(self.gm_address)._path)
        src = inbox / "new" / key
        if src.exists():
            os.replace(src, inbox / "cur" / f"{key}:2,S")

    def send(self, recipient: str, raw: bytes) -> None:
        box = self.box(recipient)
        box.add(raw.replace(b"\r\n", b"\n"))  # Maildir files use the local line ending
        box.close()

"""Mail's HTML parts as a phone shows them: headless Chromium lays each out in a frame 390 px
wide (the width of a phone, CONTRACT section 5) and tells how wide it came out and what text
it shows. One browser for a whole batch of pages: each is a frame of one page."""
from __future__ import annotations

import html
import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

PHONE = 390
BROWSER_SECONDS = 120
_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--no-first-run"]
# Each frame's width as laid out and its text as shown, written into the page once all the
# frames have loaded, where --dump-dom finds it.
_SCRIPT = """
window.addEventListener("load", () => {
  const seen = [...document.querySelectorAll("iframe")].map(frame => {
    const page = frame.contentDocument;
    return {width: page.documentElement.scrollWidth, text: page.body.innerText};
  });
  const out = document.createElement("pre");
  out.id = "seen";
  out.textContent = JSON.stringify(seen);
  document.body.appendChild(out);
});
"""


@dataclass
class Shown:
    width: int  # the page's scrollWidth: more than PHONE means scrolling sideways
    text: str   # document.body.innerText


def shown(chromium: str, pages: list[str], folder: Path) -> list[Shown]:
    """How a phone shows each of `pages` (whole HTML documents), in their order."""
    frames = "\n".join(f'<iframe scrolling="no" style="display: block; border: 0; width: {PHONE}px; height: 844px" '
                       f'srcdoc="{html.escape(page, quote=True)}"></iframe>' for page in pages)
    index = folder / "phone.html"
    index.write_text(f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head>\n<body style="margin: 0">\n'
                     f"{frames}\n<script>{_SCRIPT}</script>\n</body></html>\n", encoding="utf-8")
    done = subprocess.run([chromium, *_FLAGS, f"--user-data-dir={folder / 'profile'}",
                           f"--window-size={PHONE},844", "--dump-dom", index.as_uri()],
                          capture_output=True, timeout=BROWSER_SECONDS, env=os.environ | {"HOME": str(folder)})
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    found = re.search(r'<pre id="seen">(.*?)</pre>', done.stdout.decode("utf-8"), re.S)
    assert found, done.stdout.decode("utf-8", errors="replace")[-2000:]
    seen = json.loads(html.unescape(found[1]))
    assert len(seen) == len(pages)
    return [Shown(s["width"], s["text"]) for s in seen]


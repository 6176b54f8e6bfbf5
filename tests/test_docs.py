"""The documentation tells the truth: its sample mails are what pbem writes, and the README's
quick start works as written.

A sample mail in the docs stands under a comment naming the golden transcript and the mail:

    <!-- sample: matchplay.txt | George <george@example.test> | [m1] Turn 1 report: ... -->

followed by a fenced block. Its lines must stand in that mail's text part in the same order and
next to each other; a line `...` alone skips lines of the mail. The transcripts are what the
templates write (tests/test_transcripts.py), so a template that changes its words changes the
transcript, and a sample that was not changed with it fails here.
"""
from __future__ import annotations

import email
import email.policy
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
RULE = "=" * 78
HTML_RULE = "------------------------------ HTML part, as text ----------------------------"
MARK = re.compile(r"<!-- sample: (\S+) \| (.+?) \| (.+?) -->\n```text\n(.*?)```", re.S)


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def samples() -> list[tuple[str, str, str, str, list[str]]]:
    """Every marked sample: (page, transcript, recipient, subject, the sample's lines)."""
    found = []
    for page in pages():
        for name, to, subject, block in MARK.findall(page.read_text(encoding="utf-8")):
            found.append((page.name, name, to, subject, block.rstrip("\n").split("\n")))
    return found


def mails(transcript: str) -> list[tuple[str, list[str]]]:
    """Each mail of a transcript: its To line and its text part's lines, from `Subject:` on."""
    out = []
    for chunk in transcript.split(RULE + "\n")[1:]:
        head, _, rest = chunk.partition("\n")
        if not head.startswith("To: "):
            continue
        text = rest.split(HTML_RULE, 1)[0].split("\n" + "#" * 78, 1)[0]
        out.append((head[4:].split("    Kind: ", 1)[0], text.rstrip("\n").split("\n")))
    return out


def the_mail(name: str, to: str, subject: str, transcript: str | None = None) -> list[str]:
    text = transcript if transcript is not None else (TRANSCRIPTS / name).read_text(encoding="utf-8")
    for recipient, lines in mails(text):
        if recipient == to and lines[0] == f"Subject: {subject}":
            return lines
    raise AssertionError(f"{name} has no mail to {to} with the subject {subject!r}")


def differences(sample: list[str], mail: list[str]) -> str | None:
    """None when every run of the sample's lines (between `...` lines) stands in the mail, in
    order and each run whole; else the first run that does not."""
    runs: list[list[str]] = [[]]
    for line in sample:
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    at = 0
    for run in (r for r in runs if r):
        for start in range(at, len(mail) - len(run) + 1):
            if mail[start:start + len(run)] == run:
                at = start + len(run)
                break
        else:
            return "\n".join(run)
    return None


def test_the_docs_have_samples_of_every_kind_of_answer_a_player_reads_first():
    marked = samples()
    kinds = {subject.split("] ", 1)[1].split(" ", 1)[0].rstrip(":") for _, _, _, subject, _ in marked}
    assert len(marked) >= 6 and {"Welcome", "Orders", "Turn", "Not", "Result"} <= kinds, kinds


@pytest.mark.parametrize("page, name, to, subject, sample", samples(),
                         ids=[f"{s[0]}:{s[3]}" for s in samples()])
def test_a_docs_sample_is_the_mail_pbem_writes(page, name, to, subject, sample):
    missing = differences(sample, the_mail(name, to, subject))
    assert missing is None, (f"{page}: the sample of {subject!r} ({name}) is not what pbem writes; "
                             f"these lines are not in the mail:\n{missing}")


def test_a_sample_fails_when_the_template_changes_its_words():
    """What the check does when a template's words change (the transcript changes with them) and
    the docs do not: the sample no longer stands in the mail."""
    page, name, to, subject, sample = next(s for s in samples() if "Turn 1 report" in s[3])
    transcript = (TRANSCRIPTS / name).read_text(encoding="utf-8")
    assert differences(sample, the_mail(name, to, subject, transcript)) is None
    changed = transcript.replace("Your remaining stroke cards:", "Stroke cards left:")
    assert differences(sample, the_mail(name, to, subject, changed)) is not None
    # A line moved out of its place is a difference too, and so is a line left out.
    assert differences(["a", "b"], ["a", "x", "b"]) == "a\nb"
    assert differences(["a", "...", "b"], ["a", "x", "b"]) is None
    assert differences(["b", "...", "a"], ["a", "x", "b"]) == "a"


def test_the_cron_line_in_the_docs_is_contribs():
    cron = [ln for ln in (ROOT / "contrib" / "crontab").read_text().splitlines() if ln and not ln.startswith("#")]
    admin = (DOCS / "admin.md").read_text(encoding="utf-8")
    assert cron[0] in admin
    for page in pages():
        text = page.read_text(encoding="utf-8")
        # Every cron line the docs show is one of contrib's (cron's PATH has no pbem of its own).
        for line in re.findall(r"^\s*(\S+ \S+ \* \* \* .*)$", text, re.M):
            assert line.strip() in cron, (page.name, line)


def test_the_readme_is_short_and_cites_only_what_the_repository_holds():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    for page in pages():
        text = page.read_text(encoding="utf-8")
        assert "CONTRACT.md" not in text, page.name
        for link in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            base = ROOT if page.name == "README.md" else DOCS
            assert (base / link).exists(), (page.name, link)


def test_every_page_of_the_docs_is_in_the_nav():
    import yaml
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]

    def files(entries) -> set[str]:
        out: set[str] = set()
        for entry in entries:
            for value in (entry.values() if isinstance(entry, dict) else [entry]):
                out |= files(value) if isinstance(value, list) else {value}
        return out
    assert {p.name for p in DOCS.glob("*.md")} <= files(nav)


def quick_start(readme: str) -> list[str]:
    """The README quick start's shell lines, a command each (continuation lines joined)."""
    block = readme.split("## A GM's quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return block.replace("\\\n", " ").splitlines()


def test_the_readme_quick_start_works_as_written(tmp_path):
    """The GM's quick start run line by line in a fresh folder (the venv's `pbem` is this
    checkout's, and the clock is given), then the player's reply the README shows."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = quick_start(readme)
    assert lines[0].startswith(". ") and lines[0].split()[1].endswith("/.venv/bin/activate")
    assert lines[1] == "mkdir ~/golf && cd ~/golf"
    home = tmp_path / "home"
    home.mkdir()
    script = "\n".join(["set -eu", 'pbem() { "$PYTHON" -m pbem "$@"; }', *lines[1:]])
    env = {**{k: v for k, v in os.environ.items() if k != "PBEM_CONFIG"}, "HOME": str(home),
           "PYTHON": sys.executable, "PYTHONPATH": str(ROOT), "PBEM_NOW": "2026-12-01T18:00:00Z"}
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    said = r.stdout.splitlines()
    assert said[0].startswith("local: mail folder ") and said[1:3] == ["all is well", "m1"], said
    assert said[3].startswith("m1") and said[3].endswith("waiting for George, Bill"), said
    golf = home / "golf"
    welcome = next((golf / "mail" / "george@example.test" / "new").iterdir())
    reply_to = email.message_from_bytes(welcome.read_bytes(), policy=email.policy.default)["Reply-To"]
    secret = re.search(r"gm\+([0-9a-f]{16})@", str(reply_to)).group(1)
    deliver = next(line for line in readme.splitlines() if line.startswith("printf ") and "pbem deliver" in line)
    words = shlex.split(deliver.split("|", 1)[0].replace("<secret>", secret))
    r = subprocess.run(["bash", "-c", f'pbem() {{ "$PYTHON" -m pbem "$@"; }}; {shlex.join(words)} | pbem deliver'],
                       cwd=golf, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    answers = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
               for p in (golf / "mail" / "george@example.test" / "new").iterdir()]
    assert sorted(m["X-PBEM-Kind"] for m in answers) == ["ack", "welcome"]
    ack = next(m for m in answers if m["X-PBEM-Kind"] == "ack")
    assert ack["Subject"] == "[m1] Orders received for turn 1"

"""`pbem demo`: two scripted players play a whole MatchPlay match by mail in a temporary folder.

The players are real mail clients of the local transport: they read the GM's mail from their own
Maildirs, reply with orders (the reply address carries their secret), and the GM runs one
`process` pass after each mail, as cron would.
"""
from __future__ import annotations

import email
import email.policy
import email.utils
import mailbox
import random
import shutil
import tempfile
from email.message import EmailMessage
from pathlib import Path

from pbem.app import App
from pbem.commands import UsageError
from pbem.config import load
from pbem.gm import games
from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.games import GameState
from pbem.games.registry import spec_for
from pbem.mail.clean import quoted
from pbem.mail.kinds import MailKind

GAME = "matchplay"  # the game the demo plays (any game whose spec can play random orders would do)
DEMO_ID = "demo"
# The demo's configuration, written into its folder: what `local_defaults` makes, so that a kept
# folder is a GM's folder where every pbem command works.
DEMO_CONFIG = ("gm:\n  address: gm@example.test\n  name: Golf GM\nstore: ./pbem.sqlite3\ntransport: local\n"
               "local:\n  maildir: ./mail\n")


class ScriptedPlayer:
    def __init__(self, name: str, address: str, root: Path, gm_address: str):
        self.name, self.address, self.root, self.gm_address = name, address, root, gm_address
        self.read: set[str] = set()

    def inbox(self) -> list[tuple[int, ScriptedPlayer, EmailMessage]]:
        """New mail from the GM, oldest first, each with the moment it was delivered."""
        folder = self.root / self.address
        files = [p for sub in ("new", "cur") if (folder / sub).is_dir() for p in (folder / sub).iterdir()]
        fresh = []
        for path in sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name)):
            if path.name not in self.read:
                self.read.add(path.name)
                fresh.append((path.stat().st_mtime_ns, self,
                              email.message_from_bytes(path.read_bytes(), policy=email.policy.default)))
        return fresh

    def reply(self, to: EmailMessage, body: str) -> None:
        msg = EmailMessage()
        msg["From"] = email.utils.formataddr((self.name, self.address))
        msg["To"] = to["Reply-To"]
        msg["Subject"] = "Re: " + str(to["Subject"])
        msg["Message-ID"] = email.utils.make_msgid(domain="player.test")
        msg["In-Reply-To"] = to["Message-ID"]
        msg["Date"] = email.utils.formatdate()
        msg.set_content(body + "\n")
        box = mailbox.Maildir(str(self.root / self.gm_address), factory=None, create=True)
        box.add(msg.as_bytes())


def run_demo(say=print, seed: int = 2026, keep: bool | str = False) -> int:
    """`keep`: False removes the demo's folder at the end; True keeps a temporary one; a path
    plays in that folder (made; it must be new or empty) and keeps it."""
    if isinstance(keep, str):
        folder = Path(keep).expanduser().resolve()
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise UsageError(f"--keep {quoted(keep)}: the demo needs a new or empty folder")
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder = Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    try:
        return _play(folder, say, seed)
    finally:
        if keep:
            say(f"(the demo's folder is kept: {folder})")
            say(f"Its pbem.yaml makes it a GM's folder: cd {folder}, then pbem list, pbem show {DEMO_ID}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def _play(folder: Path, say, seed: int) -> int:
    (folder / "pbem.yaml").write_text(DEMO_CONFIG)
    config = load(folder / "pbem.yaml")
    app = App.open(config)
    rng = random.Random(seed)
    play = spec_for(GAME).random_orders
    assert play is not None  # GAME is chosen for a spec that plays random orders
    players = [ScriptedPlayer("George", "george@example.test", config.local.maildir, config.gm.address),
               ScriptedPlayer("Bill", "bill@example.test", config.local.maildir, config.gm.address)]
    say(f"Demo folder: {folder} (removed at the end; pbem demo --keep keeps it)")
    game_id = app.gm.new_game(GAME, [(p.name, p.address) for p in players], load_course(DEFAULT_COURSE),
                              seed=seed, game_id=DEMO_ID)
    app.send_outbox()
    result_line = None
    for _ in range(40):
        # Both players' new mail in the order the GM wrote it, so the exchange reads as it happened.
        # Everything a pass wrote is shown first; then each player answers what asked for orders.
        arrived = sorted((m for p in players for m in p.inbox()), key=lambda item: item[0])
        to_answer = []
        for _, player, mail in arrived:
            kind = mail["X-PBEM-Kind"]
            say(f"GM -> {player.name}: [{kind}] {mail['Subject']}")
            part = mail.get_body(preferencelist=("plain",))
            assert part is not None  # every mail of the GM's has a plain text part
            body = part.get_content()
            if kind == MailKind.RESULT:
                result_line = next(ln for ln in body.splitlines() if ln.startswith("Result: "))
            if kind in (MailKind.WELCOME, MailKind.REPORT) and "Result:" not in body:
                to_answer.append((player, mail))
        for player, mail in to_answer:
            state = _state(app, game_id)
            orders = str(play(state, players.index(player), rng))
            say(f"{player.name} -> GM: " + orders.replace("\n", " / "))
            player.reply(mail, orders)
        if result_line:
            break
        app.process()
    say("")
    say(result_line or "no result reached")
    app.close()
    return 0 if result_line else 1


def _state(app: App, game_id: str) -> GameState:
    """The scripted players' brain picks a legal order; it uses only what its own seat may know."""
    table = games.load(app.store, game_id)
    assert table is not None  # the demo's game was made before the first mail it answers
    return table.state



def cmd_demo(args) -> int:
    return run_demo(print, keep=args.keep)  # False, True (--keep alone) or the folder given

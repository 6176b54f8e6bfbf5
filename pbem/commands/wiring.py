"""The GM built with the layers above it: the top of the package, where every layer is known.

`pbem.app` imports this module only when the GM is needed (a cron pass with nothing to do never
loads it); everything the GM's side needs is imported here, at the head.
"""
from __future__ import annotations

from pbem import clock
from pbem.absences.layer import AbsenceLayer
from pbem.calendars.layer import CalendarLayer
from pbem.config import Config
from pbem.digests.layer import DigestLayer
from pbem.gm import GM, layers
from pbem.gm.originals import fingerprint
from pbem.league.layer import LeagueLayer
from pbem.ratings.mail import RatingsLayer
from pbem.store import Store
from pbem.tables.layer import TablesLayer

__all__ = ["above", "build_gm", "fingerprint"]

above = layers.above  # the layers registered above the GM, each with its own tick


def build_gm(config: Config, store: Store) -> GM:
    away = AbsenceLayer(config.absence.days_per_year)
    layers.register(LeagueLayer(away))  # the layers above the GM, registered from above
    layers.register(TablesLayer())
    layers.register(RatingsLayer())
    layers.register(CalendarLayer())
    layers.register(away)
    layers.register(DigestLayer())
    return GM(store, gm_address=config.gm.address, gm_name=config.gm.name, gm_contact=config.gm.contact,
              clock=clock.now, default_deadline=config.games.deadline, default_nmr=config.games.nmr,
              reminder_before=config.games.reminder_times, takeover_after=config.games.takeover_after,
              admins=tuple(config.gm.admins),
              gm_secret=config.gm.secret, messages_per_hour=config.limits.messages_per_hour,
              strangers_per_hour=config.limits.strangers_per_hour,
              max_command_lines=config.limits.max_command_lines,
              max_message_bytes=config.limits.max_message_bytes)

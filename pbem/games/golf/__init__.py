"""Golf: the engine (`engine`) and everything else of the game in this folder (its `spec`).

The package offers the engine's names, as the one module of the game did before it had a folder.
"""
from __future__ import annotations

from pbem.games.golf.engine import *

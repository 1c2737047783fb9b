"""The table (牌桌): wall, one hand's state machine, the match, records and replay.

    >>> from twmahjong.profiles import load_profile
    >>> h = HandState(load_profile("standard"), dealer=0, seed=3)
    >>> h.over
    False

docs/engine.md describes the state machine and the rule readings.
"""

from .actions import Action, IllegalAction
from .rules import TableRules
from .table import HandState
from .wall import Wall, new_seed

__all__ = ["Action", "HandState", "IllegalAction", "TableRules", "Wall", "new_seed"]

"""Hand analysis (牌型分析): splits, waits (聽牌), shanten (向聽數).

This first version re-exports the reference implementation; the table-driven
implementation replaces these names without changing their contract
(docs/architecture.md).
"""

from .hand_reference import Set, Split, is_complete, is_lilgu, shanten, splits, wait_shapes, waits

__all__ = ["Set", "Split", "is_complete", "is_lilgu", "shanten", "splits", "wait_shapes", "waits"]

"""twmahjong — Taiwanese 16-tile mahjong (台灣麻將 / 十六張麻將).

The rules core (tiles, hand analysis, profiles, 台 scoring, settlement), a table
engine, bots, a game server and clients. See docs/architecture.md for the layers.
"""

__version__ = "0.1.0"

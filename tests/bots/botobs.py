"""Helpers for hand-made observations (docs/architecture.md, "Observation")."""




def make_obs(hand, *, seat=0, drawn=None, melds=None, discards=None, declared=None,
             legal=None, wall_remaining=60, dealer=1, last_discard=None):
    """An observation as the engine would send it, with ``legal`` defaulting to
    discarding any held kind."""
    from twmahjong.tiles import format_tiles, parse_tiles
    if legal is None:
        kinds = sorted(set(parse_tiles(hand) + (parse_tiles(drawn) if drawn else [])))
        legal = [{"type": "discard", "tile": format_tiles([k])} for k in kinds]
    return {
        "seat": seat, "dealer": dealer, "dealer_streak": 0, "round_wind": "E",
        "seat_winds": ["E", "S", "W", "N"], "wall_remaining": wall_remaining,
        "hand": hand, "drawn": drawn,
        "melds": melds or [[], [], [], []],
        "flowers": [[], [], [], []],
        "discards": discards or [[], [], [], []],
        "concealed_count": [16, 16, 16, 16],
        "declared": declared or [False] * 4,
        "last_discard": last_discard,
        "legal": legal,
    }



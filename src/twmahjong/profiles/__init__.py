"""Rule profiles (玩法): every 台 value, exclusion and table rule as data.

The rule texts disagree (rules/001 gives 四暗刻 5台, rules/000 gives 6台; rules/003
counts 花 per seat and has 報聽), and players change lines at will
(「玩法多變，想換就換」). So a rule difference lives in a TOML file, read once here,
and code asks the profile instead of asking which profile it is.

    >>> load_profile("standard").patterns["all_pungs"].tai
    4

A user file may start with ``extends = "standard"`` and override only the lines it
changes; tables merge key by key, any other value replaces the base's.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from pydantic import ValidationError

from ..errors import UserError

__all__ = ["Profile", "PatternDef", "ScoringRules", "PlayRules", "Stakes", "SettlementRules",
           "ProfileError", "load_profile", "profile_names"]

BUILTIN = ("standard", "classic", "casual")


class ProfileError(UserError):
    """A profile file that cannot be used: unknown key, wrong type, bad TOML, unknown name."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PatternDef(_Frozen):
    """One 台 pattern as this profile counts it.

    ``tai`` is per occurrence: each 花, each 箭刻, per N of 連N拉N."""
    zh: StrictStr
    en: StrictStr
    tai: StrictInt


class ScoringRules(_Frozen):
    """How patterns combine (台數計算準則) and what each special pattern demands."""
    drops: dict[StrictStr, tuple[StrictStr, ...]] = Field(default_factory=dict)
    ping_hu_requires: tuple[StrictStr, ...] = ()
    flower_set_mode: Literal["replace", "add"] = "replace"
    lilgu: StrictBool = False
    all_honors_minus: StrictInt = 0
    all_honors_minus_with: tuple[StrictStr, ...] = ()
    incomplete_wins: tuple[StrictStr, ...] = ()
    incomplete_win_keeps: tuple[StrictStr, ...] = ()
    prefer: tuple[StrictStr, ...] = ()


class PlayRules(_Frozen):
    """Table rules the engine reads (行牌, 禁制, 優先權)."""
    seat_wind_from: Literal["wall_break", "dealer"]
    dead_wall: StrictInt
    no_claims_last: StrictInt
    # 過水: until_non_winning_discard is rules/000-001 (打出(或加杠)一張非和之牌即可解除);
    # until_own_discard (any discard lifts it) is how older records were played.
    passed_win: Literal["until_non_winning_discard", "until_own_discard", "until_own_draw"]
    passed_pon: Literal["none", "until_own_discard", "until_own_draw"]
    multiple_winners: Literal["nearest", "all"]
    after_chi_discard: Literal["forbidden_same_and_suji", "forfeits_win_same"]
    after_pon_discard: Literal["forbidden", "forfeits_win"]
    no_kong_on_upper_discard: StrictBool
    declare_ready: Literal["heavenly_earthly", "any_time"]
    four_kongs_win: StrictBool
    rounds: int = Field(ge=1, le=4, strict=True)
    min_tai: StrictInt = 0
    # 海底牌得棄摸 (rules/001 item 25). Defaults to false, the engine's behaviour before
    # the key existed, so profiles embedded in older records replay as they were played.
    may_decline_last_tile: StrictBool = False
    # 行牌禁制 3 after a 碰槓: "forbidden" (rules/001: 不得接著暗杠) or "no_self_draw"
    # (rules/000: the 暗槓 is made, its replacement may not 自摸). The defaults of the keys
    # below are the engine's behaviour before each existed, for older embedded profiles.
    concealed_kong_after_exposed_kong: Literal["forbidden", "no_self_draw"] = "forbidden"
    # A declared hand: "locked" (rules/003 報聽後不可再換牌) or "may_change" (rules/000-001
    # items 31-32: 如不換牌或靠張則保持有效，否則解除 — it may change and loses the declaration).
    declared_hand: Literal["locked", "may_change"] = "locked"
    # 搬風 before each 將 after the first (rules/000-001 搬風: 次將起每將於原座位搬風).
    reseat_each_game: StrictBool = False


class Stakes(_Frozen):
    """底 and 台價; ``max_tai`` is 封頂 (0 = no cap), applied by settlement, not the scorer."""
    base: StrictInt
    per_tai: StrictInt
    max_tai: StrictInt = 0


class SettlementRules(_Frozen):
    cap_to_carried: StrictBool = False          # 防以小博大
    fee_rate: Union[StrictFloat, StrictInt] = 0.0   # 活動費


class Profile(_Frozen):
    id: StrictStr
    name_zh: StrictStr
    name_en: StrictStr
    source: StrictStr
    patterns: dict[StrictStr, PatternDef]
    scoring: ScoringRules
    play: PlayRules
    stakes: Stakes
    settlement: SettlementRules

    def has(self, pattern_id: str) -> bool:
        return pattern_id in self.patterns


_cache: dict[str, Profile] = {}


def profile_names() -> list[str]:
    """The built-in profile ids, default first."""
    return list(BUILTIN)


def _read_toml(text: str, label: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ProfileError(f"{label}: not valid TOML: {e}") from None


def _builtin_data(name: str) -> dict[str, Any]:
    text = resources.files(__name__).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return _read_toml(text, f"{name}.toml")


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Deep merge: tables merge key by key, anything else in ``over`` replaces."""
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _describe(err: Mapping[str, Any]) -> str:
    kind = err["type"]
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "missing key"
    got = type(err.get("input")).__name__
    names = {"int_type": "an integer", "string_type": "text", "bool_type": "true or false",
             "float_type": "a number", "dict_type": "a table", "tuple_type": "a list",
             "model_type": "a table", "literal_error": None}
    want = names.get(kind)
    if want:
        return f"must be {want}, not {got}"
    return str(err["msg"]).lower()


def _validate(data: dict[str, Any], label: str) -> Profile:
    try:
        return Profile.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        path = ".".join(str(p) for p in first["loc"] if not str(p).startswith("function-"))
        raise ProfileError(f"{label}: {path}: {_describe(first)}") from None


def _resolve(data: dict[str, Any], label: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    base_name = data.pop("extends", None)
    if base_name is None:
        return data
    if not isinstance(base_name, str):
        got = type(base_name).__name__
        raise ProfileError(f"{label}: extends: must be a profile id, not {got}")
    if base_name not in BUILTIN:
        raise ProfileError(f"{label}: extends: unknown profile {base_name!r}; "
                           f"known profiles: {', '.join(BUILTIN)}")
    if base_name in seen:
        raise ProfileError(f"{label}: extends: {base_name!r} extends itself")
    base = _resolve(_builtin_data(base_name), f"{base_name}.toml", seen + (base_name,))
    return _merge(base, data)


def load_profile(name_or_path: str | Path = "standard") -> Profile:
    """A built-in profile by id (cached), or a user's TOML file by path.

    Raises ProfileError naming the file and key path: ``casual.toml: play.dead_wal: unknown key``.
    """
    name = str(name_or_path)
    if name in BUILTIN:
        if name not in _cache:
            _cache[name] = _validate(_resolve(_builtin_data(name), f"{name}.toml"), f"{name}.toml")
        return _cache[name]
    path = Path(name)
    if not (path.suffix == ".toml" or path.exists()):
        raise ProfileError(f"unknown profile {name!r}; known profiles: {', '.join(BUILTIN)} "
                           "(or give the path of a .toml file)")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ProfileError(f"cannot read profile file {name}: {e.strerror}") from None
    label = path.name
    return _validate(_resolve(_read_toml(text, label), label), label)

#!/usr/bin/env python3
"""Train a linear policy with numpy on ``twmahjong.env``, then beat ``random`` in the arena.

    python examples/linear_policy.py                 # train, save policy.npz, play the arena
    python examples/linear_policy.py --smoke         # seconds: tiny data, two arena deals

1. *Collect*: four ``efficiency`` bots play hands through the AEC environment; every
   decision is kept as (observation vector, action mask, the bot's action index).
2. *Train*: a linear softmax policy — ``logits = x·W + b`` over the 146 fixed actions,
   illegal ones masked out — fitted to those choices by cross-entropy with Adam
   (behaviour cloning: the quickest way to a policy that plays sensibly; the same
   weights are the usual start for policy-gradient fine-tuning in the env).
3. *Arena*: the policy sits at the table as a pipe bot (``play`` mode below reads the
   JSON observation every bot receives and encodes it with
   ``twmahjong.env.spaces.encode_json``, the same vector it was trained on) and
   plays ``random`` in duplicate deals (``twmahjong.bots.arena.run_arena``).

The policy needs only numpy at play time; training needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from twmahjong.env.spaces import ACTION_COUNT, OBS_HIGH, OBS_SIZE, encode_json, mask_json

SCALE = 1.0 / np.maximum(OBS_HIGH.astype(np.float32), 1.0)


def features(obs_vec: np.ndarray) -> np.ndarray:
    """Observation vectors scaled to 0..1 (one row per observation)."""
    return obs_vec.astype(np.float32) * SCALE


# ---- 1. collect ----------------------------------------------------------------------------

def collect(hands: int, seed: int, teacher: str = "efficiency"):
    """(X, masks, actions) from ``hands`` hands of four ``teacher`` bots in the env."""
    from twmahjong.bots import make_bot
    from twmahjong.engine.actions import Action
    from twmahjong.engine.observe import observation
    from twmahjong.env import env
    from twmahjong.env.spaces import action_index

    e = env()
    xs, masks, ys = [], [], []
    for i in range(hands):
        e.reset(seed=seed * 100_003 + i)
        bots = [make_bot(teacher, seed * 4 + s + 8 * i) for s in range(4)]
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            seat = int(agent[-1])
            a = action_index(Action.from_json(bots[seat].act(observation(e.hand, seat))))
            if obs["action_mask"].sum() > 1:        # a forced move teaches nothing
                xs.append(obs["observation"])
                masks.append(obs["action_mask"])
                ys.append(a)
            e.step(a)
    return features(np.array(xs)), np.array(masks, dtype=bool), np.array(ys)


# ---- 2. train ------------------------------------------------------------------------------

def masked_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    z = np.where(masks, logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z) * masks
    return p / p.sum(axis=1, keepdims=True)


def train(X: np.ndarray, masks: np.ndarray, y: np.ndarray, *, epochs: int, seed: int,
          lr: float = 0.01, batch: int = 256) -> dict[str, np.ndarray]:
    """Cross-entropy with Adam; returns {"W", "b"}."""
    rng = np.random.default_rng(seed)
    params = {"W": np.zeros((OBS_SIZE, ACTION_COUNT), np.float32),
              "b": np.zeros(ACTION_COUNT, np.float32)}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    t = 0
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            xb, mb, yb = X[idx], masks[idx], y[idx]
            p = masked_softmax(xb @ params["W"] + params["b"], mb)
            p[np.arange(len(yb)), yb] -= 1.0              # d(cross-entropy)/d(logits)
            p /= len(yb)
            grads = {"W": xb.T @ p, "b": p.sum(axis=0)}
            t += 1
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9 ** t), v[k] / (1 - 0.999 ** t)
                params[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
    return params


def agreement(params: dict[str, np.ndarray], X: np.ndarray, masks: np.ndarray, y: np.ndarray) -> float:
    """Share of decisions where the policy's best action is the teacher's."""
    logits = np.where(masks, X @ params["W"] + params["b"], -np.inf)
    return float((logits.argmax(axis=1) == y).mean())


# ---- 3. play (pipe bot) and the arena ------------------------------------------------------

def choose(params: dict[str, np.ndarray], observation: dict) -> dict:
    """The policy's action (JSON) for a bot observation with its ``legal`` list."""
    by_index = mask_json(observation["legal"])
    x = features(encode_json(observation)[None, :])[0]
    logits = x @ params["W"] + params["b"]
    best = max(by_index, key=lambda i: logits[i])
    return by_index[best]


def play(weights: Path) -> None:
    """The pipe protocol (docs/bots.md): one JSON line in, one action per request out."""
    data = np.load(weights)
    params = {"W": data["W"], "b": data["b"]}
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "request":
            out = dict(choose(params, msg["observation"]), id=msg.get("id"))
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()


def arena(weights: Path, deals: int, seed: int) -> dict:
    from twmahjong.bots.arena import run_arena
    me = f"pipe:{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__).resolve()))} " \
         f"play --weights {shlex.quote(str(weights))}"
    return run_arena([me, "random", "random", "random"], deals=deals, seed=seed,
                     pipe_timeout=10.0)


def report(r: dict) -> str:
    lines = [f"arena: {r['hands']} hands ({r['deals']} duplicate deals), draw rate {r['draw_rate']:.0%}"]
    for name, b in r["bots"].items():
        label = "linear" if name.startswith("pipe:") else name
        lo, hi = b["net_ci95"]
        lines.append(f"  {label:7s} win {b['win_rate']:6.1%}  deal-in {b['deal_in_rate']:6.1%}  "
                     f"net/hand {b['net_per_hand']:+8.1f}  (95% {lo:+.1f} .. {hi:+.1f})")
    c = r["comparisons"][0]
    lo, hi = c["net_diff_ci95"]
    lines.append(f"  linear - random: {c['net_diff']:+.1f} points/hand (95% {lo:+.1f} .. {hi:+.1f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Train a linear numpy policy and play it in the arena.")
    ap.add_argument("mode", nargs="?", default="all", choices=["all", "train", "arena", "play"])
    ap.add_argument("--weights", type=Path, default=Path("policy.npz"))
    ap.add_argument("--hands", type=int, default=200, help="hands of teacher play to learn from")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--deals", type=int, default=100, help="arena deals (each played 4 times)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="tiny run for CI: seconds, not minutes")
    a = ap.parse_args(argv)
    if a.mode == "play":
        play(a.weights)
        return 0
    if a.smoke:
        a.hands, a.epochs, a.deals = 6, 3, 2
    if a.hands < 2 or a.epochs < 1 or a.deals < 1:
        ap.error("--hands must be at least 2, --epochs and --deals at least 1")
    if a.mode in ("all", "train"):
        t0 = time.perf_counter()
        X, masks, y = collect(a.hands, a.seed)
        cut = max(1, len(y) * 4 // 5)
        params = train(X[:cut], masks[:cut], y[:cut], epochs=a.epochs, seed=a.seed)
        np.savez(a.weights, **params)
        print(f"trained on {cut} decisions from {a.hands} hands in {time.perf_counter() - t0:.1f}s; "
              f"agrees with the teacher on {agreement(params, X[cut:], masks[cut:], y[cut:]):.1%} "
              f"of {len(y) - cut} held-out decisions; saved {a.weights}")
    if a.mode in ("all", "arena"):
        if not a.weights.exists():
            ap.error(f"no weights at {a.weights}; run the train mode first")
        print(report(arena(a.weights, a.deals, a.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

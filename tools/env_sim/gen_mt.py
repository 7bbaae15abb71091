"""mt.jsonl: Python's random.Random(seed) for int seeds of every size and sign, the generator
ADK's engine builds per seeded injection (environment_simulation_engine.py, __init__) and draws
from with random() (simulate). Enough to check a Mersenne Twister with CPython's init_by_array
seeding bit for bit, including past the 624-word refill."""

from __future__ import annotations

import random
from typing import Any, Iterator

DRAWS = 64
RAW_WORDS = 24
# Draw indices (0-based random() calls) past the first refill of the 624-word state.
TAIL = [311, 312, 313, 623, 624, 1000, 4999]

SEEDS = [0, 1, -1, 2, 3, 42, -42, 12345, 2**31 - 1, 2**31, 2**32 - 1, 2**32, -(2**32),
         2**32 + 1, 2**53 - 1, 2**53, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), 2**64 - 1, 2**64,
         2**64 + 1, -(2**64 + 1), 2**70, -(2**70), 2**96, 2**100, -(2**100), 10**30,
         2**128 - 1, 2**624, int("7" * 300), -int("9" * 1000)]


def key_words(seed: int) -> list[int]:
  """The init_by_array key CPython builds from an int seed: |seed| as little-endian 32-bit
  words, at least one word (so 0 is [0])."""
  n = abs(seed)
  words = []
  while n:
    words.append(n & 0xFFFFFFFF)
    n >>= 32
  return words or [0]


def record(seed: int, source: str) -> dict[str, Any]:
  raw = random.Random(seed)
  words = [raw.getrandbits(32) for _ in range(RAW_WORDS)]
  gen = random.Random(seed)
  draws = []
  tail = {}
  for index in range(max(TAIL) + 1):
    value = gen.random()
    if index < DRAWS:
      draws.append({"repr": repr(value), "int53": int(value * 2**53)})
    if index in TAIL:
      tail[str(index)] = {"repr": repr(value), "int53": int(value * 2**53)}
  return {"seed": str(seed), "source": source, "key_words": key_words(seed),
          "u32": words, "random": draws, "random_at": tail}


def records(extra: int = 30, seed: int = 19937) -> Iterator[dict[str, Any]]:
  for value in SEEDS:
    yield record(value, "hand-picked")
  rng = random.Random(seed)
  for _ in range(extra):
    bits = rng.choice([8, 31, 32, 33, 52, 64, 65, 96, 127, 200])
    value = rng.getrandbits(bits)
    yield record(-value if rng.random() < 0.4 else value, f"generated {bits}-bit")

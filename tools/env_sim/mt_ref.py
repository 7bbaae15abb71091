"""An independent MT19937 with CPython's int seeding (init_by_array over |seed| split into
little-endian 32-bit words), written from the published algorithm, to check mt.jsonl: what a
Rust port must reproduce bit for bit."""

from __future__ import annotations

from typing import Any

N, M = 624, 397
MASK = 0xFFFFFFFF


class MT:
  def __init__(self, key: list[int]):
    self.state = [0] * N
    self._init(19650218)
    s = self.state
    i, j = 1, 0
    for _ in range(max(N, len(key))):
      prev = s[i - 1] ^ (s[i - 1] >> 30)
      s[i] = ((s[i] ^ (prev * 1664525)) + key[j] + j) & MASK
      i, j = i + 1, j + 1
      if i >= N:
        s[0], i = s[N - 1], 1
      if j >= len(key):
        j = 0
    for _ in range(N - 1):
      prev = s[i - 1] ^ (s[i - 1] >> 30)
      s[i] = ((s[i] ^ (prev * 1566083941)) - i) & MASK
      i += 1
      if i >= N:
        s[0], i = s[N - 1], 1
    s[0] = 0x80000000
    self.index = N

  def _init(self, seed: int) -> None:
    s = self.state
    s[0] = seed
    for i in range(1, N):
      s[i] = (1812433253 * (s[i - 1] ^ (s[i - 1] >> 30)) + i) & MASK

  def _refill(self) -> None:
    s = self.state
    for k in range(N):
      y = (s[k] & 0x80000000) | (s[(k + 1) % N] & 0x7FFFFFFF)
      s[k] = s[(k + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    self.index = 0

  def u32(self) -> int:
    if self.index >= N:
      self._refill()
    y = self.state[self.index]
    self.index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)

  def int53(self) -> int:
    return (self.u32() >> 5) * 67108864 + (self.u32() >> 6)


def words(seed: int) -> list[int]:
  n, out = abs(seed), []
  while n:
    out.append(n & MASK)
    n >>= 32
  return out or [0]


def check(case: dict[str, Any]) -> str | None:
  key = words(int(case["seed"]))
  if key != case["key_words"]:
    return "key words differ"
  raw = MT(key)
  if [raw.u32() for _ in case["u32"]] != case["u32"]:
    return "raw 32-bit outputs differ"
  gen = MT(key)
  at = {int(k): v for k, v in case["random_at"].items()}
  for index in range(max(at) + 1):
    value = gen.int53()
    want = case["random"][index] if index < len(case["random"]) else at.get(index)
    if want is None:
      continue
    if value != want["int53"] or repr(value / 9007199254740992) != want["repr"]:
      return f"draw {index} differs"
  return None

//! The per-thread token cache behind ROUGE: every distinct chunk is tokenized and stemmed once
//! and its tokens get dense ids, so scoring a pair compares integers.

use super::porter::stem_ascii_into;
use super::tokenize::for_each_chunk;
use std::cell::RefCell;

/// Hash for the cache tables: a multiply-rotate over 8-byte words with a final
/// avalanche, because the table index uses the low bits (plain FxHash leaves
/// them poorly mixed) and wasm has no cheap 128-bit multiply.
fn hash(bytes: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    // Fixed-size array references, so each word is one load (`copy_from_slice` stays a call in
    // the size-optimised wasm build).
    let mut rest = bytes;
    while let Some((&word, tail)) = rest.split_first_chunk::<8>() {
        h = (h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(K);
        rest = tail;
    }
    let tail = rest.iter().rev().fold(0u64, |t, &b| (t << 8) | u64::from(b));
    h = (h.rotate_left(23) ^ tail).wrapping_mul(K);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h ^ (h >> 32)) as u32
}

/// A string -> dense id table: texts live in one arena and the index is open
/// addressing over ids, so filling and clearing it allocates nothing per entry.
#[derive(Default)]
struct Interner {
    arena: String,
    spans: Vec<(usize, usize)>,
    /// Per id, the key itself when it has at most 7 bytes (`inline_key`), so most probes (most
    /// words are short) settle without touching the arena. Ids are dense and frequent words get
    /// small ones, so this stays in cache where the index's slots would not.
    inline: Vec<u64>,
    /// One per slot; the length is 0 or a power of two.
    slots: Vec<Slot>,
}

/// A slot of the index: `id + 1` (0 = empty) and the key's hash; eight bytes, so the index
/// of a 30,000-word vocabulary takes half a megabyte.
#[derive(Clone, Copy, Default)]
struct Slot {
    id: u32,
    hash: u32,
}

/// A key of at most 7 bytes as one number: its bytes and, in the top byte, its length (so two
/// keys give the same number exactly when they are equal). 0 for longer keys.
fn inline_key(key: &str) -> u64 {
    let b = key.as_bytes();
    if b.is_empty() || b.len() > 7 {
        return 0;
    }
    let mut buf = [0u8; 8];
    for (d, s) in buf.iter_mut().zip(b) {
        *d = *s;
    }
    buf[7] = b.len() as u8;
    u64::from_le_bytes(buf)
}

impl Interner {
    fn len(&self) -> usize {
        self.spans.len()
    }

    fn text(&self, id: usize) -> &str {
        self.spans
            .get(id)
            .and_then(|&(start, end)| self.arena.get(start..end))
            .unwrap_or_default()
    }

    /// The id of `key` (whose hash is `h`), inserting it if new.
    fn intern(&mut self, key: &str, h: u32) -> Option<u32> {
        if let Some(id) = self.find(key, h) {
            return Some(id);
        }
        if (self.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let id = u32::try_from(self.len()).ok().filter(|&id| id < u32::MAX)?;
        let start = self.arena.len();
        self.arena.push_str(key);
        self.spans.push((start, self.arena.len()));
        self.inline.push(inline_key(key));
        self.place(Slot { id: id + 1, hash: h });
        Some(id)
    }

    fn find(&self, key: &str, h: u32) -> Option<u32> {
        let mask = self.slots.len().checked_sub(1)?;
        let inline = inline_key(key);
        let mut i = h as usize & mask;
        loop {
            let slot = self.slots.get(i)?;
            let id = slot.id.checked_sub(1)?;
            if slot.hash == h
                && self.inline.get(id as usize) == Some(&inline)
                && (inline != 0 || self.text(id as usize) == key)
            {
                return Some(id);
            }
            i = (i + 1) & mask;
        }
    }

    fn place(&mut self, new: Slot) {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = new.hash as usize & mask;
        // The load factor stays at most 1/2, so a free slot exists.
        while let Some(slot) = self.slots.get_mut(i) {
            if slot.id == 0 {
                *slot = new;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(256);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        for slot in old.into_iter().filter(|s| s.id != 0) {
            self.place(slot);
        }
    }

    /// Forgets every entry but keeps the allocations for the refill.
    fn clear(&mut self) {
        self.arena.clear();
        self.spans.clear();
        self.inline.clear();
        self.slots.fill(Slot::default());
    }
}

/// Past this many distinct chunks, or this many bytes of cached text, the cache
/// is emptied before a call: memory stays bounded on long runs while the
/// vocabulary of an eval set stays warm.
const CACHE_ENTRIES: usize = 50_000;
/// `chunk_token`'s mark for a chunk without a token (no id reaches it: `intern` stops short).
const NO_TOKEN: u32 = u32::MAX;
const CACHE_BYTES: usize = 8 << 20;

/// Memoised chunk -> token id, so each distinct word is stemmed once per thread
/// and ROUGE counting compares integers. Ids are dense and equal exactly when the
/// token texts are equal; they stay valid for one `with_cache` call.
#[derive(Default)]
pub(crate) struct TokenCache {
    chunks: Interner,
    /// Token id per chunk id (`None`: the chunk yields no token).
    /// (`NO_TOKEN`: the chunk yields none; four bytes an entry rather than `Option`'s eight.)
    chunk_token: Vec<u32>,
    tokens: Interner,
    stem_buf: Vec<u8>,
    /// Per token id, `(round, count)`: the candidate's counts in [`TokenCache::multiset_overlap`]
    /// round `round`, so no table is cleared between pairs.
    counts: Vec<(u32, u32)>,
    round: u32,
}

thread_local! {
    static CACHE: RefCell<TokenCache> = RefCell::new(TokenCache::default());
}

/// Runs `f` on this thread's token cache, or on a fresh one if the thread-local
/// is unavailable (thread teardown, re-entry), so callers never panic. `FnMut`
/// lets the fallback call `f` without an unreachable branch.
pub(crate) fn with_cache<R>(mut f: impl FnMut(&mut TokenCache) -> R) -> R {
    CACHE
        .try_with(|cell| match cell.try_borrow_mut() {
            Ok(mut cache) => {
                let bytes = cache.chunks.arena.len() + cache.tokens.arena.len();
                if cache.chunk_token.len() > CACHE_ENTRIES || bytes > CACHE_BYTES {
                    cache.chunks.clear();
                    cache.chunk_token.clear();
                    cache.tokens.clear();
                    cache.counts.clear();
                }
                f(&mut cache)
            }
            Err(_) => f(&mut TokenCache::default()),
        })
        .unwrap_or_else(|_| f(&mut TokenCache::default()))
}

impl TokenCache {
    /// Appends the token ids of `text` to `out`.
    pub(crate) fn token_ids(&mut self, text: &str, out: &mut Vec<u32>) {
        for_each_chunk(text, |chunk| {
            if let Some(id) = self.chunk_token(chunk) {
                out.push(id);
            }
        });
    }

    /// Whether `text` yields at least one token: its chunks, segment by segment (chunks never
    /// reach across ASCII whitespace), up to the first that has a token.
    pub(crate) fn has_token(&mut self, text: &str) -> bool {
        // Through `token_ids`, so the module holds one copy of the chunking code.
        let mut ids = Vec::new();
        text.split([' ', '\t', '\n', '\r']).any(|segment| {
            self.token_ids(segment, &mut ids);
            !ids.is_empty()
        })
    }

    /// `Σ_t min(count_a[t], count_b[t])` over two lists of this cache's token ids: the first
    /// list counted in a table indexed by id, the second matched against it (no sorting).
    pub(crate) fn multiset_overlap(&mut self, a: &[u32], b: &[u32]) -> usize {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            // Once in 2^32 pairs: forget every earlier round's marks.
            self.counts.fill((0, 0));
            self.round = 1;
        }
        let round = self.round;
        if self.counts.len() < self.tokens.len() {
            self.counts.resize(self.tokens.len(), (0, 0));
        }
        for &t in a {
            if let Some(e) = self.counts.get_mut(t as usize) {
                if e.0 != round {
                    *e = (round, 0);
                }
                e.1 += 1;
            }
        }
        let mut overlap = 0;
        for &t in b {
            if let Some(e) = self.counts.get_mut(t as usize) {
                if e.0 == round && e.1 > 0 {
                    e.1 -= 1;
                    overlap += 1;
                }
            }
        }
        overlap
    }

    /// The token text of an id from this cache.
    pub(crate) fn token(&self, id: u32) -> &str {
        self.tokens.text(id as usize)
    }

    fn chunk_token(&mut self, chunk: &str) -> Option<u32> {
        let h = hash(chunk.as_bytes());
        if let Some(id) = self.chunks.find(chunk, h) {
            return self.chunk_token.get(id as usize).copied().filter(|&t| t != NO_TOKEN);
        }
        let token = self.compute_token(chunk);
        // Only a cache too large for u32 ids fails here; the token still counts.
        if self.chunks.intern(chunk, h).is_some() {
            self.chunk_token.push(token.unwrap_or(NO_TOKEN));
        }
        token
    }

    fn compute_token(&mut self, chunk: &str) -> Option<u32> {
        let token: &str = if !chunk.is_ascii() {
            // Non-ASCII chunks are kept whole and unstemmed.
            chunk
        } else if chunk.len() > 3 {
            // An ASCII chunk is one [a-z0-9]+ word for rouge's classic
            // tokenizer, which stems only words longer than three characters.
            stem_ascii_into(chunk.as_bytes(), &mut self.stem_buf);
            std::str::from_utf8(&self.stem_buf).unwrap_or_default()
        } else {
            chunk
        };
        // rouge's final `^[a-z0-9]+$` filter, which only an empty stem could fail.
        if token.is_empty() {
            return None;
        }
        self.tokens.intern(token, hash(token.as_bytes()))
    }
}

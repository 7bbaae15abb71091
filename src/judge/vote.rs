//! Sample voting and exact means: ADK's majority votes (ties negative) and `statistics.mean`.

/// Python's `statistics.mean`: the exactly rounded mean of finite doubles (exact rational sum,
/// one rounding), which differs from `sum / n` in the last bit for many inputs. None when empty.
pub fn exact_mean(values: &[f64]) -> Option<f64> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    if values.iter().any(|v| !v.is_finite()) {
        return Some(values.iter().sum::<f64>() / n as f64);
    }
    let parts: Vec<(bool, u64, i32)> = values.iter().filter(|v| **v != 0.0).map(|v| decompose(*v)).collect();
    let Some(emin) = parts.iter().map(|p| p.2).min() else {
        return Some(0.0);
    };
    // Σ ±m·2^(e−emin) as sign + magnitude big integers.
    let mut pos = Big::zero();
    let mut neg = Big::zero();
    for (negative, m, e) in &parts {
        let shift = (*e - emin) as u32;
        let term = Big::from_u64(*m).shl(shift);
        if *negative {
            neg.add_assign(&term);
        } else {
            pos.add_assign(&term);
        }
    }
    let (negative, mag) = match pos.cmp(&neg) {
        std::cmp::Ordering::Equal => return Some(0.0),
        std::cmp::Ordering::Greater => (false, pos.sub(&neg)),
        std::cmp::Ordering::Less => (true, neg.sub(&pos)),
    };
    let nbits = usize::BITS - n.leading_zeros();
    let want = 66 + nbits;
    let k = want.saturating_sub(mag.bits());
    let (q, rem_nonzero) = mag.shl(k).div_small(n as u32);
    let qbits = q.bits();
    let drop = qbits.saturating_sub(64);
    let top = q.shr_to_u64(drop);
    let sticky = rem_nonzero || q.low_bits_nonzero(drop);
    // value = top · 2^(emin − k + drop), with `sticky` below the last bit.
    let exp = emin - k as i32 + drop as i32;
    let r = round_to_f64(top, sticky, exp);
    Some(if negative { -r } else { r })
}

fn decompose(v: f64) -> (bool, u64, i32) {
    let bits = v.to_bits();
    let negative = bits >> 63 == 1;
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        (negative, frac, -1074)
    } else {
        (negative, frac | (1u64 << 52), biased - 1075)
    }
}

/// `top · 2^exp` rounded half-to-even to a double; `top` has 64 significant bits.
fn round_to_f64(top: u64, sticky: bool, exp: i32) -> f64 {
    let lead = 64 - top.leading_zeros() as i32;
    // Normal doubles keep 53 bits; below the normal range fewer.
    let mut keep = 53;
    let min_exp_of_lsb = -1074;
    let lsb_exp = exp + lead - keep;
    if lsb_exp < min_exp_of_lsb {
        keep -= min_exp_of_lsb - lsb_exp;
    }
    if keep <= 0 {
        return 0.0;
    }
    let dropped = (lead - keep) as u32;
    let (mut base, half, rest) = if dropped == 0 {
        (top, false, sticky)
    } else {
        let mask = (1u64 << dropped) - 1;
        let low = top & mask;
        let halfway = 1u64 << (dropped - 1);
        (top >> dropped, low >= halfway, (low & (halfway - 1)) != 0 || sticky)
    };
    if half && (rest || base & 1 == 1) {
        base += 1;
    }
    ldexp(base as f64, exp + dropped as i32)
}

fn ldexp(mut x: f64, mut e: i32) -> f64 {
    // Multiply by powers of two in steps that stay exact.
    while e > 1000 {
        x *= f64::from_bits(((1000 + 1023) as u64) << 52);
        e -= 1000;
    }
    while e < -1000 {
        x *= f64::from_bits(((1023 - 1000) as u64) << 52);
        e += 1000;
    }
    x * f64::from_bits(((e + 1023) as u64) << 52)
}

/// Little-endian u32 limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn zero() -> Big {
        Big(Vec::new())
    }
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn bits(&self) -> u32 {
        match self.0.last() {
            None => 0,
            Some(top) => (self.0.len() as u32 - 1) * 32 + (32 - top.leading_zeros()),
        }
    }
    fn shl(&self, s: u32) -> Big {
        let limbs = (s / 32) as usize;
        let bits = s % 32;
        let mut out = vec![0u32; limbs];
        let mut carry = 0u32;
        for &l in &self.0 {
            if bits == 0 {
                out.push(l);
            } else {
                out.push((l << bits) | carry);
                carry = l >> (32 - bits);
            }
        }
        if carry != 0 {
            out.push(carry);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    fn add_assign(&mut self, o: &Big) {
        if self.0.len() < o.0.len() {
            self.0.resize(o.0.len(), 0);
        }
        let mut carry = 0u64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let s = *limb as u64 + o.0.get(i).copied().unwrap_or(0) as u64 + carry;
            *limb = s as u32;
            carry = s >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }
    /// self − o, with self ≥ o.
    fn sub(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for (i, &l) in self.0.iter().enumerate() {
            let mut d = l as i64 - o.0.get(i).copied().unwrap_or(0) as i64 - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            }
            out.push(d as u32);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    fn cmp(&self, o: &Big) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }
    fn div_small(&self, d: u32) -> (Big, bool) {
        let mut out = vec![0u32; self.0.len()];
        let mut rem = 0u64;
        for (i, &l) in self.0.iter().enumerate().rev() {
            let cur = (rem << 32) | l as u64;
            if let Some(o) = out.get_mut(i) {
                *o = (cur / d as u64) as u32;
            }
            rem = cur % d as u64;
        }
        let mut b = Big(out);
        b.trim();
        (b, rem != 0)
    }
    fn shr_to_u64(&self, s: u32) -> u64 {
        let mut v = 0u64;
        for i in 0..64u32 {
            let bit = s + i;
            let limb = self.0.get((bit / 32) as usize).copied().unwrap_or(0);
            if (limb >> (bit % 32)) & 1 == 1 {
                v |= 1 << i;
            }
        }
        v
    }
    fn low_bits_nonzero(&self, s: u32) -> bool {
        (0..s).any(|bit| (self.0.get((bit / 32) as usize).copied().unwrap_or(0) >> (bit % 32)) & 1 == 1)
    }
}

/// A binary vote (ADK's final_response_match_v2 / per-turn simulator rule): the index of the
/// winning sample. Samples with score 1 are positive, 0 negative, others ignored; no votes → the
/// first sample; positives > negatives → the first positive; otherwise (ties too) → the first
/// negative.
pub fn binary_vote(scores: &[Option<f64>]) -> usize {
    let first = |want: f64| scores.iter().position(|s| *s == Some(want));
    let pos = scores.iter().filter(|s| **s == Some(1.0)).count();
    let neg = scores.iter().filter(|s| **s == Some(0.0)).count();
    if pos == 0 && neg == 0 {
        0
    } else if pos > neg {
        first(1.0).unwrap_or(0)
    } else {
        first(0.0).unwrap_or(0)
    }
}

/// The per-rubric majority vote of the rubric metrics: for each rubric id seen (first-seen
/// order) the winning entry: no non-null → the first null; more 1.0 than other → the first 1.0;
/// otherwise the first non-1.0 entry.
pub fn rubric_vote<T: Clone>(samples: &[Vec<(String, Option<f64>, T)>]) -> Vec<(String, Option<f64>, T)> {
    let mut order: Vec<&str> = Vec::new();
    for s in samples {
        for (id, _, _) in s {
            if !order.contains(&id.as_str()) {
                order.push(id);
            }
        }
    }
    let mut out = Vec::new();
    for id in order {
        let entries: Vec<&(String, Option<f64>, T)> = samples.iter().flatten().filter(|e| e.0 == id).collect();
        let nulls: Vec<_> = entries.iter().filter(|e| e.1.is_none()).collect();
        let pos: Vec<_> = entries.iter().filter(|e| e.1 == Some(1.0)).collect();
        let neg: Vec<_> = entries.iter().filter(|e| e.1.is_some() && e.1 != Some(1.0)).collect();
        let pick = if pos.is_empty() && neg.is_empty() {
            nulls.first()
        } else if pos.len() > neg.len() {
            pos.first()
        } else {
            neg.first()
        };
        if let Some(e) = pick {
            out.push((***e).clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_mean_matches_python_statistics() {
        assert_eq!(exact_mean(&[0.1, 0.2, 0.3]), Some(0.2));
        assert_eq!(exact_mean(&[1.0, 0.0, 1.0]), Some(2.0 / 3.0));
        assert_eq!(exact_mean(&[]), None);
        assert_eq!(exact_mean(&[0.0, 0.0]), Some(0.0));
        assert_eq!(exact_mean(&[1.0, 1.0, 0.5]), Some(2.5 / 3.0));
        // statistics.mean([2/3, 1, 0.5]) == 0.7222222222222222
        assert_eq!(exact_mean(&[2.0 / 3.0, 1.0, 0.5]), Some(0.7222222222222222));
        // statistics.mean([1/3, 1/3, 1/3]) == 0.3333333333333333
        assert_eq!(exact_mean(&[1.0 / 3.0; 3]), Some(1.0 / 3.0));
        assert_eq!(exact_mean(&[-1.0, 3.0]), Some(1.0));
        assert_eq!(exact_mean(&[1e300, 1e300]), Some(1e300));
        assert_eq!(exact_mean(&[5e-324, 5e-324]), Some(5e-324));
    }

    #[test]
    fn exact_mean_differs_from_naive_sum_where_python_does() {
        // Python: statistics.mean([0.1]*10) == 0.1, while sum([0.1]*10)/10 == 0.09999999999999999
        assert_eq!(exact_mean(&[0.1; 10]), Some(0.1));
        assert_ne!([0.1f64; 10].iter().sum::<f64>() / 10.0, 0.1);
    }

    #[test]
    fn binary_votes_follow_the_spec_table() {
        let v = |s: &str| -> Vec<Option<f64>> {
            s.chars()
                .map(|c| match c {
                    'V' => Some(1.0),
                    'I' => Some(0.0),
                    _ => None,
                })
                .collect()
        };
        let score = |s: &str| v(s)[binary_vote(&v(s))];
        assert_eq!(score("VVVII"), Some(1.0));
        assert_eq!(score("VVIII"), Some(0.0));
        assert_eq!(score("VVIIN"), Some(0.0));
        assert_eq!(score("VNNNN"), Some(1.0));
        assert_eq!(score("NNNNN"), None);
        assert_eq!(score("VI"), Some(0.0));
    }

    #[test]
    fn rubric_votes_follow_the_spec() {
        let s = |a: f64, b: f64| vec![("r1".to_string(), Some(a), ()), ("r2".to_string(), Some(b), ())];
        let voted = rubric_vote(&[s(1.0, 0.0), s(1.0, 1.0), s(0.0, 0.0)]);
        assert_eq!(
            voted.iter().map(|e| e.1).collect::<Vec<_>>(),
            vec![Some(1.0), Some(0.0)]
        );
        let voted = rubric_vote(&[s(1.0, 0.0), s(0.0, 1.0)]);
        assert_eq!(
            voted.iter().map(|e| e.1).collect::<Vec<_>>(),
            vec![Some(0.0), Some(0.0)]
        );
    }
}

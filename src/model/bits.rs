//! [`Bits`]: the fixed-width bitsets every shape is built from, one trait over the machine words
//! (`u16` .. `u128`) and arrays of `u64` for grids wider than 128 cells.
//!
//! A shape picks one width for its cell sets (at least `n * n` bits) and one for its digit
//! masks (at least `n` bits); code over [`Bits`] never sees the words.

use std::fmt::Debug;
use std::hash::Hash;

/// A fixed-width set of small numbers (bit positions): the storage of a shape's cell sets and
/// digit masks.
pub trait Bits: Copy + Eq + Ord + Hash + Default + Send + Sync + Debug + 'static {
    /// How many positions the set can hold.
    const WIDTH: usize;
    /// No position.
    const ZERO: Self;
    /// Positions `0..n`.
    fn low(n: usize) -> Self;
    /// Position `i` alone.
    fn bit(i: usize) -> Self;
    /// Whether position `i` is in the set.
    fn has(self, i: usize) -> bool;
    /// Adds position `i`.
    fn set(&mut self, i: usize);
    /// Takes position `i` out.
    fn clear(&mut self, i: usize);
    /// The positions in either.
    fn or(self, other: Self) -> Self;
    /// The positions of `self` not in `other`.
    fn and_not(self, other: Self) -> Self;
    /// The positions in both.
    fn and(self, other: Self) -> Self;
    /// The positions in exactly one.
    fn xor(self, other: Self) -> Self;
    /// Whether no position is set.
    fn is_zero(self) -> bool;
    /// How many positions.
    fn count(self) -> u32;
    /// The lowest position, if any.
    fn first(self) -> Option<usize>;
    /// The low 32 bits (a digit mask as the plugin ABI's `u32`).
    fn low_u32(self) -> u32;
    /// The positions, lowest first.
    #[inline]
    fn ones(self) -> Ones<Self> {
        Ones(self)
    }
}

/// The positions of a [`Bits`], lowest first.
#[derive(Clone, Copy)]
pub struct Ones<B>(B);

impl<B: Bits> Iterator for Ones<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        let i = self.0.first()?;
        self.0.clear(i);
        Some(i)
    }
}

macro_rules! word_bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            const WIDTH: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            #[inline]
            fn low(n: usize) -> Self {
                if n >= Self::WIDTH { <$t>::MAX } else { (1 << n) - 1 }
            }
            #[inline]
            fn bit(i: usize) -> Self { 1 << i }
            #[inline]
            fn has(self, i: usize) -> bool { self >> i & 1 != 0 }
            #[inline]
            fn set(&mut self, i: usize) { *self |= 1 << i }
            #[inline]
            fn clear(&mut self, i: usize) { *self &= !(1 << i) }
            #[inline]
            fn or(self, other: Self) -> Self { self | other }
            #[inline]
            fn and_not(self, other: Self) -> Self { self & !other }
            #[inline]
            fn and(self, other: Self) -> Self { self & other }
            #[inline]
            fn xor(self, other: Self) -> Self { self ^ other }
            #[inline]
            fn is_zero(self) -> bool { self == 0 }
            #[inline]
            fn count(self) -> u32 { self.count_ones() }
            #[inline]
            fn first(self) -> Option<usize> {
                (self != 0).then(|| self.trailing_zeros() as usize)
            }
            #[inline]
            fn low_u32(self) -> u32 { self as u32 }
        }
    )*};
}
word_bits!(u16, u32, u64, u128);

/// `K` words of 64 bits: the cell sets of grids above 128 cells (12x12, 16x16, 25x25).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Words<const K: usize>([u64; K]);

impl<const K: usize> Words<K> {
    /// Positions `0..n`, in a constant.
    pub const fn lowest(n: usize) -> Words<K> {
        let mut w = [0u64; K];
        let mut k = 0;
        while k < K {
            let from = 64 * k;
            w[k] = if n <= from {
                0
            } else if n - from >= 64 {
                u64::MAX
            } else {
                (1 << (n - from)) - 1
            };
            k += 1;
        }
        Words(w)
    }
}

impl<const K: usize> Default for Words<K> {
    fn default() -> Self {
        Words([0; K])
    }
}

impl<const K: usize> Bits for Words<K> {
    const WIDTH: usize = 64 * K;
    const ZERO: Self = Words([0; K]);
    fn low(n: usize) -> Self {
        Words::lowest(n)
    }
    #[inline]
    fn bit(i: usize) -> Self {
        let mut w = [0u64; K];
        w[i / 64] = 1 << (i % 64);
        Words(w)
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    #[inline]
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    #[inline]
    fn or(self, other: Self) -> Self {
        Words(std::array::from_fn(|k| self.0[k] | other.0[k]))
    }
    #[inline]
    fn and_not(self, other: Self) -> Self {
        Words(std::array::from_fn(|k| self.0[k] & !other.0[k]))
    }
    #[inline]
    fn and(self, other: Self) -> Self {
        Words(std::array::from_fn(|k| self.0[k] & other.0[k]))
    }
    #[inline]
    fn xor(self, other: Self) -> Self {
        Words(std::array::from_fn(|k| self.0[k] ^ other.0[k]))
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn first(self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(k, w)| 64 * k + w.trailing_zeros() as usize)
    }
    #[inline]
    fn low_u32(self) -> u32 {
        self.0[0] as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bits>() {
        let n = B::WIDTH.min(200);
        let all = B::low(n);
        assert_eq!(all.count() as usize, n);
        assert_eq!(B::low(0), B::ZERO);
        let mut s = B::ZERO;
        for i in [0, 3, n - 1] {
            s.set(i);
        }
        assert_eq!(s.ones().collect::<Vec<_>>(), [0, 3, n - 1]);
        assert!(s.has(3) && !s.has(2));
        s.clear(3);
        assert_eq!(s.count(), 2);
        assert_eq!(s.first(), Some(0));
        assert_eq!(all.and_not(s).count() as usize, n - 2);
        assert_eq!(s.or(B::bit(1)).and_not(s), B::bit(1));
        assert!(B::ZERO.first().is_none() && B::ZERO.is_zero() && !s.is_zero());
        assert_eq!(s.and(B::bit(0)), B::bit(0));
        assert_eq!(s.xor(s), B::ZERO);
    }

    #[test]
    fn every_width_behaves_as_a_set() {
        exercise::<u16>();
        exercise::<u32>();
        exercise::<u64>();
        exercise::<u128>();
        exercise::<Words<3>>();
        exercise::<Words<10>>();
    }
}

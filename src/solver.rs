//! Brute-force solver: solve and count solutions up to a limit.
//!
//! Used for uniqueness checks, for verifying every step against the solution, and by the
//! generator.
//!
//! # Design
//!
//! A bitboard depth-first search in the style of the well-known "band" solvers:
//!
//! * The grid is split into three horizontal bands of 27 cells (3 rows of 9). For each digit
//!   and each band a `u32` holds the 27-bit set of cells where that digit is still a
//!   candidate (bit `9 * row_in_band + column`), so a board is 27 such words.
//! * Propagation works one (digit, band) word at a time. Each of the three rows must hold the
//!   digit exactly once and so must each of the three boxes of the band; seen as a 3x3 matrix
//!   of "mini-rows" (row x box), the digit's placements form a permutation matrix. A lookup
//!   table keeps only the mini-rows that take part in at least one such permutation, which
//!   covers box/line interactions inside the band and hidden singles in rows and boxes. A row
//!   left with a single cell is a placement: its column is cleared from the other rows and
//!   bands, and its cell from the other digits.
//! * Naked singles are found with bit-sliced counting over the nine digit words of a band.
//! * A column pass works on a digit's three band words folded onto columns: a box whose
//!   candidates lie in one column clears that column in the other bands, a column whose
//!   candidates lie in one band keeps its box in that band to that column (box/line
//!   interactions across bands), and a column with one candidate cell left is a hidden single.
//!   It only visits digits whose words changed since its last pass.
//! * When propagation stalls the search guesses on the bivalue cell with the most peers
//!   holding one of its digits, bivalue peers weighing more (fewest candidates when there is
//!   no bivalue cell), on a copy of the board kept in the recursion's stack frame (no heap
//!   allocation).
//! * On x86-64 the search is also compiled with POPCNT/BMI/LZCNT, used when the CPU has them
//!   (checked at run time), since the crate is built for baseline x86-64; that copy finds a
//!   word's mini-row occupancy with one `pext` (a shorter dependency chain than three table
//!   lookups) unless `pext` is slow on the CPU (AMD before Zen 3: a third copy with the
//!   tables). The guess choice reads cells' digits with SSE2 (baseline x86-64).
//!
//! Input values: `0` is an empty cell and `1..=9` a given. Any value above 9 makes the grid
//! invalid: it is treated like clashing givens (no solution).

/// What a uniqueness check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// No solution.
    None,
    /// Exactly one solution (81 values).
    Unique(Box<[u8; 81]>),
    /// Two or more solutions.
    Multiple,
}

/// Counts the solutions of `values` (81 cells, 0 = empty, 1..=9 givens), stopping at `limit`.
///
/// Returns a number in `0..=limit`. Clashing givens, or any value above 9, give 0.
pub fn count_solutions(values: &[u8; 81], limit: u32) -> u32 {
    if limit == 0 {
        return 0;
    }
    let mut s = Search::new(limit, false);
    s.run(values);
    s.count
}

/// Solves `values` and says whether the solution is unique (counts up to 2).
///
/// Clashing givens, or any value above 9, give [`Solutions::None`].
pub fn analyze(values: &[u8; 81]) -> Solutions {
    let mut s = Search::new(2, true);
    s.run(values);
    match s.count {
        0 => Solutions::None,
        1 => Solutions::Unique(Box::new(s.first)),
        _ => Solutions::Multiple,
    }
}

/// The first solution found, if any (not necessarily unique).
pub fn solve(values: &[u8; 81]) -> Option<[u8; 81]> {
    let mut s = Search::new(1, true);
    s.run(values);
    (s.count > 0).then_some(s.first)
}

/// All 27 cells of a band.
const BAND: u32 = 0x7FF_FFFF;
/// One row (9 cells) of a band.
const ROW: u32 = 0x1FF;
/// Multiplier that copies a 9-bit column set onto the three rows of a band.
const COPY_ROWS: u32 = 1 | 1 << 9 | 1 << 18;

/// For a 9-bit row: bit `k` set when the row has a candidate in box `k` of the band.
static ROW_BOXES: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut r = 0;
    while r < 512 {
        let mut k = 0;
        while k < 3 {
            if r & (7 << (3 * k)) != 0 {
                t[r] |= 1 << k;
            }
            k += 1;
        }
        r += 1;
    }
    t
};

/// Indexed by a 9-bit "mini-row" occupancy (bit `3 * row + box`): the 27-bit mask of the
/// mini-rows that belong to at least one permutation (each row and each box used exactly once)
/// made only of occupied mini-rows; 0 when there is none.
static PERMUTATION_CELLS: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = crate::geometry::PERMUTATIONS_OF_3;
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let mut bits = 0u32;
            let mut r = 0;
            while r < 3 {
                bits |= 1 << (3 * r + PERMS[p][r]);
                r += 1;
            }
            if m as u32 & bits == bits {
                let mut r = 0;
                while r < 3 {
                    t[m] |= 7 << (9 * r + 3 * PERMS[p][r]);
                    r += 1;
                }
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// For a 9-bit column set of a band: the columns alone in their box (a box whose candidates
/// all lie in one column), which other bands must then give up.
static POINTING: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            let b = (m >> (3 * k)) & 7;
            if b == 1 || b == 2 || b == 4 {
                t[m] |= (b << (3 * k)) as u16;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// For a 9-bit set of columns whose candidates lie in one band only: the columns that band
/// keeps (in a box holding such a column, only those columns).
static CLAIM_KEEP: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            let b = (m >> (3 * k)) & 7;
            t[m] |= (if b == 0 { 7 } else { b } << (3 * k)) as u16;
            k += 1;
        }
        m += 1;
    }
    t
};

/// For a position in a band: the 27-bit mask of its column in a band.
static COLUMN_IN_BAND: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        t[p] = (1 << (p % 9)) * COPY_ROWS;
        p += 1;
    }
    t
};

/// For a position in a band: the 27-bit mask of its row, box and column in that band (the
/// cell itself included).
static PEERS_IN_BAND: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        t[p] = (ROW << (p / 9 * 9))
            | ((7 << (p % 9 / 3 * 3)) * COPY_ROWS)
            | ((1 << (p % 9)) * COPY_ROWS);
        p += 1;
    }
    t
};

/// For a 9-bit column set of a band: the 27-bit mask of the boxes holding one of the columns.
static BOXES_OF_COLUMNS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            if m & (7 << (3 * k)) != 0 {
                t[m] |= (7 << (3 * k)) * COPY_ROWS;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// Indexed by a 3-bit set of rows: the 27-bit mask of those rows.
const ROWS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut m = 0;
    while m < 8 {
        let mut r = 0;
        while r < 3 {
            if m & (1 << r) != 0 {
                t[m] |= ROW << (9 * r);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// The mini-row occupancy of a band word: bit `3 * row + box` set when the row has a
/// candidate in the box. `PEXT` is true only in code compiled with BMI2 (`search_bmi`, chosen
/// after the CPU was checked, and only where `pext` is fast: see [`fast_pext`]), where one
/// `pext` replaces three table lookups (a shorter dependency chain in the update).
#[inline(always)]
fn mini_rows<const PEXT: bool>(a: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        // SAFETY: `PEXT` is only set in `search_bmi`, which runs only on CPUs with BMI2.
        let m = unsafe { std::arch::x86_64::_pext_u32(a | a >> 1 | a >> 2, 0x124_9249) };
        return (m & 511) as usize;
    }
    (ROW_BOXES[(a & ROW) as usize] as usize
        | (ROW_BOXES[((a >> 9) & ROW) as usize] as usize) << 3
        | (ROW_BOXES[((a >> 18) & ROW) as usize] as usize) << 6)
        & 511
}

/// Reads a cell's digit mask (the guess choice reads it for every bivalue cell). On x86-64 the
/// nine words of each band sit in three SSE2 registers: a cell's mask is three shifts moving
/// its bit to each lane's sign bit and three `movmskps`, instead of nine shifts and masks.
#[cfg(target_arch = "x86_64")]
#[repr(align(16))]
struct CellDigits([[u32; 12]; 3]);

#[cfg(target_arch = "x86_64")]
impl CellDigits {
    #[inline(always)]
    fn new(b: &Board) -> CellDigits {
        let mut t = CellDigits([[0; 12]; 3]);
        for (band, w) in t.0.iter_mut().enumerate() {
            for (d, x) in w.iter_mut().take(9).enumerate() {
                *x = b.cand[3 * d + band];
            }
        }
        t
    }

    /// The digits (bit `d` for digit `d + 1`) still possible at `pos` of `band`.
    #[inline(always)]
    fn at(&self, band: usize, pos: u32) -> u32 {
        use std::arch::x86_64::{
            __m128i, _mm_castsi128_ps, _mm_cvtsi32_si128, _mm_load_si128, _mm_movemask_ps,
            _mm_sll_epi32,
        };
        let w = &self.0[band];
        // SAFETY: SSE2 is part of the x86-64 baseline, always present; the loads read 16
        // aligned bytes inside `w` (the struct is 16-byte aligned, rows of 48 bytes).
        unsafe {
            let sh = _mm_cvtsi32_si128(31 - pos as i32);
            let m = |k: usize| {
                let x = _mm_load_si128(w[k..k + 4].as_ptr() as *const __m128i);
                _mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(x, sh))) as u32
            };
            m(0) | m(4) << 4 | m(8) << 8
        }
    }
}

/// The portable version: the board's words read one by one.
#[cfg(not(target_arch = "x86_64"))]
struct CellDigits<'a>(&'a Board);

#[cfg(not(target_arch = "x86_64"))]
impl<'a> CellDigits<'a> {
    #[inline(always)]
    fn new(b: &'a Board) -> CellDigits<'a> {
        CellDigits(b)
    }

    #[inline(always)]
    fn at(&self, band: usize, pos: u32) -> u32 {
        self.0.digits_at(band, pos)
    }
}

/// Whether `pext` is fast on this CPU: everywhere it exists except AMD's (and Hygon's) before
/// Zen 3 (families 0x17 and 0x18), where it is microcoded and takes tens of cycles, more than
/// the three table lookups it replaces. Read once (CPUID can trap in a virtual machine).
#[cfg(target_arch = "x86_64")]
fn fast_pext() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    static FAST: AtomicU8 = AtomicU8::new(0);
    match FAST.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let (v, f) = (
                std::arch::x86_64::__cpuid(0),
                std::arch::x86_64::__cpuid(1).eax,
            );
            let vendor = [
                v.ebx.to_le_bytes(),
                v.edx.to_le_bytes(),
                v.ecx.to_le_bytes(),
            ]
            .concat();
            let base = (f >> 8) & 0xF;
            let family = if base == 0xF {
                base + ((f >> 20) & 0xFF)
            } else {
                base
            };
            let slow = (vendor == b"AuthenticAMD" || vendor == b"HygonGenuine") && family < 0x19;
            FAST.store(if slow { 1 } else { 2 }, Ordering::Relaxed);
            !slow
        }
    }
}

/// Search state: one candidate word per (digit, band), index `3 * digit + band`.
#[derive(Clone, Copy)]
struct Board {
    cand: [u32; 27],
    /// Unsolved cells per band. A row of a word whose one cell is solved is a placed row:
    /// a placement removes its cells from the other digits of the band.
    unsolved: [u32; 3],
    /// Words changed since they were last propagated (bit per word index).
    dirty: u32,
    /// Words changed since the last column pass (bit per word index).
    touched: u32,
}

impl Board {
    /// Builds the board from givens; `None` when givens clash or a value is above 9.
    ///
    /// Without a branch per cell (givens and empty cells alternate unpredictably): the cells
    /// are first gathered per value and band, then each digit's words are built at once.
    #[inline(always)]
    fn new(values: &[u8; 81]) -> Option<Board> {
        // Index `3 * value + band`; value 0 (empty) and values above 9 (slot 10) included.
        let mut given = [0u32; 33];
        for (band, cells) in values.chunks_exact(27).enumerate() {
            for (pos, &v) in cells.iter().enumerate() {
                given[3 * v.min(10) as usize + band] |= 1 << pos;
            }
        }
        if given[30] | given[31] | given[32] != 0 {
            return None;
        }
        // The cells holding a given, per band.
        let filled = [!given[0] & BAND, !given[1] & BAND, !given[2] & BAND];
        let mut b = Board {
            cand: [0; 27],
            // Givens are solved from the start: the words built below already hold all their
            // placement does (the cell in no other digit, the digit out of its row, box and
            // column), so the updates do not place them again (docs/performance.md says what
            // those placement rounds cost).
            unsolved: [given[0], given[1], given[2]],
            dirty: BAND,
            touched: BAND,
        };
        for d in 0..9 {
            let g = [given[3 * d + 3], given[3 * d + 4], given[3 * d + 5]];
            // The digit's givens must lie in distinct rows, boxes and columns: as many of
            // each as there are givens (a clash otherwise).
            let (mut n, mut rows_seen, mut boxes_seen) = (0, 0, 0);
            let mut folds = [0u32; 3];
            let mut rows = [0u32; 3];
            for (band, &x) in g.iter().enumerate() {
                let r = ((x & ROW != 0) as usize)
                    | ((x >> 9 & ROW != 0) as usize) << 1
                    | ((x >> 18 != 0) as usize) << 2;
                let f = (x | x >> 9 | x >> 18) & ROW;
                n += x.count_ones();
                rows_seen += r.count_ones();
                boxes_seen += (ROW_BOXES[f as usize] as u32).count_ones();
                folds[band] = f;
                rows[band] = ROWS[r];
            }
            let cols = folds[0] | folds[1] | folds[2];
            if rows_seen != n || boxes_seen != n || cols.count_ones() != n {
                return None;
            }
            let cols = cols * COPY_ROWS;
            for (band, &x) in g.iter().enumerate() {
                // The digit's givens seen from the band: their rows, boxes and columns lose
                // the digit, and every given cell loses every digit but its own.
                let boxes = BOXES_OF_COLUMNS[folds[band] as usize];
                b.cand[3 * d + band] = BAND & !(filled[band] | rows[band] | boxes | cols) | x;
            }
        }
        Some(b)
    }

    /// Propagates one (digit, band) word to a fixed point, adding the words it changes to
    /// `dirty`. `false` on a contradiction.
    #[inline(always)]
    fn update<const PEXT: bool>(&mut self, i: usize, dirty: &mut u32) -> bool {
        let d = i / 3;
        let band = i % 3;
        let mut a = self.cand[i];
        loop {
            a &= PERMUTATION_CELLS[mini_rows::<PEXT>(a)];
            if a == 0 {
                return false;
            }
            let r0 = a & ROW;
            let r1 = (a >> 9) & ROW;
            let r2 = a >> 18;
            // All ones for a row left with one cell (computed, not looked up: the update
            // is one long dependency chain).
            let one = |r: u32| 0u32.wrapping_sub((r & r.wrapping_sub(1) == 0) as u32);
            let single = (one(r0) & ROW) | (one(r1) & ROW << 9) | (one(r2) & ROW << 18);
            // Rows left with one cell that is not solved yet: new placements (a solved cell
            // is in no other digit's word, so a row holding one is already placed).
            let placed = a & single & self.unsolved[band];
            if placed == 0 {
                break;
            }
            let c0 = placed & ROW;
            let c1 = (placed >> 9) & ROW;
            let c2 = placed >> 18;
            if (c0 & c1) | (c0 & c2) | (c1 & c2) != 0 {
                return false;
            }
            let c = c0 | c1 | c2;
            let cols = c | c << 9 | c << 18;
            self.unsolved[band] &= !placed;
            // Every word of the digit loses the columns and every word of the band the
            // cells; word `i` itself is written back from `a` below.
            // The changed words are collected with shifts by constants and placed with one
            // shift by the digit's or the band's offset: computing each word's index here
            // made the compiler precompute and spill twelve indices on every call.
            let mut of_digit = 0u32;
            let words: &mut [u32; 3] = (&mut self.cand[3 * d..3 * d + 3]).try_into().unwrap();
            for (ob, w) in words.iter_mut().enumerate() {
                let old = *w;
                let n = old & !cols;
                *w = n;
                of_digit |= ((n != old) as u32) << ob;
            }
            let mut of_band = 0u32;
            let words: &mut [u32; 25] = (&mut self.cand[band..band + 25]).try_into().unwrap();
            for od in 0..9 {
                let old = words[3 * od];
                let n = old & !placed;
                words[3 * od] = n;
                of_band |= ((n != old) as u32) << (3 * od);
            }
            *dirty |= ((of_digit << (3 * d)) | (of_band << band)) & !(1 << i);
            let n = a & (!cols | placed);
            if n == a {
                break;
            }
            a = n;
        }
        self.cand[i] = a;
        true
    }

    /// Runs all dirty words to a fixed point.
    ///
    /// The dirty and touched masks are kept in locals (registers) while it runs: kept in the
    /// board, each update's read-modify-write of `dirty` sat between it and the next word's
    /// index, on the critical path.
    #[inline(always)]
    fn update_all<const PEXT: bool>(&mut self) -> bool {
        let mut dirty = self.dirty;
        let mut touched = self.touched;
        let mut ok = true;
        while dirty != 0 {
            touched |= dirty;
            let i = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            if !self.update::<PEXT>(i, &mut dirty) {
                ok = false;
                break;
            }
        }
        self.dirty = dirty;
        self.touched = touched;
        ok
    }

    /// Naked singles in every band: restricts the single's row to the cell so that the next
    /// update places it. `false` when some unsolved cell has no candidate left.
    #[inline(always)]
    fn naked_singles(&mut self) -> bool {
        for band in 0..3 {
            let u = self.unsolved[band];
            if u == 0 {
                continue;
            }
            let mut r1 = 0u32;
            let mut r2 = 0u32;
            for d in 0..9 {
                let x = self.cand[3 * d + band];
                r2 |= r1 & x;
                r1 |= x;
            }
            if u & !r1 != 0 {
                return false;
            }
            let mut singles = u & !r2;
            while singles != 0 {
                let pos = singles.trailing_zeros();
                let bit = 1u32 << pos;
                singles &= singles - 1;
                let keep = !(ROW << (pos / 9 * 9)) | bit;
                for d in 0..9 {
                    let j = 3 * d + band;
                    if self.cand[j] & bit != 0 {
                        let old = self.cand[j];
                        let n = old & keep;
                        self.cand[j] = n;
                        self.dirty |= ((n != old) as u32) << j;
                        break;
                    }
                }
            }
        }
        true
    }

    /// Column work per digit: box/column interactions between bands (a box whose candidates
    /// lie in one column clears that column in the other bands; a column whose candidates lie
    /// in one band keeps its box in that band to that column), then hidden singles in columns.
    #[inline(always)]
    fn column_singles(&mut self) -> bool {
        let t = self.touched | self.touched >> 1 | self.touched >> 2;
        let mut digits = t & 0x124_9249;
        self.touched = 0;
        while digits != 0 {
            let i = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let (a0, a1, a2) = (self.cand[i], self.cand[i + 1], self.cand[i + 2]);
            // Per band: the columns holding a candidate (`f`) and those holding two or more
            // (`t`, a majority of the three rows).
            let (x0, y0, z0) = (a0 & ROW, (a0 >> 9) & ROW, a0 >> 18);
            let (x1, y1, z1) = (a1 & ROW, (a1 >> 9) & ROW, a1 >> 18);
            let (x2, y2, z2) = (a2 & ROW, (a2 >> 9) & ROW, a2 >> 18);
            let (o0, o1, o2) = (x0 | y0, x1 | y1, x2 | y2);
            let (f0, f1, f2) = (o0 | z0, o1 | z1, o2 | z2);
            let (t0, t1, t2) = (
                (x0 & y0) | (z0 & o0),
                (x1 & y1) | (z1 & o1),
                (x2 & y2) | (z2 & o2),
            );
            if f0 | f1 | f2 != ROW {
                return false;
            }
            let p0 = POINTING[f0 as usize] as u32;
            let p1 = POINTING[f1 as usize] as u32;
            let p2 = POINTING[f2 as usize] as u32;
            let k0 = CLAIM_KEEP[(f0 & !(f1 | f2)) as usize] as u32 & !(p1 | p2);
            let k1 = CLAIM_KEEP[(f1 & !(f0 | f2)) as usize] as u32 & !(p0 | p2);
            let k2 = CLAIM_KEEP[(f2 & !(f0 | f1)) as usize] as u32 & !(p0 | p1);
            let mut n = [
                a0 & (k0 * COPY_ROWS),
                a1 & (k1 * COPY_ROWS),
                a2 & (k2 * COPY_ROWS),
            ];
            // Hidden singles in columns: a column with one candidate cell left. A band keeps
            // the same columns in its three rows, so the new words' folds (and columns held
            // twice) are the old ones restricted to the kept columns.
            let (g0, g1, g2) = (f0 & k0, f1 & k1, f2 & k2);
            let once = g0 | g1 | g2;
            let twice = (t0 & k0) | (t1 & k1) | (t2 & k2) | (g0 & g1) | (g2 & (g0 | g1));
            if once != ROW {
                return false;
            }
            let single = once & !twice;
            if single != 0 {
                let cols = single * COPY_ROWS;
                for (band, a) in n.iter_mut().enumerate() {
                    // Rows already placed hold exactly their (solved) cell; only restrict
                    // the rows of unsolved cells.
                    let mut h = *a & cols & self.unsolved[band];
                    while h != 0 {
                        let pos = h.trailing_zeros();
                        h &= h - 1;
                        *a &= !(ROW << (pos / 9 * 9)) | (1 << pos);
                    }
                }
            }
            self.cand[i] = n[0];
            self.cand[i + 1] = n[1];
            self.cand[i + 2] = n[2];
            self.dirty |=
                ((n[0] != a0) as u32 | ((n[1] != a1) as u32) << 1 | ((n[2] != a2) as u32) << 2)
                    << i;
        }
        true
    }

    /// Full propagation. `false` on a contradiction.
    #[inline(always)]
    fn propagate<const PEXT: bool>(&mut self) -> bool {
        loop {
            if !self.update_all::<PEXT>() {
                return false;
            }
            if !self.naked_singles() {
                return false;
            }
            if self.dirty != 0 {
                continue;
            }
            if !self.column_singles() {
                return false;
            }
            if self.dirty == 0 {
                return true;
            }
        }
    }

    #[inline(always)]
    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// Picks a cell to guess on, returning `(band, position, digit mask)`: the bivalue cell
    /// (the last one on a tie) with the most unsolved peers holding one of its digits, the
    /// bivalue ones among them counting three times (either branch of the guess reaches them),
    /// else a cell with the fewest candidates. On the hardest puzzles this guesses about 30%
    /// less often than the cell with the most bivalue peers did.
    #[inline(always)]
    fn pick(&self) -> (usize, u32, u32) {
        let mut pairs = [0u32; 3];
        for (band, p) in pairs.iter_mut().enumerate() {
            let mut r1 = 0u32;
            let mut r2 = 0u32;
            let mut r3 = 0u32;
            for d in 0..9 {
                let x = self.cand[3 * d + band];
                r3 |= r2 & x;
                r2 |= r1 & x;
                r1 |= x;
            }
            *p = self.unsolved[band] & r2 & !r3;
        }
        if pairs[0] | pairs[1] | pairs[2] != 0 {
            // The best cell by a key: score, then band and position (the last cell scanned
            // wins a tie), then the digit mask; a maximum instead of a branch per cell.
            let mut best = 0u32;
            let digits = CellDigits::new(self);
            for band in 0..3 {
                let (b1, b2) = ((band + 1) % 3, (band + 2) % 3);
                let mut p = pairs[band];
                while p != 0 {
                    let pos = p.trailing_zeros();
                    p &= p - 1;
                    let col = COLUMN_IN_BAND[pos as usize];
                    let m = digits.at(band, pos);
                    let x = 3 * m.trailing_zeros() as usize;
                    let y = 3 * (31 - m.leading_zeros()) as usize;
                    // The cell's unsolved peers in its band and in its column in the other bands,
                    // and those of them holding one of the cell's digits.
                    let near = PEERS_IN_BAND[pos as usize] & self.unsolved[band];
                    let far1 = col & self.unsolved[b1];
                    let far2 = col & self.unsolved[b2];
                    let wx: &[u32; 3] = self.cand[x..x + 3].try_into().unwrap();
                    let wy: &[u32; 3] = self.cand[y..y + 3].try_into().unwrap();
                    let s0 = near & (wx[band] | wy[band]);
                    let s1 = far1 & (wx[b1] | wy[b1]);
                    let s2 = far2 & (wx[b2] | wy[b2]);
                    // Four population counts instead of six: the 27-bit sets two by two.
                    let (h0, h1, h2) = (s0 & pairs[band], s1 & pairs[b1], s2 & pairs[b2]);
                    let all = (s0 as u64 | (s1 as u64) << 27).count_ones() + s2.count_ones();
                    let share = (h0 as u64 | (h1 as u64) << 27).count_ones() + h2.count_ones();
                    let score = 2 * share + all;
                    let key = score << 16 | (band as u32) << 14 | pos << 9 | m;
                    best = best.max(key);
                }
            }
            return (((best >> 14) & 3) as usize, (best >> 9) & 31, best & 511);
        }
        let mut best = (0, 0, 0);
        let mut best_n = u32::MAX;
        for band in 0..3 {
            let mut u = self.unsolved[band];
            while u != 0 {
                let pos = u.trailing_zeros();
                u &= u - 1;
                let m = self.digits_at(band, pos);
                let n = m.count_ones();
                if n < best_n {
                    best_n = n;
                    best = (band, pos, m);
                }
            }
        }
        best
    }

    #[inline(always)]
    fn digits_at(&self, band: usize, pos: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= ((self.cand[3 * d + band] >> pos) & 1) << d;
        }
        m
    }

    /// Places digit `d` at (band, pos) by restricting the digit's row to that cell.
    #[inline(always)]
    fn assign(&mut self, band: usize, pos: u32, d: usize) {
        let j = 3 * d + band;
        self.cand[j] &= !(ROW << (pos / 9 * 9)) | (1 << pos);
        self.dirty |= 1 << j;
    }

    fn write_solution(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for band in 0..3 {
                let mut a = self.cand[3 * d + band];
                while a != 0 {
                    let pos = a.trailing_zeros() as usize;
                    a &= a - 1;
                    out[27 * band + pos] = d as u8 + 1;
                }
            }
        }
    }
}

/// Depth-first search with a solution limit.
struct Search {
    count: u32,
    limit: u32,
    /// Whether to write the first solution to `first` (counting alone does not need it).
    keep_first: bool,
    first: [u8; 81],
}

impl Search {
    fn new(limit: u32, keep_first: bool) -> Search {
        Search {
            count: 0,
            limit,
            keep_first,
            first: [0; 81],
        }
    }

    /// Builds the board of `values` and runs the search (no solution when the givens clash),
    /// using the CPU's bit-manipulation instructions when it has them: for the board's
    /// construction too, which counts bits.
    fn run(&mut self, values: &[u8; 81]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
            {
                // SAFETY: the features `run_bmi` is compiled for were just detected.
                if fast_pext() {
                    unsafe { self.run_bmi::<true>(values) };
                } else {
                    unsafe { self.run_bmi::<false>(values) };
                }
                return;
            }
        }
        if let Some(board) = Board::new(values) {
            self.search(board);
        }
    }

    /// [`Search::run`] compiled with POPCNT/BMI/LZCNT enabled (`Board::new` inlined into it).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn run_bmi<const PEXT: bool>(&mut self, values: &[u8; 81]) {
        if let Some(board) = Board::new(values) {
            self.search_bmi::<PEXT>(board);
        }
    }

    /// The search, compiled for any x86-64 (or other) CPU.
    fn search(&mut self, board: Board) {
        search_body!(self, board, search, false);
    }

    /// The same search compiled with POPCNT/BMI/LZCNT enabled; with `PEXT`, the mini-row
    /// occupancy by `pext` (on CPUs where it is fast).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn search_bmi<const PEXT: bool>(&mut self, board: Board) {
        search_body!(self, board, search_bmi::<PEXT>, PEXT);
    }
}

/// The depth-first search loop, shared by the generic and the feature-specific builds.
macro_rules! search_body {
    ($self:ident, $board:ident, $recurse:ident $(::<$p:ident>)?, $pext:expr) => {{
        let mut board = $board;
        loop {
            if !board.propagate::<{ $pext }>() {
                return;
            }
            if board.solved() {
                if $self.count == 0 && $self.keep_first {
                    board.write_solution(&mut $self.first);
                }
                $self.count += 1;
                return;
            }
            let (band, pos, mut digits) = board.pick();
            if digits == 0 {
                return;
            }
            while digits & (digits - 1) != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let mut child = board;
                child.assign(band, pos, d);
                $self.$recurse$(::<$p>)?(child);
                if $self.count >= $self.limit {
                    return;
                }
            }
            board.assign(band, pos, digits.trailing_zeros() as usize);
        }
    }};
}
use search_body;

#[cfg(test)]
mod tests {
    use super::*;

    /// One step of a xorshift generator: the tests' random grids and words.
    fn xorshift(x: &mut u64) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
    }

    fn parse(s: &str) -> [u8; 81] {
        let mut v = [0u8; 81];
        for (i, c) in s.chars().take(81).enumerate() {
            v[i] = c.to_digit(10).unwrap_or(0) as u8;
        }
        v
    }

    fn valid_solution(givens: &[u8; 81], sol: &[u8; 81]) -> bool {
        for i in 0..81 {
            if !(1..=9).contains(&sol[i]) || (givens[i] != 0 && givens[i] != sol[i]) {
                return false;
            }
        }
        for k in 0..9 {
            let (mut r, mut c, mut b) = (0u16, 0u16, 0u16);
            for j in 0..9 {
                r |= 1 << sol[9 * k + j];
                c |= 1 << sol[9 * j + k];
                b |= 1 << sol[(k / 3 * 3 + j / 3) * 9 + k % 3 * 3 + j % 3];
            }
            if r != 0x3fe || c != 0x3fe || b != 0x3fe {
                return false;
            }
        }
        true
    }

    const KNOWN: [(&str, &str); 3] = [
        (
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382",
        ),
        (
            // A 17-clue puzzle.
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            "",
        ),
        (
            // "AI escargot".
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
            "162857493534129678789643521475312986913586742628794135356478219241935867897261354",
        ),
    ];

    #[test]
    fn known_puzzles() {
        for (p, s) in KNOWN {
            let g = parse(p);
            let Solutions::Unique(sol) = analyze(&g) else {
                panic!("not unique: {p}");
            };
            assert!(valid_solution(&g, &sol), "{p}");
            if !s.is_empty() {
                assert_eq!(*sol, parse(s), "{p}");
            }
            assert_eq!(solve(&g), Some(*sol));
            assert_eq!(count_solutions(&g, 5), 1);
        }
    }

    #[test]
    fn hard_puzzle() {
        let g = parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let Solutions::Unique(sol) = analyze(&g) else {
            panic!("not unique");
        };
        assert_eq!(
            *sol,
            parse(
                "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
            )
        );
    }

    #[test]
    fn empty_grid_counts_to_limit() {
        let g = [0u8; 81];
        assert_eq!(count_solutions(&g, 0), 0);
        assert_eq!(count_solutions(&g, 1), 1);
        assert_eq!(count_solutions(&g, 1000), 1000);
        assert_eq!(analyze(&g), Solutions::Multiple);
        let sol = solve(&g).expect("empty grid has solutions");
        assert!(valid_solution(&g, &sol));
    }

    #[test]
    fn clashing_givens_give_zero() {
        // Same digit twice in a row, a column, a box.
        for (a, b) in [(0, 8), (0, 72), (0, 20)] {
            let mut g = [0u8; 81];
            g[a] = 5;
            g[b] = 5;
            assert_eq!(count_solutions(&g, 2), 0);
            assert_eq!(analyze(&g), Solutions::None);
            assert_eq!(solve(&g), None);
        }
        // Values above 9 are rejected.
        let mut g = [0u8; 81];
        g[40] = 10;
        assert_eq!(count_solutions(&g, 2), 0);
        g[40] = 255;
        assert_eq!(analyze(&g), Solutions::None);
    }

    #[test]
    fn unsolvable_without_direct_clash() {
        // Row 0 misses only 9 but column 8 already has a 9.
        let g = parse(
            "12345678.........9...............................................................",
        );
        assert_eq!(count_solutions(&g, 2), 0);
        assert_eq!(analyze(&g), Solutions::None);
    }

    #[test]
    fn multiple_solutions() {
        // Swapping two digits in a solved grid where they form a rectangle.
        let mut g = parse(KNOWN[0].1);
        // Clear the four cells of a deadly pattern: find one by brute force.
        let sol = g;
        'outer: for r1 in 0..9 {
            for r2 in r1 + 1..9 {
                if r1 / 3 == r2 / 3 {
                    continue;
                }
                for c1 in 0..9 {
                    for c2 in c1 + 1..9 {
                        if c1 / 3 != c2 / 3 {
                            continue;
                        }
                        let (a, b) = (sol[9 * r1 + c1], sol[9 * r1 + c2]);
                        if sol[9 * r2 + c1] == b && sol[9 * r2 + c2] == a {
                            for i in [9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2] {
                                g[i] = 0;
                            }
                            break 'outer;
                        }
                    }
                }
            }
        }
        assert_eq!(g.iter().filter(|&&v| v == 0).count(), 4);
        assert_eq!(analyze(&g), Solutions::Multiple);
        assert_eq!(count_solutions(&g, 10), 2);
        let s = solve(&g).expect("solvable");
        assert!(valid_solution(&g, &s));
    }

    #[test]
    fn solved_grid() {
        let g = parse(KNOWN[2].1);
        assert_eq!(solve(&g), Some(g));
        assert_eq!(analyze(&g), Solutions::Unique(Box::new(g)));
        assert_eq!(count_solutions(&g, 3), 1);
    }

    impl Board {
        /// The straightforward construction, given by given: the reference for [`Board::new`].
        fn new_reference(values: &[u8; 81]) -> Option<Board> {
            let mut b = Board {
                cand: [BAND; 27],
                unsolved: [BAND; 3],
                dirty: BAND,
                touched: BAND,
            };
            for (band, cells) in values.chunks_exact(27).enumerate() {
                for (pos, &v) in cells.iter().enumerate() {
                    if v == 0 {
                        continue;
                    }
                    if v > 9 {
                        return None;
                    }
                    let d = (v - 1) as usize;
                    let bit = 1u32 << pos;
                    if b.cand[3 * d + band] & bit == 0 {
                        return None;
                    }
                    // Remove the cell from every digit and the digit from every peer, then give
                    // the cell back to its digit: the placement is complete, the cell solved.
                    b.unsolved[band] &= !bit;
                    for od in 0..9 {
                        b.cand[3 * od + band] &= !bit;
                    }
                    let col = COLUMN_IN_BAND[pos];
                    for ob in 0..3 {
                        b.cand[3 * d + ob] &= !col;
                    }
                    b.cand[3 * d + band] = b.cand[3 * d + band] & !PEERS_IN_BAND[pos] | bit;
                }
            }
            Some(b)
        }
    }

    #[test]
    fn board_new_matches_the_given_by_given_construction() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut grids: Vec<[u8; 81]> = KNOWN.iter().map(|(p, _)| parse(p)).collect();
        grids.push(parse(KNOWN[0].1));
        for _ in 0..5000 {
            let mut g = [0u8; 81];
            for v in g.iter_mut() {
                xorshift(&mut x);
                *v = match x & 15 {
                    0..=3 => (x >> 8) as u8 % 10,
                    4 => (x >> 8) as u8,
                    _ => 0,
                };
            }
            grids.push(g);
        }
        for g in &grids {
            let (a, b) = (Board::new(g), Board::new_reference(g));
            assert_eq!(a.is_some(), b.is_some(), "{g:?}");
            if let (Some(a), Some(b)) = (a, b) {
                assert_eq!(
                    (a.cand, a.unsolved, a.dirty, a.touched),
                    (b.cand, b.unsolved, b.dirty, b.touched)
                );
            }
        }
    }

    /// The candidate word of 0-based digit `d` in `band`.
    fn word(b: &Board, d: usize, band: usize) -> u32 {
        b.cand[3 * d + band]
    }

    #[test]
    fn column_pass_box_in_one_column_clears_that_column_in_other_bands() {
        let mut b = Board::new(&[0; 81]).expect("empty grid");
        // Digit 1 in box 1 (band 0) only in column 2 (index 1).
        let col = |c: u32| (1u32 << c) * COPY_ROWS;
        b.cand[0] &= !(col(0) | col(2));
        assert!(b.column_singles());
        assert_eq!(word(&b, 0, 0), BAND & !(col(0) | col(2)));
        assert_eq!(word(&b, 0, 1), BAND & !col(1));
        assert_eq!(word(&b, 0, 2), BAND & !col(1));
        // Other digits are untouched.
        assert_eq!(word(&b, 1, 1), BAND);
    }

    #[test]
    fn column_pass_column_in_one_band_keeps_its_box_to_that_column() {
        let mut b = Board::new(&[0; 81]).expect("empty grid");
        // Digit 1 in column 5 (index 4) only in band 0: box 2 of band 0 keeps column 5 only.
        let col = |c: u32| (1u32 << c) * COPY_ROWS;
        b.cand[1] &= !col(4);
        b.cand[2] &= !col(4);
        assert!(b.column_singles());
        assert_eq!(word(&b, 0, 0), BAND & !(col(3) | col(5)));
        assert_eq!(word(&b, 0, 1), BAND & !col(4));
        assert_eq!(word(&b, 0, 2), BAND & !col(4));
    }

    #[test]
    fn column_pass_finds_column_hidden_single_and_empty_column() {
        let mut b = Board::new(&[0; 81]).expect("empty grid");
        // Digit 1 in column 1 only at r5c1 (band 1, row 1): its row keeps that cell only.
        let col0 = COPY_ROWS;
        b.cand[0] &= !col0;
        b.cand[1] &= !(col0 & !(1 << 9));
        b.cand[2] &= !col0;
        assert!(b.column_singles());
        assert_eq!(word(&b, 0, 1) & (ROW << 9), 1 << 9);
        // No candidate left in a column is a contradiction.
        let mut b = Board::new(&[0; 81]).expect("empty grid");
        for band in 0..3 {
            b.cand[3 * 4 + band] &= !col0;
        }
        assert!(!b.column_singles());
    }

    #[test]
    fn column_pass_skips_untouched_digits() {
        let mut b = Board::new(&[0; 81]).expect("empty grid");
        b.touched = 0;
        let col = |c: u32| (1u32 << c) * COPY_ROWS;
        b.cand[0] &= !(col(0) | col(2));
        assert!(b.column_singles());
        assert_eq!(word(&b, 0, 1), BAND, "digit 1 was not marked as changed");
        b.touched = 1;
        assert!(b.column_singles());
        assert_eq!(word(&b, 0, 1), BAND & !col(1));
    }

    #[test]
    fn pick_prefers_the_bivalue_cell_seeing_most_bivalue_cells_with_its_digits() {
        let mut b = Board::new(&[0; 81]).expect("empty grid");
        // Bivalue cells (digits 1 and 2): r1c1 and r2c5 in band 0, r9c1 and r9c2 in band 2.
        // Every peer holds digits 1 and 2; r9c1 sees r9c2 (row) and r1c1 (column): the most
        // bivalue peers.
        for (band, pos) in [(0, 0), (0, 13), (2, 18), (2, 19)] {
            for d in 2..9 {
                b.cand[3 * d + band] &= !(1 << pos);
            }
        }
        assert_eq!(b.pick(), (2, 18, 0b11));
    }

    #[test]
    fn pick_counts_bivalue_peers_only_when_they_share_a_digit() {
        let mut b = Board::new(&[0; 81]).expect("empty grid");
        let keep = |b: &mut Board, band: usize, pos: u32, digits: [usize; 2]| {
            for d in (0..9).filter(|d| !digits.contains(d)) {
                b.cand[3 * d + band] &= !(1 << pos);
            }
        };
        // r1c1 {1,2} sees r1c2 and r1c3 {3,4}: two bivalue peers, neither holding 1 or 2.
        // r9c8 and r9c9 {1,2} see each other: one bivalue peer, sharing both digits.
        keep(&mut b, 0, 0, [0, 1]);
        keep(&mut b, 0, 1, [2, 3]);
        keep(&mut b, 0, 2, [2, 3]);
        keep(&mut b, 2, 25, [0, 1]);
        keep(&mut b, 2, 26, [0, 1]);
        assert_eq!(b.pick(), (2, 26, 0b11));
    }

    #[test]
    fn mini_rows_by_pext_match_the_tables() {
        // Every 9-bit pattern in each row, then random words; the pext version only where the
        // CPU has BMI2 (as in the search).
        let mut words: Vec<u32> = (0..512).flat_map(|r| [r, r << 9, r << 18]).collect();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            xorshift(&mut x);
            words.push(x as u32 & BAND);
        }
        for &a in &words {
            let mut expect = 0;
            for row in 0..3 {
                for bx in 0..3 {
                    if a & (7 << (9 * row + 3 * bx)) != 0 {
                        expect |= 1 << (3 * row + bx);
                    }
                }
            }
            assert_eq!(mini_rows::<false>(a), expect, "{a:#x}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                assert_eq!(mini_rows::<true>(a), expect, "{a:#x}");
            }
        }
    }

    #[test]
    fn portable_and_bmi_searches_agree() {
        // The portable search (table lookups) is what CPUs without BMI2 run; here it is run
        // directly and compared with the dispatched one on known and random puzzles.
        let mut grids: Vec<[u8; 81]> = KNOWN.iter().map(|(p, _)| parse(p)).collect();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..300 {
            let mut g = [0u8; 81];
            for v in g.iter_mut() {
                xorshift(&mut x);
                *v = if x.is_multiple_of(5) {
                    (x >> 8) as u8 % 10
                } else {
                    0
                };
            }
            grids.push(g);
        }
        for g in &grids {
            let Some(board) = Board::new(g) else {
                continue;
            };
            let mut portable = Search::new(3, true);
            portable.search(board);
            let mut dispatched = Search::new(3, true);
            dispatched.run(g);
            assert_eq!(portable.count, dispatched.count, "{g:?}");
            assert_eq!(portable.first, dispatched.first, "{g:?}");
            // Both BMI2 builds, with and without `pext`, whichever `run` chose.
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
            {
                let mut tables = Search::new(3, true);
                let mut pext = Search::new(3, true);
                // SAFETY: the features `search_bmi` is compiled for were just detected.
                unsafe {
                    tables.search_bmi::<false>(board);
                    pext.search_bmi::<true>(board);
                }
                assert_eq!(
                    (tables.count, tables.first),
                    (portable.count, portable.first)
                );
                assert_eq!((pext.count, pext.first), (portable.count, portable.first));
            }
        }
    }

    #[test]
    fn cell_digits_match_digits_at() {
        // Boards met while solving known puzzles and random grids: every cell's digit mask.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut boards: Vec<Board> = KNOWN
            .iter()
            .filter_map(|(p, _)| Board::new(&parse(p)))
            .collect();
        for _ in 0..200 {
            let mut b = Board::new(&[0; 81]).expect("empty grid");
            for w in b.cand.iter_mut() {
                xorshift(&mut x);
                *w = x as u32 & BAND;
            }
            boards.push(b);
        }
        for b in &boards {
            let digits = CellDigits::new(b);
            for band in 0..3 {
                for pos in 0..27 {
                    assert_eq!(digits.at(band, pos), b.digits_at(band, pos));
                }
            }
        }
    }

    #[test]
    fn board_copy_is_two_cache_lines() {
        // Each guess copies the board: 27 candidate words, the unsolved cells and two masks,
        // no per-row bookkeeping (a row holding a solved cell is a placed row).
        assert_eq!(std::mem::size_of::<Board>(), 128);
    }

    #[test]
    fn placed_rows_are_not_placed_again() {
        // A solved grid with one cell emptied: the search places the given rows once and the
        // one open cell from its row, column and box; the unsolved mask ends empty.
        let sol = parse(KNOWN[0].1);
        let mut g = sol;
        g[40] = 0;
        let mut b = Board::new(&g).expect("valid");
        assert!(b.propagate::<false>());
        assert!(b.solved());
        let mut out = [0u8; 81];
        b.write_solution(&mut out);
        assert_eq!(out, sol);
    }

    #[test]
    fn never_panics_on_odd_input() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let mut g = [0u8; 81];
            for v in g.iter_mut() {
                xorshift(&mut x);
                *v = if x & 3 == 0 { (x >> 8) as u8 % 10 } else { 0 };
            }
            let n = count_solutions(&g, 3);
            assert!(n <= 3);
            match analyze(&g) {
                Solutions::Unique(s) => {
                    assert_eq!(n, 1);
                    assert!(valid_solution(&g, &s));
                }
                Solutions::Multiple => assert!(n >= 2),
                Solutions::None => assert_eq!(n, 0),
            }
        }
    }
}

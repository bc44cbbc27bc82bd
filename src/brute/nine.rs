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
//!   holding one of its digits, bivalue peers weighing more, among the first eight bivalue
//!   cells (fewest candidates when there is no bivalue cell), on a copy of the board kept in
//!   the recursion's stack frame (no heap allocation). A stalled board with four or six
//!   unsolved cells is a deadly pattern with exactly two solutions: counted without a guess
//!   (`Board::is_two_solution_pattern`).
//! * The givens are gathered per value with SSE2 compares, 16 cells at a time.
//! * On x86-64 the search is also compiled with POPCNT/BMI/LZCNT, used when the CPU has them
//!   (checked at run time), since the crate is built for x86-64-v2, which has POPCNT but not
//!   BMI; that copy finds a word's mini-row occupancy with one `pext` (a shorter dependency
//!   chain than three table lookups) unless `pext` is slow on the CPU (AMD before Zen 3: a
//!   third copy with the tables). The guess choice reads cells' digits with SSE2 (baseline
//!   x86-64).
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

/// The most bivalue cells the guess choice scores ([`Board::pick`]). Scoring costs about 20
/// instructions a cell, and a board often has a dozen or more bivalue cells; beyond the first
/// eight, a better-scored cell saves fewer guesses than the scoring costs (measured:
/// docs/performance.md, "The guess choice scores eight cells at most").
const SCORED_PAIRS: u32 = 8;

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
    const PERMS: [[usize; 3]; 6] = crate::model::cell::PERMUTATIONS_OF_3;
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

/// The cells of each value per band, index `3 * value + band`: value 0 (empty cells), 1..=9,
/// and slot 10 for any value above 9.
///
/// On x86-64 each band's 27 bytes are compared with each value by SSE2 (two overlapping
/// 16-byte loads), 16 cells at a time. A loop setting one bit per cell was slower: it is a
/// chain of read-modify-writes of the same few words (docs/performance.md).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn cells_by_value(values: &[u8; 81]) -> [u32; 33] {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let mut given = [0u32; 33];
    for band in 0..3 {
        let cells = &values[27 * band..27 * band + 27];
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read bytes 0..16 and 11..27
        // of the band's 27.
        unsafe {
            let lo = _mm_loadu_si128(cells[..16].as_ptr() as *const __m128i);
            let hi = _mm_loadu_si128(cells[11..].as_ptr() as *const __m128i);
            let mut seen = 0;
            for v in 0..10 {
                let k = _mm_set1_epi8(v as i8);
                let m = _mm_movemask_epi8(_mm_cmpeq_epi8(lo, k)) as u32
                    | (_mm_movemask_epi8(_mm_cmpeq_epi8(hi, k)) as u32) << 11;
                given[3 * v + band] = m;
                seen |= m;
            }
            given[30 + band] = !seen & BAND;
        }
    }
    given
}

/// The portable version of [`cells_by_value`]: a bit per cell.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn cells_by_value_portable(values: &[u8; 81]) -> [u32; 33] {
    let mut given = [0u32; 33];
    for (band, cells) in values.chunks_exact(27).enumerate() {
        for (pos, &v) in cells.iter().enumerate() {
            given[3 * v.min(10) as usize + band] |= 1 << pos;
        }
    }
    given
}

#[cfg(not(target_arch = "x86_64"))]
use cells_by_value_portable as cells_by_value;

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
        let given = cells_by_value(values);
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

    /// Whether the board, propagated to a fixed point with no contradiction and not solved,
    /// has exactly four or exactly six unsolved cells: it then has exactly two solutions (a
    /// deadly pattern, the one behind the uniqueness techniques).
    ///
    /// Proof. At the fixed point no unsolved cell has a single candidate, no digit a house
    /// misses has a single place in it, and a cell's candidates are among the digits its row,
    /// column and box miss. So a house holds no unsolved cell or two or more (one would miss
    /// one digit: a single); a box whose cells hold fewer digits than it misses is a
    /// contradiction the propagation finds. Two or more cells in each row and column leave
    /// these shapes:
    /// - **Four cells**: two rows by two columns. A row missing two digits gives both its cells
    ///   exactly those two, and each column shares a cell with both rows, so all four hold the
    ///   same pair `{a, b}`. In four boxes each box would hold one cell, in one box it would
    ///   miss four digits, so they lie in two boxes, two cells each, in a row or a column of
    ///   the rectangle. `a` and `b` on either diagonal fill every house.
    /// - **Six cells, two rows by three columns** (or three by two, the same turned): each
    ///   column's two cells hold the pair it misses, and each of the three digits a row misses
    ///   has two places in it, so the pairs are `{a, b}`, `{b, c}`, `{c, a}`. One row takes
    ///   one digit of each pair, all different, in two ways (`a b c` or `b c a`), the other row
    ///   the rest. The boxes allow it: rows in one band with the columns in three stacks (a
    ///   box per column), or rows in two bands with the columns in one stack (a box per row);
    ///   any other spread leaves a box with one cell, or with four or six cells holding three
    ///   digits.
    /// - **Six cells, three rows by three columns, two in each**: a cycle of six cells, each
    ///   sharing its row with the next and its column with the one after. Every cell holds its
    ///   row's pair and its column's pair, so all hold the same `{a, b}`, which alternate
    ///   around the cycle in two ways. A box holds two cells (three would hold two digits for
    ///   three missing) that share a row or a column, so they differ in both ways.
    ///
    /// Many searches of a puzzle with several solutions end at such a board (about three in
    /// four on multi-solution-10000, docs/performance.md), where a guess and two more
    /// propagations are saved.
    #[inline(always)]
    fn is_two_solution_pattern(&self) -> bool {
        let n = self.unsolved[0].count_ones()
            + self.unsolved[1].count_ones()
            + self.unsolved[2].count_ones();
        n == 4 || n == 6
    }

    /// Picks a cell to guess on, returning `(band, position, digit mask)`: among the first
    /// [`SCORED_PAIRS`] bivalue cells (band by band, by position), the one (the last on a tie)
    /// with the most unsolved peers holding one of its digits, the bivalue ones among them
    /// counting three times (either branch of the guess reaches them); else a cell with the
    /// fewest candidates. On the hardest puzzles this guesses about 30% less often than the
    /// cell with the most bivalue peers did.
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
            let mut left = SCORED_PAIRS;
            for band in 0..3 {
                let (b1, b2) = ((band + 1) % 3, (band + 2) % 3);
                let mut p = pairs[band];
                while p != 0 && left > 0 {
                    left -= 1;
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
            if board.is_two_solution_pattern() && !($self.keep_first && $self.count == 0) {
                // Two solutions, counted without guessing (unless the first must be written).
                $self.count = ($self.count + 2).min($self.limit);
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
mod tests;

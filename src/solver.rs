//! Brute-force solver: solve and count solutions up to a limit.
//!
//! Used for uniqueness checks, for verifying every step against the solution, and by the
//! generator.

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

/// Counts the solutions of `values` (81 cells, 0 = empty), stopping at `limit`.
/// Returns a number in `0..=limit`. Clashing givens give 0.
pub fn count_solutions(values: &[u8; 81], limit: u32) -> u32 {
    let mut s = Simple::new(values);
    match s.as_mut() {
        Some(s) => {
            s.limit = limit;
            s.search();
            s.count
        }
        None => 0,
    }
}

/// Solves `values` and says whether the solution is unique.
pub fn analyze(values: &[u8; 81]) -> Solutions {
    let Some(mut s) = Simple::new(values) else {
        return Solutions::None;
    };
    s.limit = 2;
    s.search();
    match s.count {
        0 => Solutions::None,
        1 => Solutions::Unique(Box::new(s.first.expect("solution recorded"))),
        _ => Solutions::Multiple,
    }
}

/// The first solution found, if any.
pub fn solve(values: &[u8; 81]) -> Option<[u8; 81]> {
    let mut s = Simple::new(values)?;
    s.limit = 1;
    s.search();
    s.first
}

/// A plain mask-based depth-first solver (placeholder for the bitboard solver).
struct Simple {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    count: u32,
    limit: u32,
    first: Option<[u8; 81]>,
}

impl Simple {
    fn new(values: &[u8; 81]) -> Option<Simple> {
        let mut s = Simple {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            count: 0,
            limit: 1,
            first: None,
        };
        for (i, &v) in values.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let bit = 1u16 << (v - 1);
            let (r, c) = (i / 9, i % 9);
            let b = r / 3 * 3 + c / 3;
            if (s.rows[r] | s.cols[c] | s.boxes[b]) & bit != 0 {
                return None;
            }
            s.rows[r] |= bit;
            s.cols[c] |= bit;
            s.boxes[b] |= bit;
            s.cells[i] = v;
        }
        Some(s)
    }

    fn search(&mut self) {
        let mut best = usize::MAX;
        let mut best_mask = 0u16;
        let mut best_n = 10;
        for i in 0..81 {
            if self.cells[i] != 0 {
                continue;
            }
            let (r, c) = (i / 9, i % 9);
            let b = r / 3 * 3 + c / 3;
            let m = !(self.rows[r] | self.cols[c] | self.boxes[b]) & 0x1ff;
            let n = m.count_ones();
            if n < best_n {
                best_n = n;
                best = i;
                best_mask = m;
                if n <= 1 {
                    break;
                }
            }
        }
        if best == usize::MAX {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(self.cells);
            }
            return;
        }
        let (r, c) = (best / 9, best % 9);
        let b = r / 3 * 3 + c / 3;
        let mut m = best_mask;
        while m != 0 && self.count < self.limit {
            let bit = m & m.wrapping_neg();
            m &= m - 1;
            self.cells[best] = bit.trailing_zeros() as u8 + 1;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            self.search();
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
        }
        self.cells[best] = 0;
    }
}

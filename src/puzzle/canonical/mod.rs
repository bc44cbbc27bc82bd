//! The canonical form that identifies a puzzle up to the equivalence transforms of a grid
//! (transposition, band, row, stack and column permutations, digit relabelling: they map valid
//! grids to valid grids and puzzles to puzzles with as many solutions).
//!
//! Grids are 81 values, row by row, `0` for an empty cell. The transforms themselves are test
//! code here: the tests check the canonical form against them.

mod sized;

/// The grid mirrored in its main diagonal (rows become columns).
fn transpose(grid: &[u8; 81]) -> [u8; 81] {
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            out[9 * c + r] = grid[9 * r + c];
        }
    }
    out
}

/// The equivalence transforms themselves, one function each and [`Transform`] combining them:
/// the tests check the canonical form against them.
#[cfg(test)]
mod transforms {
    use super::transpose;
    use rand::Rng;
    use rand::seq::SliceRandom;

    /// Arguments that do not describe an equivalence transform.
    #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
    pub(crate) enum TransformError {
        /// A permutation that is not one (a repeated or out-of-range index).
        #[error("not a permutation of 0..{len}: {given:?}")]
        NotAPermutation {
            /// The size expected.
            len: usize,
            /// What was given.
            given: Vec<usize>,
        },
        /// A row (column) order that splits a band (stack).
        #[error("line order {0:?} does not keep bands (stacks) together")]
        SplitsBands(Vec<usize>),
        /// A band or stack number above 2.
        #[error("no band or stack {0} (they are 0, 1, 2)")]
        NoSuchBand(usize),
    }

    fn check_perm(p: &[usize]) -> Result<(), TransformError> {
        let mut seen = 0u32;
        for &i in p {
            if i >= p.len() || seen & (1 << i) != 0 {
                return Err(TransformError::NotAPermutation {
                    len: p.len(),
                    given: p.to_vec(),
                });
            }
            seen |= 1 << i;
        }
        Ok(())
    }

    /// Checks that a 9-line order is a permutation that keeps bands together.
    fn check_line_order(order: &[usize; 9]) -> Result<(), TransformError> {
        check_perm(order)?;
        for b in 0..3 {
            let band = order[3 * b] / 3;
            if order[3 * b..3 * b + 3].iter().any(|&l| l / 3 != band) {
                return Err(TransformError::SplitsBands(order.to_vec()));
            }
        }
        Ok(())
    }

    /// A combined transform: the value at `(r, c)` of the result is `digits[v]` where `v` is the
    /// value at `(rows[r], cols[c])` of the source, read transposed first when `transpose` is set.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(crate) struct Transform {
        transpose: bool,
        rows: [usize; 9],
        cols: [usize; 9],
        digits: [u8; 10],
    }

    impl Transform {
        /// A transform from its parts: read transposed or not, the source row of each result row
        /// and the source column of each result column (orders that keep bands and stacks
        /// together), and the new digit of each digit 1..=9 (`digits[d - 1]`).
        pub fn new(
            transpose: bool,
            rows: [usize; 9],
            cols: [usize; 9],
            digits: [u8; 9],
        ) -> Result<Transform, TransformError> {
            check_line_order(&rows)?;
            check_line_order(&cols)?;
            check_perm(&digits.map(|d| (d as usize).wrapping_sub(1)))?;
            let mut d = [0u8; 10];
            d[1..].copy_from_slice(&digits);
            Ok(Transform {
                transpose,
                rows,
                cols,
                digits: d,
            })
        }

        /// The identity.
        pub fn identity() -> Transform {
            Transform {
                transpose: false,
                rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
                cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
                digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            }
        }

        /// A uniformly random transform of the Sudoku equivalence group.
        pub fn random(rng: &mut impl Rng) -> Transform {
            Transform {
                transpose: rng.random(),
                rows: random_line_order(rng),
                cols: random_line_order(rng),
                digits: {
                    let mut d = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
                    d.shuffle(rng);
                    let mut m = [0u8; 10];
                    m[1..].copy_from_slice(&d);
                    m
                },
            }
        }

        /// Applies the transform.
        pub fn apply(&self, grid: &[u8; 81]) -> [u8; 81] {
            let src = if self.transpose {
                transpose(grid)
            } else {
                *grid
            };
            let mut out = [0u8; 81];
            for r in 0..9 {
                for c in 0..9 {
                    let v = src[9 * self.rows[r] + self.cols[c]];
                    out[9 * r + c] = self.digits.get(v as usize).copied().unwrap_or(v);
                }
            }
            out
        }
    }

    /// A random order of the nine rows (or columns) that keeps bands (stacks) together.
    fn random_line_order(rng: &mut impl Rng) -> [usize; 9] {
        let mut bands = [0usize, 1, 2];
        bands.shuffle(rng);
        let mut out = [0usize; 9];
        for (i, b) in bands.iter().enumerate() {
            let mut inner = [0usize, 1, 2];
            inner.shuffle(rng);
            for (j, k) in inner.iter().enumerate() {
                out[3 * i + j] = 3 * b + k;
            }
        }
        out
    }

    /// Relabels digits: `map[d - 1]` replaces `d` (a permutation of 1..=9 given as `[u8; 9]`).
    pub(crate) fn relabel(grid: &[u8; 81], map: [u8; 9]) -> Result<[u8; 81], TransformError> {
        let idx: Vec<usize> = map.iter().map(|&d| (d as usize).wrapping_sub(1)).collect();
        check_perm(&idx)?;
        let mut full = [0u8; 10];
        full[1..].copy_from_slice(&map);
        Ok(grid.map(|v| full.get(v as usize).copied().unwrap_or(v)))
    }

    /// Reorders the rows of one band: `perm[i]` is the band row (0..3) that goes to row `i`.
    pub(crate) fn permute_rows_in_band(
        grid: &[u8; 81],
        band: usize,
        perm: [usize; 3],
    ) -> Result<[u8; 81], TransformError> {
        check_perm(&perm)?;
        if band > 2 {
            return Err(TransformError::NoSuchBand(band));
        }
        let mut out = *grid;
        for (i, &p) in perm.iter().enumerate() {
            let (dst, src) = (3 * band + i, 3 * band + p);
            out[9 * dst..9 * dst + 9].copy_from_slice(&grid[9 * src..9 * src + 9]);
        }
        Ok(out)
    }

    /// Reorders the bands: `perm[i]` is the band that goes to band `i`.
    pub(crate) fn permute_bands(
        grid: &[u8; 81],
        perm: [usize; 3],
    ) -> Result<[u8; 81], TransformError> {
        check_perm(&perm)?;
        let mut out = *grid;
        for (i, &p) in perm.iter().enumerate() {
            out[27 * i..27 * i + 27].copy_from_slice(&grid[27 * p..27 * p + 27]);
        }
        Ok(out)
    }

    /// Reorders the columns of one stack: `perm[i]` is the stack column (0..3) that goes to
    /// column `i`.
    pub(crate) fn permute_cols_in_stack(
        grid: &[u8; 81],
        stack: usize,
        perm: [usize; 3],
    ) -> Result<[u8; 81], TransformError> {
        Ok(transpose(&permute_rows_in_band(
            &transpose(grid),
            stack,
            perm,
        )?))
    }

    /// Reorders the stacks: `perm[i]` is the stack that goes to stack `i`.
    pub(crate) fn permute_stacks(
        grid: &[u8; 81],
        perm: [usize; 3],
    ) -> Result<[u8; 81], TransformError> {
        Ok(transpose(&permute_bands(&transpose(grid), perm)?))
    }

    /// The grid turned a quarter clockwise.
    pub(crate) fn rotate90(grid: &[u8; 81]) -> [u8; 81] {
        let mut out = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                out[9 * c + (8 - r)] = grid[9 * r + c];
            }
        }
        out
    }

    /// The grid turned half a turn.
    pub(crate) fn rotate180(grid: &[u8; 81]) -> [u8; 81] {
        let mut out = *grid;
        out.reverse();
        out
    }

    /// The grid turned a quarter anticlockwise.
    pub(crate) fn rotate270(grid: &[u8; 81]) -> [u8; 81] {
        rotate180(&rotate90(grid))
    }

    /// The grid mirrored left to right.
    pub(crate) fn mirror_horizontal(grid: &[u8; 81]) -> [u8; 81] {
        let mut out = *grid;
        for row in out.chunks_mut(9) {
            row.reverse();
        }
        out
    }

    /// The grid mirrored top to bottom.
    pub(crate) fn mirror_vertical(grid: &[u8; 81]) -> [u8; 81] {
        let mut out = [0u8; 81];
        for r in 0..9 {
            out[9 * r..9 * r + 9].copy_from_slice(&grid[9 * (8 - r)..9 * (8 - r) + 9]);
        }
        out
    }

    /// The grid mirrored in its anti-diagonal.
    pub(crate) fn anti_transpose(grid: &[u8; 81]) -> [u8; 81] {
        rotate180(&transpose(grid))
    }
}

/// Every ordering of three items.
const PERMS3: [[usize; 3]; 6] = crate::model::cell::PERMUTATIONS_OF_3;

/// The canonical form of a puzzle (or grid): the lexicographically smallest 81-value
/// sequence over all equivalence transforms (transposition, band and row permutations, stack
/// and column permutations), with digits relabelled in order of first appearance (so the first
/// given read row by row is 1, the next new digit 2, …). Empty cells (0) sort first, so the
/// canonical form puts the empty cells as early as it can. Two puzzles are equivalent exactly
/// when their canonical forms are equal.
///
/// It is found by building the result row by row for each of the 2 × 1296 column orders and
/// cutting every branch whose prefix is already larger than the best found, rather than by
/// trying all 3,359,232 transforms. Branches that are images of one another under a symmetry
/// of the grid are searched once: column orders giving the same grid (equal columns, as in
/// sparse grids), and rows (bands) equal to an unused row of the same band (an unused band)
/// already tried. So the empty grid, grids with few clues and grids with many automorphisms
/// take as little time as ordinary puzzles (the empty grid: 9 row placements instead of
/// millions).
pub fn canonical(grid: &[u8; 81]) -> [u8; 81] {
    canonical_counting(grid).0
}

/// [`canonical`], with the number of rows placed in the search (a measure of its work).
fn canonical_counting(grid: &[u8; 81]) -> ([u8; 81], u64) {
    let mut best = [u8::MAX; 81];
    let mut nodes = 0u64;
    // Two column orders give the same grid only when two columns are equal; only then are the
    // grids remembered, to search each once.
    let mut seen: Option<std::collections::HashSet<[u8; 81]>> = None;
    for t in [false, true] {
        let g = if t { transpose(grid) } else { *grid };
        if seen.is_none() && has_equal_columns(&g) {
            seen = Some(std::collections::HashSet::new());
        }
        for sp in PERMS3 {
            for p0 in PERMS3 {
                for p1 in PERMS3 {
                    for p2 in PERMS3 {
                        let inner = [p0, p1, p2];
                        let mut cols = [0usize; 9];
                        for (i, &s) in sp.iter().enumerate() {
                            for j in 0..3 {
                                cols[3 * i + j] = 3 * s + inner[i][j];
                            }
                        }
                        // Pre-permute the columns once per column order.
                        let mut h = [0u8; 81];
                        for r in 0..9 {
                            for c in 0..9 {
                                h[9 * r + c] = g[9 * r + cols[c]];
                            }
                        }
                        if let Some(seen) = seen.as_mut()
                            && !seen.insert(h)
                        {
                            continue;
                        }
                        let mut cur = [0u8; 81];
                        let mut search = RowSearch {
                            h: &h,
                            cur: &mut cur,
                            best: &mut best,
                            nodes: &mut nodes,
                        };
                        search.rows(0, 0, 0, [0; 10], 1);
                    }
                }
            }
        }
    }
    (best, nodes)
}

/// Whether two columns of the grid hold the same values.
fn has_equal_columns(g: &[u8; 81]) -> bool {
    let col = |c: usize| -> [u8; 9] { std::array::from_fn(|r| g[9 * r + c]) };
    let cols: [[u8; 9]; 9] = std::array::from_fn(col);
    (0..9).any(|a| (a + 1..9).any(|b| cols[a] == cols[b]))
}

/// The canonical form as an 81-character line, `.` for empty cells.
pub fn canonical_line(grid: &[u8; 81]) -> String {
    crate::model::grid::values_line(&canonical(grid))
}

/// The row search of one column order: the column-permuted grid, the result being built, the
/// best result so far and the count of rows placed.
struct RowSearch<'a> {
    h: &'a [u8; 81],
    cur: &'a mut [u8; 81],
    best: &'a mut [u8; 81],
    nodes: &'a mut u64,
}

impl RowSearch<'_> {
    /// Row `r` of the column-permuted grid.
    fn row(&self, r: usize) -> &[u8] {
        &self.h[9 * r..9 * r + 9]
    }

    /// Depth-first over row orders: at `level`, pick a row (the first row of an unused band
    /// when `level % 3 == 0`, else an unused row of the current band), relabel it with the
    /// labels met so far, and go on only while the prefix is not larger than `best`'s. A row
    /// equal to an unused row of its band tried before it, or a band equal to an unused band
    /// tried before it, leads to the same results and is skipped.
    fn rows(
        &mut self,
        level: usize,
        used_bands: u8,
        used_rows: u16,
        labels: [u8; 10],
        next_label: u8,
    ) {
        if level == 9 {
            if self.cur[..] < self.best[..] {
                *self.best = *self.cur;
            }
            return;
        }
        let band_start = level.is_multiple_of(3);
        let current_band = if band_start {
            None
        } else {
            // The band of the row placed at the start of this band of the result.
            (0..3).find(|b| used_rows & (0b111 << (3 * b)) != 0 && used_bands & (1 << b) == 0)
        };
        for r in 0..9 {
            let b = r / 3;
            if used_rows & (1 << r) != 0 {
                continue;
            }
            match current_band {
                None if used_bands & (1 << b) != 0 => continue,
                Some(cb) if cb != b => continue,
                _ => {}
            }
            // Symmetric choices: an equal unused row of the same band before this one, or at
            // a band start an equal unused band before this one.
            let unused = |x: usize| used_rows & (1 << x) == 0;
            if (3 * b..r).any(|x| unused(x) && self.row(x) == self.row(r)) {
                continue;
            }
            if band_start
                && (0..b).any(|x| {
                    used_bands & (1 << x) == 0
                        && self.h[27 * x..27 * x + 27] == self.h[27 * b..27 * b + 27]
                })
            {
                continue;
            }
            *self.nodes += 1;
            let mut lab = labels;
            let mut next = next_label;
            let start = 9 * level;
            for c in 0..9 {
                let v = self.h[9 * r + c] as usize;
                let out = if v == 0 || v > 9 {
                    0
                } else {
                    if lab[v] == 0 {
                        lab[v] = next;
                        next += 1;
                    }
                    lab[v]
                };
                self.cur[start + c] = out;
            }
            if self.cur[..start + 9] > self.best[..start + 9] {
                continue;
            }
            let rows = used_rows | (1 << r);
            // A band is finished when its three rows are used.
            let bands = if rows & (0b111 << (3 * b)) == 0b111 << (3 * b) {
                used_bands | (1 << b)
            } else {
                used_bands
            };
            self.rows(level + 1, bands, rows, lab, next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::transforms::*;
    use super::*;
    use crate::brute::nine::count_solutions;
    use rand::Rng;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const SOLVED: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    fn parse(s: &str) -> [u8; 81] {
        let mut v = [0u8; 81];
        for (i, c) in s.chars().take(81).enumerate() {
            v[i] = c.to_digit(10).unwrap_or(0) as u8;
        }
        v
    }

    fn valid_solved(g: &[u8; 81]) -> bool {
        g.iter().all(|&v| (1..=9).contains(&v)) && count_solutions(g, 2) == 1 && {
            // No clash: a full grid with a solution is itself the solution.
            crate::model::grid::Grid::from_values(g)
                .conflict()
                .is_none()
        }
    }

    #[test]
    fn every_transform_keeps_a_valid_grid() {
        let g = parse(SOLVED);
        assert!(valid_solved(&g));
        let all: Vec<[u8; 81]> = vec![
            transpose(&g),
            rotate90(&g),
            rotate180(&g),
            rotate270(&g),
            mirror_horizontal(&g),
            mirror_vertical(&g),
            anti_transpose(&g),
            relabel(&g, [9, 8, 7, 6, 5, 4, 3, 2, 1]).unwrap(),
            permute_rows_in_band(&g, 1, [2, 0, 1]).unwrap(),
            permute_bands(&g, [1, 2, 0]).unwrap(),
            permute_cols_in_stack(&g, 2, [1, 0, 2]).unwrap(),
            permute_stacks(&g, [2, 1, 0]).unwrap(),
        ];
        for (i, t) in all.iter().enumerate() {
            assert!(valid_solved(t), "transform {i}");
            assert_ne!(*t, g, "transform {i} changed nothing");
        }
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..50 {
            let t = Transform::random(&mut rng).apply(&g);
            assert!(valid_solved(&t));
        }
    }

    #[test]
    fn rotations_compose() {
        let g = parse(SOLVED);
        assert_eq!(rotate90(&rotate90(&g)), rotate180(&g));
        assert_eq!(rotate90(&rotate270(&g)), g);
        assert_eq!(transpose(&transpose(&g)), g);
        assert_eq!(mirror_vertical(&mirror_horizontal(&g)), rotate180(&g));
    }

    #[test]
    fn bad_permutations_are_errors() {
        let g = parse(SOLVED);
        assert!(permute_bands(&g, [0, 0, 1]).is_err());
        assert!(permute_rows_in_band(&g, 0, [0, 1, 3]).is_err());
        assert!(relabel(&g, [1, 2, 3, 4, 5, 6, 7, 8, 8]).is_err());
        assert!(relabel(&g, [0, 2, 3, 4, 5, 6, 7, 8, 9]).is_err());
        assert!(permute_rows_in_band(&g, 3, [0, 1, 2]).is_err());
        let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        assert_eq!(
            Transform::new(false, id, id, digits).unwrap(),
            Transform::identity()
        );
        let split = [0, 1, 3, 2, 4, 5, 6, 7, 8];
        assert_eq!(
            Transform::new(false, split, id, digits),
            Err(TransformError::SplitsBands(split.to_vec()))
        );
        assert!(Transform::new(true, id, [9, 1, 2, 3, 4, 5, 6, 7, 8], digits).is_err());
        assert!(Transform::new(true, id, id, [1, 1, 3, 4, 5, 6, 7, 8, 9]).is_err());
        let t = Transform::new(
            true,
            [3, 5, 4, 0, 1, 2, 8, 7, 6],
            id,
            [2, 1, 3, 4, 5, 6, 7, 8, 9],
        );
        assert!(valid_solved(&t.unwrap().apply(&g)));
    }

    #[test]
    fn transforms_keep_the_solution_count() {
        let p = parse(PUZZLE);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..20 {
            let t = Transform::random(&mut rng).apply(&p);
            assert_eq!(count_solutions(&t, 2), 1);
            assert_eq!(t.iter().filter(|&&v| v != 0).count(), 32);
        }
    }

    /// Relabels digits in order of first appearance, as the canonical form does.
    fn relabelled(g: &[u8; 81]) -> [u8; 81] {
        let mut lab = [0u8; 10];
        let mut next = 1;
        g.map(|v| {
            if v == 0 {
                return 0;
            }
            if lab[v as usize] == 0 {
                lab[v as usize] = next;
                next += 1;
            }
            lab[v as usize]
        })
    }

    /// The 1296 orders of nine lines that keep bands together.
    fn line_orders() -> Vec<[usize; 9]> {
        let mut out = Vec::new();
        for b in PERMS3 {
            for p0 in PERMS3 {
                for p1 in PERMS3 {
                    for p2 in PERMS3 {
                        let inner = [p0, p1, p2];
                        let mut o = [0usize; 9];
                        for i in 0..9 {
                            o[i] = 3 * b[i / 3] + inner[i / 3][i % 3];
                        }
                        out.push(o);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn canonical_form_is_the_minimum_over_every_transform() {
        // Brute force over all 3,359,232 transforms (digits relabelled by first appearance).
        let p = parse(PUZZLE);
        let orders = line_orders();
        assert_eq!(orders.len(), 1296);
        let mut best = [u8::MAX; 81];
        for g in [p, transpose(&p)] {
            for rows in &orders {
                for cols in &orders {
                    let mut t = [0u8; 81];
                    for r in 0..9 {
                        for c in 0..9 {
                            t[9 * r + c] = g[9 * rows[r] + cols[c]];
                        }
                    }
                    let t = relabelled(&t);
                    if t < best {
                        best = t;
                    }
                }
            }
        }
        assert_eq!(canonical(&p), best);
    }

    #[test]
    fn canonical_form_is_invariant_and_separates() {
        let p = parse(PUZZLE);
        let c = canonical(&p);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..10 {
            let t = Transform::random(&mut rng).apply(&p);
            assert_eq!(canonical(&t), c);
        }
        assert_eq!(canonical(&rotate90(&p)), c);
        // Same clue count, a different puzzle.
        let mut q = p;
        q.swap(2, 4);
        assert_ne!(canonical(&q), c);
        // The canonical form is itself a transform of the puzzle: same clues, one solution,
        // and its own canonical form.
        assert_eq!(count_solutions(&c, 2), 1);
        assert_eq!(canonical(&c), c);
        assert_eq!(canonical_line(&p).len(), 81);
        assert!(canonical_line(&p).starts_with('.'));
    }

    /// The canonical form as it was computed before symmetric branches were cut: every column
    /// order, every row order, pruning on the prefix only.
    fn canonical_unpruned(grid: &[u8; 81]) -> [u8; 81] {
        fn search(
            h: &[u8; 81],
            level: usize,
            used: u16,
            lab: [u8; 10],
            next: u8,
            cur: &mut [u8; 81],
            best: &mut [u8; 81],
        ) {
            if level == 9 {
                if cur[..] < best[..] {
                    *best = *cur;
                }
                return;
            }
            // At a band start, a row of a band none of whose rows is used; else a row of the
            // band of the last row placed.
            let band_of_level = (!level.is_multiple_of(3))
                .then(|| {
                    (0..9)
                        .find(|&r| {
                            used & (1 << r) != 0
                                && (0..3).any(|k| used & (1 << (3 * (r / 3) + k)) == 0)
                        })
                        .map(|r| r / 3)
                })
                .flatten();
            for r in 0..9 {
                let b = r / 3;
                if used & (1 << r) != 0 {
                    continue;
                }
                match band_of_level {
                    Some(cb) if cb != b => continue,
                    None if used & (0b111 << (3 * b)) != 0 => continue,
                    _ => {}
                }
                let (mut l, mut n) = (lab, next);
                for c in 0..9 {
                    let v = h[9 * r + c] as usize;
                    cur[9 * level + c] = if v == 0 {
                        0
                    } else {
                        if l[v] == 0 {
                            l[v] = n;
                            n += 1;
                        }
                        l[v]
                    };
                }
                if cur[..9 * level + 9] > best[..9 * level + 9] {
                    continue;
                }
                search(h, level + 1, used | (1 << r), l, n, cur, best);
            }
        }
        let mut best = [u8::MAX; 81];
        for g in [*grid, transpose(grid)] {
            for cols in line_orders() {
                let mut h = [0u8; 81];
                for r in 0..9 {
                    for c in 0..9 {
                        h[9 * r + c] = g[9 * r + cols[c]];
                    }
                }
                search(&h, 0, 0, [0; 10], 1, &mut [0u8; 81], &mut best);
            }
        }
        best
    }

    /// Grids that defeat pruning: empty, a few clues, symmetric patterns, full grids.
    fn hard_to_prune(rng: &mut ChaCha8Rng) -> Vec<[u8; 81]> {
        let solved = parse(SOLVED);
        let mut out = vec![[0u8; 81], solved, parse(PUZZLE)];
        for clues in 1..=6 {
            for _ in 0..3 {
                let mut g = [0u8; 81];
                for _ in 0..clues {
                    let cell = rng.random_range(0..81);
                    g[cell] = solved[cell];
                }
                out.push(g);
            }
        }
        // The main diagonal; the four corners; the centre box; one full row; one full band.
        let mut diagonal = [0u8; 81];
        let mut corners = [0u8; 81];
        let mut centre = [0u8; 81];
        let mut row = [0u8; 81];
        let mut band = [0u8; 81];
        for i in 0..9 {
            diagonal[10 * i] = solved[10 * i];
            row[40 - 4 + i] = solved[40 - 4 + i];
            centre[9 * (3 + i / 3) + 3 + i % 3] = solved[9 * (3 + i / 3) + 3 + i % 3];
        }
        for cell in [0, 8, 72, 80] {
            corners[cell] = 1;
        }
        band[27..54].copy_from_slice(&solved[27..54]);
        out.extend([diagonal, corners, centre, row, band]);
        out
    }

    #[test]
    fn canonical_form_is_unchanged_by_cutting_symmetric_branches() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for g in hard_to_prune(&mut rng) {
            let c = canonical(&g);
            assert_eq!(
                c,
                canonical_unpruned(&g),
                "{}",
                crate::model::grid::values_line(&g)
            );
            let t = Transform::random(&mut rng).apply(&g);
            assert_eq!(canonical(&t), c, "{}", crate::model::grid::values_line(&g));
        }
    }

    #[test]
    fn canonical_search_stays_small_on_sparse_and_symmetric_grids() {
        // Before symmetric branches were cut, the empty grid placed 2 × 1296 × 2,413 rows.
        let (c, nodes) = canonical_counting(&[0u8; 81]);
        assert_eq!(c, [0u8; 81]);
        assert_eq!(nodes, 9);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for g in hard_to_prune(&mut rng) {
            let (_, nodes) = canonical_counting(&g);
            assert!(
                nodes < 200_000,
                "{} placed {nodes} rows",
                crate::model::grid::values_line(&g)
            );
        }
    }
}

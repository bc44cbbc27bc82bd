//! The canonical form of a puzzle of any size: one representative of every class of equivalent
//! puzzles (band, row, stack and column permutations, transposition where the boxes are square,
//! digit relabelling).
//!
//! 9x9 keeps its own definition ([`crate::puzzle::canonical::canonical`]: the smallest 81-value line
//! over every transform, found by a search over its 2 x 1296 column orders). That enumeration
//! does not scale (16x16 has 2 x 7,962,624 column orders, 25x25 about 6 x 10^12), so the other
//! sizes are canonised as a coloured graph, by the individualisation-refinement search of the
//! `canonical-form` crate:
//!
//! ```text
//!  colour 0  two roots                 rows' root, columns' root (one colour when boxes are
//!  colour 2  bands, stacks             square: transposition swaps them; else 0/1, 2/3, 4/5)
//!  colour 4  rows, columns             each joined to its band (stack), bands to their root
//!  colour 6  digits                    n of them, unjoined when absent from the puzzle
//!  colour 7  one vertex per clue       joined to its row, its column and its digit
//! ```
//!
//! The automorphisms of this tree (bands under a root, rows under a band) are exactly the
//! line permutations that keep bands and stacks whole, swapping the roots is transposition and
//! permuting the digit vertices is relabelling; so two puzzles are equivalent exactly when
//! their graphs are isomorphic. The canonical puzzle is read off the canonical graph (rows in
//! the order of their vertices, bands first), then its digits are renumbered in order of first
//! appearance, so the first clue read row by row is 1.

use canonical_form::Canonize;

use crate::model::Layout;
use crate::text::Puzzle;

/// Vertex colours of the puzzle graph (see the module doc).
const ROOT: u8 = 0;
const BAND: u8 = 2;
const LINE: u8 = 4;
const DIGIT: u8 = 6;
const CLUE: u8 = 7;

/// A puzzle as a coloured graph: a colour per vertex and the edges, each `(low, high)`, sorted.
/// Its order (colours, then edges) picks the canonical image among isomorphic ones.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct PuzzleGraph {
    /// `kind << 32 | class`: the kind of vertex (the colours above) and, for the lines of a
    /// full grid, a class by an invariant that refines them (see [`line_classes`]).
    colour: Vec<u64>,
    edges: Vec<(u32, u32)>,
}

impl Canonize for PuzzleGraph {
    fn size(&self) -> usize {
        self.colour.len()
    }

    fn apply_morphism(&self, p: &[usize]) -> PuzzleGraph {
        let mut colour = vec![0; self.colour.len()];
        for (u, &c) in self.colour.iter().enumerate() {
            colour[p[u]] = c;
        }
        let edges = self
            .edges
            .iter()
            .map(|&(a, b)| edge(p[a as usize], p[b as usize]))
            .collect();
        PuzzleGraph::new(colour, edges)
    }

    fn invariant_coloring(&self) -> Option<Vec<u64>> {
        Some(self.colour.clone())
    }

    fn invariant_neighborhood(&self, u: usize) -> Vec<Vec<usize>> {
        vec![self.neighbours(u)]
    }
}

/// The edge between `a` and `b`, low end first.
fn edge(a: usize, b: usize) -> (u32, u32) {
    (a.min(b) as u32, a.max(b) as u32)
}

impl PuzzleGraph {
    /// A graph of these colours and edges (sorted here).
    fn new(colour: Vec<u64>, mut edges: Vec<(u32, u32)>) -> PuzzleGraph {
        edges.sort_unstable();
        PuzzleGraph { colour, edges }
    }

    /// The graph of a puzzle's clues (see the module doc for its vertices).
    fn of(layout: Layout, values: &[u8]) -> PuzzleGraph {
        let (n, rows, cols) = (layout.n(), layout.box_rows(), layout.box_cols());
        // Distinct colours for the two sides unless transposition is an equivalence.
        let side = u8::from(rows != cols);
        let mut colour = vec![kind(ROOT), kind(ROOT + side)];
        let mut add = |c: u8, count: usize| {
            let first = colour.len();
            colour.extend(std::iter::repeat_n(kind(c), count));
            first
        };
        let bands = add(BAND, n / rows);
        let stacks = add(BAND + side, n / cols);
        let row0 = add(LINE, n);
        let col0 = add(LINE + side, n);
        let digit0 = add(DIGIT, n);
        if let Some((row_class, col_class)) = line_classes(layout, values) {
            for i in 0..n {
                colour[row0 + i] |= row_class[i];
                colour[col0 + i] |= col_class[i];
            }
        }
        let mut edges = Vec::with_capacity(2 * n + n / rows + n / cols + 3 * values.len());
        edges.extend((0..n / rows).map(|b| edge(0, bands + b)));
        edges.extend((0..n / cols).map(|s| edge(1, stacks + s)));
        edges.extend((0..n).map(|r| edge(bands + r / rows, row0 + r)));
        edges.extend((0..n).map(|c| edge(stacks + c / cols, col0 + c)));
        for (cell, &v) in values.iter().enumerate().filter(|&(_, &v)| v != 0) {
            let clue = colour.len();
            colour.push(kind(CLUE));
            edges.push(edge(row0 + cell / n, clue));
            edges.push(edge(col0 + cell % n, clue));
            edges.push(edge(digit0 + usize::from(v) - 1, clue));
        }
        PuzzleGraph::new(colour, edges)
    }

    /// The vertices joined to `u`, in index order.
    fn neighbours(&self, u: usize) -> Vec<usize> {
        let u = u as u32;
        let mut out: Vec<usize> = (self.edges.iter())
            .filter_map(|&(a, b)| match (a == u, b == u) {
                (true, _) => Some(b as usize),
                (_, true) => Some(a as usize),
                _ => None,
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The puzzle this graph describes, rows and columns in the order of their vertices
    /// (bands and stacks first), digits numbered in order of first appearance.
    fn to_values(&self, n: usize) -> Vec<u8> {
        let kind_of = |v: usize| (self.colour[v] >> 32) as u8;
        let roots: Vec<usize> = (0..self.colour.len())
            .filter(|&v| kind_of(v) <= ROOT + 1)
            .collect();
        // With square boxes either root may be the rows' root: the lower vertex is, which is
        // part of the canonical graph. Otherwise the rows' root has the lower colour.
        let rows_root = *roots
            .iter()
            .min_by_key(|&&v| (kind_of(v), v))
            .expect("two roots");
        let columns_root = *roots.iter().find(|&&v| v != rows_root).expect("two roots");
        let position = |root: usize| {
            let mut pos = vec![usize::MAX; self.colour.len()];
            let mut next = 0;
            for band in self.neighbours(root) {
                for line in self.neighbours(band).into_iter().filter(|&l| l != root) {
                    pos[line] = next;
                    next += 1;
                }
            }
            pos
        };
        let (row_pos, col_pos) = (position(rows_root), position(columns_root));
        let mut digit_rank = vec![0u8; self.colour.len()];
        for (rank, v) in (0..self.colour.len())
            .filter(|&v| kind_of(v) == DIGIT)
            .enumerate()
        {
            digit_rank[v] = rank as u8 + 1;
        }
        let mut values = vec![0u8; n * n];
        for clue in (0..self.colour.len()).filter(|&v| kind_of(v) == CLUE) {
            let (mut row, mut col, mut digit) = (usize::MAX, usize::MAX, 0);
            for v in self.neighbours(clue) {
                match kind_of(v) {
                    DIGIT => digit = digit_rank[v],
                    _ if row_pos[v] != usize::MAX => row = row_pos[v],
                    _ => col = col_pos[v],
                }
            }
            values[row * n + col] = digit;
        }
        renumber_by_first_appearance(&mut values);
        values
    }
}

/// The colour of a vertex of kind `k`, before any refinement.
fn kind(k: u8) -> u64 {
    u64::from(k) << 32
}

/// Classes of the rows and of the columns of a full grid by an invariant of the grid, so that
/// the search starts from lines already told apart (on a full grid every line looks alike to
/// the graph's refinement, and the search would try thousands of orders).
///
/// Two rows `a`, `b` define a permutation of the digits: the digit in `a` goes to the digit
/// below it in `b`. Its cycle lengths do not change under any line permutation or relabelling;
/// a row's signature is the sorted list of (same band, cycle lengths) over the other rows, the
/// same for columns. Rows and columns are then numbered by signature (in sorted order, so the
/// numbers are invariant too, transposition included). `None` for a grid with an empty cell.
fn line_classes(layout: Layout, values: &[u8]) -> Option<(Vec<u64>, Vec<u64>)> {
    if values.contains(&0) {
        return None;
    }
    let n = layout.n();
    let cycles = |a: &[u8], b: &[u8]| -> Vec<u8> {
        let mut to = [0u8; 26];
        for (&x, &y) in a.iter().zip(b) {
            to[usize::from(x)] = y;
        }
        let mut seen = [false; 26];
        let mut lengths = Vec::new();
        for &start in a {
            let mut len = 0u8;
            let mut d = start;
            while !seen[usize::from(d)] {
                seen[usize::from(d)] = true;
                d = to[usize::from(d)];
                len += 1;
            }
            if len > 0 {
                lengths.push(len);
            }
        }
        lengths.sort_unstable();
        lengths
    };
    let rows: Vec<Vec<u8>> = (0..n).map(|r| values[r * n..r * n + n].to_vec()).collect();
    let cols: Vec<Vec<u8>> = (0..n)
        .map(|c| (0..n).map(|r| values[r * n + c]).collect())
        .collect();
    let signatures = |lines: &[Vec<u8>], group: usize| -> Vec<Vec<(bool, Vec<u8>)>> {
        (0..n)
            .map(|a| {
                let mut sig: Vec<(bool, Vec<u8>)> = (0..n)
                    .filter(|&b| b != a)
                    .map(|b| (a / group == b / group, cycles(&lines[a], &lines[b])))
                    .collect();
                sig.sort_unstable();
                sig
            })
            .collect()
    };
    let row_sig = signatures(&rows, layout.box_rows());
    let col_sig = signatures(&cols, layout.box_cols());
    let mut all: Vec<&Vec<(bool, Vec<u8>)>> = row_sig.iter().chain(&col_sig).collect();
    all.sort_unstable();
    all.dedup();
    let class = |sig: &Vec<(bool, Vec<u8>)>| all.binary_search(&sig).expect("listed") as u64;
    Some((
        row_sig.iter().map(class).collect(),
        col_sig.iter().map(class).collect(),
    ))
}

/// Renames the digits so that they first appear in the order 1, 2, 3 ... read row by row.
fn renumber_by_first_appearance(values: &mut [u8]) {
    let mut label = [0u8; 26];
    let mut next = 1;
    for v in values.iter_mut().filter(|v| **v != 0) {
        let l = &mut label[usize::from(*v)];
        if *l == 0 {
            *l = next;
            next += 1;
        }
        *v = *l;
    }
}

/// The canonical values of a puzzle of any layout (9x9 included: the tests check this form
/// against 9x9's own) by canonising its graph.
fn graph_canonical(layout: Layout, values: &[u8]) -> Vec<u8> {
    PuzzleGraph::of(layout, values)
        .canonical()
        .to_values(layout.n())
}

impl Puzzle {
    /// The canonical form: equal for two puzzles exactly when one is the other after
    /// permuting bands, rows within bands, stacks, columns within stacks, transposing (where
    /// the boxes are square) and relabelling digits. Only the clues count (pencil marks are
    /// left out). 9x9 is [`crate::puzzle::canonical::canonical`]; other sizes are canonised as a
    /// graph (see `docs/sizes.md`), their digits numbered in order of first appearance.
    ///
    /// ```
    /// use lapiz::text::Puzzle;
    /// let a = Puzzle::parse("3.1...2.2....4..").unwrap();
    /// // The same puzzle with the two bands swapped and the digits 1 and 4 exchanged.
    /// let b = Puzzle::parse("2....1..3.4...2.").unwrap();
    /// assert_eq!(a.canonical(), b.canonical());
    /// assert_ne!(a.canonical(), Puzzle::parse("3.1...2.2....3..").unwrap().canonical());
    /// ```
    pub fn canonical(&self) -> Puzzle {
        let values = if self.layout == Layout::NINE {
            let nine: &[u8; 81] = self.values.as_slice().try_into().expect("81 values");
            crate::puzzle::canonical::canonical(nine).to_vec()
        } else {
            graph_canonical(self.layout, &self.values)
        };
        Puzzle {
            layout: self.layout,
            alphabet: self.alphabet,
            values,
            givens: None,
            marks: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random equivalence transform of a puzzle: bands, rows in bands, stacks, columns in
    /// stacks, transposition when the boxes are square, relabelling.
    fn shuffle(layout: Layout, values: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
        let (n, r, c) = (layout.n(), layout.box_rows(), layout.box_cols());
        let order = |group: usize, rng: &mut ChaCha8Rng| {
            let mut groups: Vec<usize> = (0..n / group).collect();
            groups.shuffle(rng);
            let mut out = Vec::with_capacity(n);
            for g in groups {
                let mut inner: Vec<usize> = (0..group).collect();
                inner.shuffle(rng);
                out.extend(inner.into_iter().map(|i| g * group + i));
            }
            out
        };
        let (rows, cols) = (order(r, rng), order(c, rng));
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        digits.shuffle(rng);
        let transpose = r == c && rng.random_bool(0.5);
        let mut out = vec![0u8; n * n];
        for (i, o) in out.iter_mut().enumerate() {
            let (row, col) = (rows[i / n], cols[i % n]);
            let v = values[row * n + col];
            *o = if v == 0 {
                0
            } else {
                digits[usize::from(v) - 1]
            };
        }
        if transpose {
            let copy = out.clone();
            for i in 0..n * n {
                out[(i % n) * n + i / n] = copy[i];
            }
        }
        out
    }

    /// A generated puzzle and its solution (25x25 not minimal: that takes minutes).
    fn generated(layout: Layout, seed: u64) -> (Puzzle, Puzzle) {
        use crate::puzzle::generate::Clues;
        let clues = match layout.n() {
            25 => Clues::AtMost(360),
            _ => Clues::Minimal,
        };
        let alphabet = crate::model::Alphabet::Standard;
        use crate::engine::pipeline::Pipeline;
        use crate::puzzle::generate::GenerateOptions;
        let options = GenerateOptions {
            clues,
            ..Default::default()
        };
        let made = Puzzle::generate(
            layout,
            alphabet,
            &options,
            &Pipeline::default_pipeline(),
            seed,
            0,
        );
        let made = made.expect("a puzzle");
        (made.puzzle, made.solution)
    }

    #[test]
    fn equivalent_puzzles_of_every_layout_have_one_form() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for (n, r, c) in [
            (4, 2, 2),
            (6, 2, 3),
            (6, 3, 2),
            (8, 2, 4),
            (12, 3, 4),
            (12, 2, 6),
            (16, 4, 4),
            (25, 5, 5),
        ] {
            let layout = Layout::with_box(n, r, c).unwrap();
            for seed in 0..2 {
                let (puzzle, solution) = generated(layout, seed);
                for p in [puzzle, solution] {
                    let form = p.canonical();
                    assert_eq!(form.clues(), p.clues());
                    assert_eq!(
                        form.count_solutions(2),
                        1,
                        "{layout}: canonical form unique"
                    );
                    assert_eq!(
                        form.canonical(),
                        form,
                        "{layout}: canonical is a fixed point"
                    );
                    for _ in 0..3 {
                        let t = shuffle(layout, p.values(), &mut rng);
                        let q = Puzzle::from_values(layout, p.alphabet(), t).unwrap();
                        assert_eq!(q.canonical(), form, "{layout} seed {seed}");
                    }
                }
            }
        }
    }

    #[test]
    fn reading_a_graph_back_gives_its_puzzle() {
        // The identity image of a puzzle's graph reads back as the puzzle (digits renumbered),
        // so the canonical image, an isomorphic graph, reads back as an equivalent puzzle.
        for (n, r, c, seed) in [(6, 3, 2, 1), (12, 2, 6, 2), (16, 4, 4, 3)] {
            let layout = Layout::with_box(n, r, c).unwrap();
            for p in <[Puzzle; 2]>::from(generated(layout, seed)) {
                let mut expected = p.values().to_vec();
                renumber_by_first_appearance(&mut expected);
                let graph = PuzzleGraph::of(layout, p.values());
                assert_eq!(graph.to_values(layout.n()), expected, "{layout}");
            }
        }
    }

    #[test]
    fn the_graph_form_separates_what_the_nine_form_separates() {
        // 9x9 has an independent canonical form: on 9x9 puzzles the graph form must call two
        // puzzles equal exactly when it does.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let nine = Layout::NINE;
        let mut puzzles: Vec<Vec<u8>> = Vec::new();
        for seed in 0..6 {
            let (p, _) = generated(nine, seed);
            puzzles.push(p.values().to_vec());
            puzzles.push(shuffle(nine, p.values(), &mut rng));
            // A near twin: one clue taken away.
            let mut twin = p.values().to_vec();
            let first = twin.iter().position(|&v| v != 0).unwrap();
            twin[first] = 0;
            puzzles.push(twin);
        }
        let forms: Vec<(Vec<u8>, [u8; 81])> = puzzles
            .iter()
            .map(|v| {
                let arr: [u8; 81] = v.as_slice().try_into().unwrap();
                (
                    graph_canonical(nine, v),
                    crate::puzzle::canonical::canonical(&arr),
                )
            })
            .collect();
        for a in &forms {
            for b in &forms {
                assert_eq!(a.0 == b.0, a.1 == b.1);
            }
        }
    }

    #[test]
    fn symmetric_and_empty_grids_are_canonised() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (n, b) in [(4u8, 2u8), (16, 4), (25, 5)] {
            let layout = Layout::with_box(n, b, b).unwrap();
            let (n, b) = (usize::from(n), usize::from(b));
            // The most symmetric full grid there is, and the empty grid.
            let pattern: Vec<u8> = (0..n * n)
                .map(|i| ((b * (i / n % b) + i / n / b + i % n) % n) as u8 + 1)
                .collect();
            let empty = vec![0u8; n * n];
            for values in [pattern, empty] {
                let form = graph_canonical(layout, &values);
                let t = shuffle(layout, &values, &mut rng);
                assert_eq!(graph_canonical(layout, &t), form);
            }
        }
    }
}

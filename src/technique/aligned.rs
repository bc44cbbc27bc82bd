//! Aligned exclusion: Aligned Pair Exclusion and Aligned Triple Exclusion, as Sudoku Explainer
//! (SE) 1.2.1 finds and rates them (6.2 and 7.5).
//!
//! Take two (three) unsolved *base* cells. Each combination of one candidate per base cell is
//! tried; it is impossible when two base cells that see each other get the same digit, or when
//! an *excluding cell* (a cell seeing every base cell) would be left with no candidate, its
//! candidates all being digits of the combination. A candidate of a base cell that takes part
//! in no possible combination goes.
//!
//! The rule here is SE's, as its `AlignedPairExclusion` and `AlignedExclusion` rules do it
//! (read in the SE 1.2.1 sources kept by the SudokuExplainer and SukakuExplainer forks,
//! `diuf/sudoku/solver/rules/AlignedExclusion.java` and `AlignedPairExclusion.java`; the facts
//! only, the code here is lapiz's own). For `n` base cells (2 or 3):
//! - the excluding cells a base cell can use are its peers with 2 to `n` candidates (bivalue
//!   peers for pairs; bivalue and trivalue peers for triples). The excluding cells of a set of
//!   base cells are the cells that are excluding cells of every one of them;
//! - a base cell is an empty cell with at least two candidates, at least one possible
//!   excluding cell, and no peer with a single candidate (SE skips cells next to a naked single;
//!   where singles come first in the pipeline, as in SE's, this never matters);
//! - despite the name the base cells need not be aligned: any two base cells make a pair. A
//!   triple needs one of its cells with at most three candidates to see another of its cells
//!   (SE builds triples from any pair plus a third cell among the pair's possible excluding
//!   cells);
//! - a set of base cells is only tried when it has at least two excluding cells;
//! - a combination is impossible when two base cells seeing each other hold the same digit, or
//!   when an excluding cell has all its candidates among the combination's digits (ALS as
//!   excluders, as SudokuWiki describes the technique, are not used: SE uses single cells).
//!
//! SE rates every step of the pair version 6.2 and of the triple version 7.5. Both are off in
//! the default pipeline (see docs/techniques.md).

use crate::technique::Builtin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::model::cell::{Cell, DigitMask, digit_bit, digits};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(AlignedExclusion::PAIR),
        Box::new(AlignedExclusion::TRIPLE),
    ]
}

/// Aligned exclusion on two or three base cells (see the module documentation).
pub struct AlignedExclusion {
    degree: usize,
    info: &'static TechniqueInfo,
}

impl AlignedExclusion {
    /// Aligned Pair Exclusion (6.2).
    pub const PAIR: AlignedExclusion = AlignedExclusion {
        degree: 2,
        info: entry("aligned-pair-exclusion"),
    };
    /// Aligned Triple Exclusion (7.5; SE calls it Aligned Triplet Exclusion).
    pub const TRIPLE: AlignedExclusion = AlignedExclusion {
        degree: 3,
        info: entry("aligned-triple-exclusion"),
    };
}

/// The most excluding cells a set of base cells can have: two cells share at most 13 peers (the
/// 7 other cells of their line and the 6 other cells of their box).
const MAX_EXCLUDERS: usize = 13;

/// What the search knows about the position before it picks base cells.
struct Setup {
    /// Empty cells with 2 to `degree` candidates: the possible excluding cells.
    small: CellSet,
    /// Per cell, its possible excluding cells (empty for cells that cannot be base cells).
    excluders: [CellSet; 81],
    /// The cells that can be base cells.
    base: CellSet,
}

impl Setup {
    fn new(grid: &Grid, degree: usize) -> Setup {
        let empty = grid.empty_cells();
        let (mut small, mut singles) = (CellSet::EMPTY, CellSet::EMPTY);
        for c in empty {
            let k = grid.candidates(c).count_ones() as usize;
            if k == 1 {
                singles.insert(c);
            } else if (2..=degree).contains(&k) {
                small.insert(c);
            }
        }
        let mut excluders = [CellSet::EMPTY; 81];
        let mut base = CellSet::EMPTY;
        for c in empty {
            if grid.candidates(c).count_ones() < 2 {
                continue;
            }
            let peers = c.peers();
            let e = peers & small;
            if peers.intersects(singles) || e.is_empty() {
                continue;
            }
            excluders[c.index()] = e;
            base.insert(c);
        }
        Setup {
            small,
            excluders,
            base,
        }
    }

    #[inline]
    fn excluders(&self, c: Cell) -> CellSet {
        self.excluders[c.index()]
    }
}

/// The cells after `cell` in index order.
#[inline]
fn after(cell: Cell) -> CellSet {
    CellSet::from_bits(CellSet::ALL.bits() & (!0u128 << (cell.index() + 1)))
}

/// A set of two or three base cells with what the combinations need.
struct BaseSet {
    n: usize,
    cells: [Cell; 3],
    masks: [DigitMask; 3],
    /// Whether cells 0-1, 0-2 and 1-2 see each other.
    sees: [bool; 3],
}

impl BaseSet {
    fn new(grid: &Grid, cells: &[Cell]) -> BaseSet {
        let mut set = BaseSet {
            n: cells.len(),
            cells: [Cell::default(); 3],
            masks: [0; 3],
            sees: [false; 3],
        };
        for (i, &c) in cells.iter().enumerate() {
            set.cells[i] = c;
            set.masks[i] = grid.candidates(c);
        }
        set.sees[0] = cells[0].sees(cells[1]);
        if set.n == 3 {
            set.sees[1] = cells[0].sees(cells[2]);
            set.sees[2] = cells[1].sees(cells[2]);
        }
        set
    }

    /// Calls `f(digits, allowed)` with every combination of one candidate per base cell (as
    /// digit bits) until it breaks: `allowed` is `None` for a combination putting one digit in
    /// two base cells that see each other, else `Some(union of the digits)`.
    #[inline]
    fn for_each_combination(
        &self,
        f: &mut impl FnMut([DigitMask; 3], Option<DigitMask>) -> ControlFlow<()>,
    ) {
        let [m0, m1, m2] = self.masks;
        for d0 in digits(m0) {
            let b0 = digit_bit(d0);
            for d1 in digits(m1) {
                let b1 = digit_bit(d1);
                let clash01 = self.sees[0] && b0 == b1;
                if self.n == 2 {
                    let u = (!clash01).then_some(b0 | b1);
                    if f([b0, b1, 0], u).is_break() {
                        return;
                    }
                    continue;
                }
                for d2 in digits(m2) {
                    let b2 = digit_bit(d2);
                    let clash = clash01 || (self.sees[1] && b2 == b0) || (self.sees[2] && b2 == b1);
                    let u = (!clash).then_some(b0 | b1 | b2);
                    if f([b0, b1, b2], u).is_break() {
                        return;
                    }
                }
            }
        }
    }

    /// Per base cell, the candidates that take part in at least one possible combination given
    /// the masks of the excluding cells. Stops early once every candidate is allowed.
    ///
    /// A bivalue excluding cell `xy` only forbids `x` and `y` together in two base cells, so
    /// each digit gets the mask of its partners in bivalue excluding cells and the last base
    /// cell's digits are found a mask at a time; a trivalue excluding cell `xyz` forbids `z`
    /// in the third cell once the first two hold `x` and `y`.
    fn allowed(&self, excluders: &[DigitMask]) -> [DigitMask; 3] {
        let mut partners = [0 as DigitMask; 9];
        let mut trivalue = [0 as DigitMask; MAX_EXCLUDERS];
        let mut nt = 0;
        for &e in excluders {
            if e.count_ones() == 2 {
                for d in digits(e) {
                    partners[d as usize - 1] |= e & !digit_bit(d);
                }
            } else {
                trivalue[nt] = e;
                nt += 1;
            }
        }
        let trivalue = &trivalue[..nt];
        let same = |sees: bool, bit: DigitMask| if sees { bit } else { 0 };
        let [m0, m1, m2] = self.masks;
        let mut allowed = [0; 3];
        for d0 in digits(m0) {
            let b0 = digit_bit(d0);
            let p0 = partners[d0 as usize - 1];
            let ones = m1 & !(p0 | same(self.sees[0], b0));
            if self.n == 2 {
                if ones != 0 {
                    allowed[0] |= b0;
                    allowed[1] |= ones;
                }
                continue;
            }
            let not_twos = p0 | same(self.sees[1], b0);
            for d1 in digits(ones) {
                let b1 = digit_bit(d1);
                let mut twos =
                    m2 & !(not_twos | partners[d1 as usize - 1] | same(self.sees[2], b1));
                if b0 != b1 {
                    for &t in trivalue {
                        if t & b0 != 0 && t & b1 != 0 {
                            twos &= !(t & !(b0 | b1));
                        }
                    }
                }
                if twos != 0 {
                    allowed[0] |= b0;
                    allowed[1] |= b1;
                    allowed[2] |= twos;
                }
            }
            if allowed == self.masks {
                break;
            }
        }
        allowed
    }
}

impl AlignedExclusion {
    /// Tries the base cells `cells` with their excluding cells `common`; hands a step to `sink`
    /// when some candidate goes.
    fn examine(
        &self,
        grid: &Grid,
        cells: &[Cell],
        common: CellSet,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let set = BaseSet::new(grid, cells);
        let union = set.masks.iter().fold(0, |u, &m| u | m);
        // only excluding cells within the base cells' digits can ever be emptied
        let mut ex_masks = [0 as DigitMask; MAX_EXCLUDERS];
        let mut ex_cells = [Cell::default(); MAX_EXCLUDERS];
        let mut k = 0;
        for e in common {
            let m = grid.candidates(e);
            if m & !union == 0 {
                ex_masks[k] = m;
                ex_cells[k] = e;
                k += 1;
            }
        }
        let allowed = set.allowed(&ex_masks[..k]);
        if (0..set.n).all(|i| allowed[i] == set.masks[i]) {
            return ControlFlow::Continue(());
        }
        sink(self.step(grid, &set, &ex_masks[..k], &ex_cells[..k], allowed))
    }

    /// The step for base cells `set` whose candidates outside `allowed` go.
    fn step(
        &self,
        grid: &Grid,
        set: &BaseSet,
        ex_masks: &[DigitMask],
        ex_cells: &[Cell],
        allowed: [DigitMask; 3],
    ) -> Step {
        let cells = &set.cells[..set.n];
        // the excluding cells that rule out some combination (the first one that does, for each)
        let mut used = CellSet::EMPTY;
        set.for_each_combination(&mut |_, u| {
            if let Some(u) = u
                && let Some(i) = ex_masks.iter().position(|&e| e & !u == 0)
            {
                used.insert(ex_cells[i]);
            }
            ControlFlow::Continue(())
        });
        let mut elims: Vec<Candidate> = Vec::new();
        for (i, &c) in cells.iter().enumerate() {
            elims.extend(digits(set.masks[i] & !allowed[i]).map(|d| Candidate::new(c, d)));
        }
        elims.sort();
        let base: CellSet = cells.iter().copied().collect();
        let of = |cs: CellSet| -> Vec<Candidate> {
            cs.iter()
                .flat_map(|c| digits(grid.candidates(c)).map(move |d| Candidate::new(c, d)))
                .collect()
        };
        let excluding = if used.is_empty() {
            String::new()
        } else {
            format!(" (excluding cells {used})")
        };
        let text = format!(
            "{}: {base}{excluding} => {}",
            self.info.name,
            eliminations_text(&elims)
        );
        let houses = cells[0].houses().into_iter();
        let mut step = Step::new(self.info.id, self.info.difficulty)
            .houses(houses.filter(|h| base.is_subset(h.cells())))
            .highlight(Role::Base, of(base));
        if !used.is_empty() {
            step = step.highlight(Role::Cover, of(used));
        }
        step.eliminations(elims).explain(text)
    }

    fn search(&self, grid: &Grid, sink: &mut StepSink<'_>) -> ControlFlow<()> {
        let setup = Setup::new(grid, self.degree);
        for a in setup.base {
            let ea = setup.excluders(a);
            for b in setup.base & after(a) {
                let eab = ea & setup.excluders(b);
                if eab.len() < 2 {
                    continue;
                }
                if self.degree == 2 {
                    self.examine(grid, &[a, b], eab, sink)?;
                    continue;
                }
                // the third cells making a triple SE tries: one of the three cells, with at
                // most three candidates, sees another
                let small = setup.small;
                let linked = a.sees(b) && (small.contains(a) || small.contains(b));
                let near = if linked {
                    CellSet::ALL
                } else {
                    let mut near = small & (a.peers() | b.peers());
                    if small.contains(a) {
                        near |= a.peers();
                    }
                    if small.contains(b) {
                        near |= b.peers();
                    }
                    near
                };
                for c in setup.base & after(b) & near {
                    let common = eab & setup.excluders(c);
                    if common.len() < 2 {
                        continue;
                    }
                    self.examine(grid, &[a, b, c], common, sink)?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

impl Builtin for AlignedExclusion {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| self.search(grid, sink))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::technique::find_all;
    use crate::text::nine::parse_pencil_marks;

    /// A position met solving top1465 (values `567.9..3....861.4.1483759..62.148......7...8......9....1.9836.43..52..1.....172.3`)
    /// where the next step is an XY-Wing.
    const PAIR_POSITION: &str = "
        5   6   7     | 24 9  24 | 18   3  18
        29  39  239   | 8  6  1  | 57   4  57
        1   4   8     | 3  7  5  | 9    26 26
        6   2   35    | 1  4  8  | 357  79 579
        49  359 13459 | 7  35 26 | 1345 8  26
        78  78  1345  | 26 35 9  | 1345 26 15
        27  1   25    | 9  8  3  | 6    57 4
        3   79  46    | 5  2  46 | 78   1  789
        489 589 4569  | 46 1  7  | 2    59 3";

    /// A position met solving top1465 (values `85..9....1.....6.....3.8.....8.4...9514.......3....24.........4.8...6..77..15..6.`)
    /// where the next step is a Death Blossom; no Aligned Pair Exclusion there.
    const TRIPLE_POSITION: &str = "
        8    5    236  | 2467 9     127  | 347  1237  123
        1    2479 239  | 2457 27    2457 | 6    23789 238
        249  2479 2679 | 3    16    8    | 4579 2579  125
        26   267  8    | 567  4     1357 | 1357 1357  9
        5    1    4    | 2789 23678 2379 | 378  378   368
        69   3    79   | 5678 168   157  | 2    4     1568
        2369 69   15   | 2789 2378  2379 | 1359 12359 4
        2349 8    15   | 249  23    6    | 1359 12359 7
        7    249  29   | 1    5     2349 | 389  6     238";

    fn cell(name: &str) -> Cell {
        let b = name.as_bytes();
        Cell::at(b[1] - b'1', b[3] - b'1')
    }

    fn cand(digit: u8, name: &str) -> Candidate {
        Candidate::new(cell(name), digit)
    }

    #[test]
    fn pair_exclusion_on_cells_sharing_no_house() {
        // r2c2 {39} and r7c1 {27} share no house; both see r2c1 {29} and r8c2 {79}. With 9 in
        // r2c2, r7c1 = 2 empties r2c1 and r7c1 = 7 empties r8c2: r2c2 loses 9. 3 in r2c2
        // survives with either digit of r7c1, so r7c1 keeps both.
        let grid = parse_pencil_marks(PAIR_POSITION).unwrap();
        let steps = find_all(&AlignedExclusion::PAIR, &grid).unwrap();
        let step = steps
            .iter()
            .find(|s| s.eliminations == [cand(9, "r2c2")])
            .expect("the r2c2,r7c1 pair");
        assert_eq!(
            step.explanation,
            "Aligned Pair Exclusion: r2c2,r7c1 (excluding cells r2c1,r8c2) => r2c2<>9"
        );
        assert_eq!(
            (step.technique.as_str(), step.difficulty),
            ("aligned-pair-exclusion", 6.2)
        );
        assert!(step.houses.is_empty());
        assert_eq!(step.highlights[0].role, Role::Base);
        assert_eq!(
            step.highlights[0].candidates,
            [
                cand(3, "r2c2"),
                cand(9, "r2c2"),
                cand(2, "r7c1"),
                cand(7, "r7c1")
            ]
        );
        assert_eq!(step.highlights[1].role, Role::Cover);
        assert_eq!(
            step.highlights[1].candidates,
            [
                cand(2, "r2c1"),
                cand(9, "r2c1"),
                cand(7, "r8c2"),
                cand(9, "r8c2")
            ]
        );
        // r7c1 and r9c1 {489} in column 1 and box 7: with 9 in r9c1, r7c1 = 2 empties r2c1
        // {29}, and r7c1 = 7 empties r8c2 {79}
        let aligned = steps
            .iter()
            .find(|s| s.eliminations == [cand(9, "r9c1")])
            .expect("the r7c1,r9c1 pair");
        assert!(
            aligned
                .explanation
                .starts_with("Aligned Pair Exclusion: r7c1,r9c1")
        );
        assert_eq!(aligned.houses.len(), 2);
        // every step of the position keeps the solution's digits
        let solution = crate::brute::nine::solve(grid.values()).unwrap();
        for s in &steps {
            assert_eq!(s.contradiction(&solution), None, "{}", s.explanation);
        }
    }

    #[test]
    fn triple_exclusion_where_no_pair_does() {
        // r6c3 {79}, r7c2 {69}, r9c2 {249}; r4c2 {267} and r9c3 {29} see all three. With 2 in
        // r9c2, r9c3 must be 9, so r6c3 = 7 (9 would empty r9c3); then r7c2 = 9 empties r9c3
        // and r7c2 = 6 empties r4c2 {267}.
        let grid = parse_pencil_marks(TRIPLE_POSITION).unwrap();
        assert!(find_all(&AlignedExclusion::PAIR, &grid).unwrap().is_empty());
        let steps = find_all(&AlignedExclusion::TRIPLE, &grid).unwrap();
        assert_eq!(steps.len(), 1, "{steps:#?}");
        let step = &steps[0];
        assert_eq!(
            step.explanation,
            "Aligned Triple Exclusion: r6c3,r7c2,r9c2 (excluding cells r4c2,r9c3) => r9c2<>2"
        );
        assert_eq!(step.eliminations, [cand(2, "r9c2")]);
        assert_eq!(step.difficulty, 7.5);
    }

    #[test]
    fn nothing_without_excluding_cells_or_next_to_a_single() {
        // an empty grid: no cell has two or three candidates
        let grid = Grid::empty();
        for t in techniques() {
            assert!(find_all(t.as_ref(), &grid).unwrap().is_empty());
        }
        // SE skips a base cell seeing a naked single: with r2c3 reduced to 3, r2c2 is no base
        // cell any more (the step on r7c1,r9c1 stays)
        let mut grid = parse_pencil_marks(PAIR_POSITION).unwrap();
        grid.set_candidates(cell("r2c3"), digit_bit(3));
        let steps = find_all(&AlignedExclusion::PAIR, &grid).unwrap();
        assert!(steps.iter().all(|s| !s.explanation.contains("r2c2,")));
        assert!(steps.iter().any(|s| s.eliminations == [cand(9, "r9c1")]));
    }

    /// [`BaseSet::allowed`] by trying every combination, as the rule says it.
    fn allowed_by_every_combination(set: &BaseSet, excluders: &[DigitMask]) -> [DigitMask; 3] {
        let mut allowed = [0; 3];
        set.for_each_combination(&mut |bits, u| {
            if let Some(u) = u
                && excluders.iter().all(|&e| e & !u != 0)
            {
                for i in 0..3 {
                    allowed[i] |= bits[i];
                }
            }
            ControlFlow::Continue(())
        });
        allowed
    }

    #[test]
    fn allowed_digits_are_those_of_every_possible_combination() {
        let mut tried = 0;
        for text in [PAIR_POSITION, TRIPLE_POSITION] {
            let grid = parse_pencil_marks(text).unwrap();
            let setup = Setup::new(&grid, 3);
            let cells: Vec<Cell> = (grid.empty_cells())
                .iter()
                .filter(|&c| grid.candidates(c).count_ones() >= 2)
                .collect();
            for (i, &a) in cells.iter().enumerate() {
                for (j, &b) in cells.iter().enumerate().skip(i + 1) {
                    let mut sets = vec![vec![a, b]];
                    sets.extend(cells[j + 1..].iter().map(|&c| vec![a, b, c]));
                    for base in sets {
                        let set = BaseSet::new(&grid, &base);
                        let common = base
                            .iter()
                            .fold(CellSet::ALL, |m, &c| m & c.peers() & setup.small);
                        let masks: Vec<DigitMask> = common
                            .iter()
                            .map(|c| grid.candidates(c))
                            .filter(|m| m.count_ones() as usize <= base.len())
                            .collect();
                        assert_eq!(
                            set.allowed(&masks),
                            allowed_by_every_combination(&set, &masks),
                            "{base:?}"
                        );
                        tried += 1;
                    }
                }
            }
        }
        assert!(tried > 10_000);
    }

    #[test]
    fn ids_names_and_difficulties() {
        let t = techniques();
        let got: Vec<(&str, &str, f32)> = t
            .iter()
            .map(|t| (t.id(), t.name(), t.difficulty()))
            .collect();
        assert_eq!(
            got,
            [
                ("aligned-pair-exclusion", "Aligned Pair Exclusion", 6.2),
                ("aligned-triple-exclusion", "Aligned Triple Exclusion", 7.5)
            ]
        );
        assert_eq!(AlignedExclusion::PAIR.degree, 2);
        assert_eq!(AlignedExclusion::TRIPLE.degree, 3);
    }
}

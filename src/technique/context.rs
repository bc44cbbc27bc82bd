//! [`Context`]: what techniques need to know about one position, built lazily and shared.
//!
//! The engine makes one context per position and hands it to every technique it searches there,
//! so the bivalue cells, the strong links, the group nodes, the almost locked sets (and the links
//! between them) and the chain link graph are each built at most once per position, and only when
//! a technique asks for them (the singles solve most easy puzzles without building any of it).

use std::cell::OnceCell;
use std::ops::ControlFlow;

use crate::model::candset::CandSet;
use crate::model::cell::{Cell, House, digits_compact};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use std::marker::PhantomData;

use crate::model::{Bits, BySize, Family, S9, Shape};
use crate::technique::StepSink;
use crate::technique::als::Adjacency;
use crate::technique::chains::graph::{GraphKind, LinkGraph};
use crate::technique::memo::Memo;

/// Runs `search(sink)` and says whether it ran to its end without handing a step on (what a
/// [`Memo`] remembers).
fn watched(
    sink: &mut StepSink<'_>,
    search: impl FnOnce(&mut StepSink<'_>) -> ControlFlow<()>,
) -> (ControlFlow<()>, bool) {
    let mut found = false;
    let flow = search(&mut |step| {
        found = true;
        sink(step)
    });
    (flow, !found && flow.is_continue())
}

/// A strong link: a digit with exactly two places in a house.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct StrongLink {
    /// The digit.
    pub digit: u8,
    /// The house holding exactly two candidates of the digit.
    pub house: House,
    /// The lower-numbered cell.
    pub a: Cell,
    /// The higher-numbered cell.
    pub b: Cell,
}

impl StrongLink {
    /// The two cells.
    #[inline]
    pub fn cells<S: Shape>(&self) -> CellSet<S> {
        CellSet::single(self.a) | CellSet::single(self.b)
    }

    /// The other end of the link from `cell`, when `cell` is one of its ends.
    #[inline]
    pub fn other(&self, cell: Cell) -> Option<Cell> {
        if cell == self.a {
            Some(self.b)
        } else if cell == self.b {
            Some(self.a)
        } else {
            None
        }
    }
}

/// The strong link of `digit` in `house`, when the digit has exactly two places there.
#[inline]
pub(crate) fn strong_link<S: Shape>(grid: &Grid<S>, digit: u8, house: House) -> Option<StrongLink> {
    let cells = grid.digit_cells_in(digit, house);
    if cells.len() != 2 {
        return None;
    }
    let mut it = cells.iter();
    let (a, b) = (it.next()?, it.next()?);
    Some(StrongLink { digit, house, a, b })
}

/// A group node: a digit in two or more cells of one box-line intersection (two or three on
/// 9x9), used as one node of a grouped chain.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct GroupNode<S: Shape = S9> {
    /// The digit.
    pub digit: u8,
    /// The cells (two or more, all in `line` and `boxed`).
    pub cells: CellSet<S>,
    /// The row or column.
    pub line: House,
    /// The box.
    pub boxed: House,
}

/// An almost locked set: `n` empty cells of one house holding `n + 1` digits between them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Als<S: Shape = S9> {
    /// The cells.
    pub cells: CellSet<S>,
    /// The digits (one more than there are cells).
    pub digits: S::Mask,
    /// A house holding every cell.
    pub house: House,
    /// Per digit, the cells of the set holding it.
    pub cells_of: CandSet<S>,
    /// Per digit, the cells outside the set that see every cell of the set holding it.
    pub seen_by: CandSet<S>,
}

impl<S: Shape> Als<S> {
    /// The cells of the set holding `digit`.
    #[inline]
    pub(crate) fn cells_of(&self, digit: u8) -> CellSet<S> {
        self.cells_of.cells(digit)
    }

    /// The cells outside the set that see every cell of it holding `digit`.
    #[inline]
    pub(crate) fn seen_by(&self, digit: u8) -> CellSet<S> {
        self.seen_by.cells(digit)
    }

    /// Whether `digit` is one of the set's digits.
    #[inline]
    pub fn has(&self, digit: u8) -> bool {
        self.digits.has(usize::from(digit) - 1)
    }

    /// The cells with the digits, e.g. `r1c2,r1c3 {128}` (digits of 10 and up separated by
    /// commas: `{1,12,16}`).
    pub(crate) fn describe(&self) -> String {
        format!("{} {{{}}}", self.cells, digits_compact(self.digits))
    }
}

/// The [`Family`] of contexts: a [`Context`] of each shape, borrowed for `'c`.
pub struct Contexts<'c>(PhantomData<&'c ()>);

impl<'c> Family for Contexts<'c> {
    type Of<S: Shape> = &'c Context<'c, S>;
}

/// A [`Context`] of any size, named by its size: what a technique that runs on every size is
/// handed ([`Technique::find_sized`](crate::Technique::find_sized)).
pub type SizedContext<'c> = BySize<Contexts<'c>>;

/// The largest almost locked set collected, in cells.
pub(crate) const MAX_ALS_CELLS: u32 = 8;

/// Everything a technique may want to know about one position, each part built on first use.
///
/// The engine makes one context per position and hands it to every technique it searches
/// there ([`Technique::find_in`](crate::Technique::find_in)), so the bivalue cells, the strong
/// links, the group nodes, the almost locked sets and the chain link graph are each built at
/// most once per position, and only when a technique asks for them (the singles solve most
/// easy puzzles without building any of it).
///
/// The grid may be of any size.
pub struct Context<'g, S: Shape = S9> {
    grid: &'g Grid<S>,
    bivalue: OnceCell<CellSet<S>>,
    strong_links: OnceCell<Vec<StrongLink>>,
    groups: OnceCell<Vec<GroupNode<S>>>,
    als: OnceCell<Vec<Als<S>>>,
    als_links: OnceCell<Adjacency<S>>,
    graphs: [OnceCell<LinkGraph<S>>; 3],
    /// The forcing searches' order of assumptions on large grids (`technique::forcing`).
    forcing_order: OnceCell<Vec<Candidate>>,
    /// Where searches found nothing in earlier positions of the same solve (the engine's).
    memo: Option<&'g Memo<S>>,
}

impl<'g, S: Shape> Context<'g, S> {
    /// A context for `grid`; nothing is computed yet.
    pub fn new(grid: &'g Grid<S>) -> Context<'g, S> {
        Context {
            grid,
            bivalue: OnceCell::new(),
            strong_links: OnceCell::new(),
            groups: OnceCell::new(),
            als: OnceCell::new(),
            als_links: OnceCell::new(),
            graphs: [OnceCell::new(), OnceCell::new(), OnceCell::new()],
            forcing_order: OnceCell::new(),
            memo: None,
        }
    }

    /// A context for `grid`, a position of the solve that keeps `memo` (see [`Memo`]).
    pub(crate) fn with_memo(grid: &'g Grid<S>, memo: &'g Memo<S>) -> Context<'g, S> {
        Context {
            memo: Some(memo),
            ..Context::new(grid)
        }
    }

    /// The order in which the forcing searches of this position follow their assumptions on
    /// large grids: built by `build` once, for every forcing technique searched here.
    pub(crate) fn forcing_order(&self, build: impl FnOnce() -> Vec<Candidate>) -> &[Candidate] {
        self.forcing_order.get_or_init(build)
    }

    /// `search(sink)` for `technique`'s steps in `digit`, a search that reads nothing but
    /// `digit`'s candidates: skipped when it found nothing with the same candidates earlier
    /// in the solve, remembered when it finds nothing now (see [`Memo`]).
    pub(crate) fn per_digit(
        &self,
        technique: &'static str,
        digit: u8,
        sink: &mut StepSink<'_>,
        search: impl FnOnce(&mut StepSink<'_>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(memo) = self.memo else {
            return search(sink);
        };
        let cells = self.grid.digit_cells(digit);
        if memo.digit_fruitless(technique, digit, cells) {
            return ControlFlow::Continue(());
        }
        let (flow, fruitless) = watched(sink, search);
        if fruitless {
            memo.digit_found_nothing(technique, digit, cells);
        }
        flow
    }

    /// `search(sink)` for `technique`'s steps in `house`, a search that reads nothing but the
    /// candidates of `house`'s cells: skipped and remembered as [`Context::per_digit`] is.
    pub(crate) fn per_house(
        &self,
        technique: &'static str,
        house: House,
        sink: &mut StepSink<'_>,
        search: impl FnOnce(&mut StepSink<'_>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(memo) = self.memo else {
            return search(sink);
        };
        let geo = self.grid.geometry();
        let index = house.index_in(S::N) as u8;
        let masks = || geo.house(house).iter().map(|c| self.grid.candidates(c));
        if memo.house_fruitless(technique, index, masks()) {
            return ControlFlow::Continue(());
        }
        let (flow, fruitless) = watched(sink, search);
        if fruitless {
            memo.house_found_nothing(technique, index, masks());
        }
        flow
    }

    /// The position.
    #[inline]
    pub fn grid(&self) -> &'g Grid<S> {
        self.grid
    }

    /// The same context, by size: how a technique of every size is handed a position.
    #[inline]
    pub fn sized(&self) -> SizedContext<'_> {
        S::by_size::<Contexts<'_>>(self)
    }

    /// The empty cells with exactly two candidates.
    pub(crate) fn bivalue_cells(&self) -> CellSet<S> {
        *self.bivalue.get_or_init(|| cells_with_count(self.grid, 2))
    }

    /// Every strong link (a digit with exactly two places in a house), by digit, then house.
    /// A pair of cells in a box and a line is listed once per house.
    pub(crate) fn strong_links(&self) -> &[StrongLink] {
        self.strong_links.get_or_init(|| {
            let mut out = Vec::new();
            let geo = self.grid.geometry();
            for digit in self.grid.all_digits() {
                out.extend(
                    geo.houses()
                        .filter_map(|house| strong_link(self.grid, digit, house)),
                );
            }
            out
        })
    }

    /// The strong links of one digit, by house (rows, then columns, then boxes).
    pub(crate) fn strong_links_of(&self, digit: u8) -> &[StrongLink] {
        let all = self.strong_links();
        let start = all.partition_point(|l| l.digit < digit);
        let end = start + all[start..].partition_point(|l| l.digit == digit);
        &all[start..end]
    }
}

impl<'g, S: Shape> Context<'g, S> {
    /// Every group node: for each digit, box and line through it (rows, then columns), the
    /// digit's cells in their intersection when there are at least two.
    pub(crate) fn group_nodes(&self) -> &[GroupNode<S>] {
        self.groups.get_or_init(|| {
            let mut out = Vec::new();
            let geo = self.grid.geometry();
            let layout = geo.layout();
            let (n, height, width) = (S::N, layout.box_rows(), layout.box_cols());
            let per_band = n / width;
            for digit in self.grid.all_digits() {
                let dc = self.grid.digit_cells(digit);
                for b in 0..n {
                    let boxed = House::from_index_in(2 * n + b, n);
                    let in_box = dc & geo.house(boxed);
                    if in_box.len() < 2 {
                        continue;
                    }
                    let (r0, c0) = ((b / per_band) * height, (b % per_band) * width);
                    let lines = (0..height)
                        .map(|i| House::from_index_in(r0 + i, n))
                        .chain((0..width).map(|i| House::from_index_in(n + c0 + i, n)));
                    for line in lines {
                        let cells = in_box & geo.house(line);
                        if cells.len() >= 2 {
                            out.push(GroupNode {
                                digit,
                                cells,
                                line,
                                boxed,
                            });
                        }
                    }
                }
            }
            out
        })
    }

    /// Every almost locked set of up to [`MAX_ALS_CELLS`] cells (bivalue cells are the
    /// one-cell sets), each listed once, ordered by size then cells.
    pub(crate) fn als(&self) -> &[Als<S>] {
        self.als.get_or_init(|| collect_als(self.grid))
    }

    /// The restricted-common links between the almost locked sets ([`Context::als`]), built
    /// once for the ALS techniques that search this position (ALS-XZ, ALS-XY-Wing, ALS-XY-Chain
    /// each built them before).
    pub(crate) fn als_adjacency(&self) -> &Adjacency<S> {
        self.als_links.get_or_init(|| Adjacency::build(self.als()))
    }

    /// The chain link graph of this position holding the nodes `kind` says (candidates, and
    /// group nodes, and ALS nodes), with their strong and weak links.
    pub(crate) fn link_graph(&self, kind: GraphKind) -> &LinkGraph<S> {
        let i = match kind {
            GraphKind::Plain => 0,
            GraphKind::Grouped => 1,
            GraphKind::WithAls => 2,
        };
        self.graphs[i].get_or_init(|| LinkGraph::build(self, kind))
    }
}

/// The empty cells of `grid` with exactly `n` candidates.
///
/// Counts every cell at once: the digit sets are added bit-sliced into sets holding bit 0, 1,
/// 2 … of each cell's count (a few dozen whole-board operations instead of a loop over the
/// cells): four planes count to 15 (9x9 and smaller), five to 31.
pub(crate) fn cells_with_count<S: Shape>(grid: &Grid<S>, n: u32) -> CellSet<S> {
    if n as usize > S::N {
        return CellSet::EMPTY;
    }
    let planes = if S::N < 16 { 4 } else { 5 };
    let mut all_bits = [CellSet::EMPTY; 5];
    let bits = &mut all_bits[..planes];
    for digit in grid.all_digits() {
        let mut carry = grid.digit_cells(digit);
        for plane in bits.iter_mut() {
            let next = *plane & carry;
            *plane = *plane ^ carry;
            carry = next;
            if carry.is_empty() {
                break;
            }
        }
    }
    bits.iter()
        .enumerate()
        .fold(grid.empty_cells(), |cells, (k, &plane)| {
            if n >> k & 1 != 0 {
                cells & plane
            } else {
                cells - plane
            }
        })
}

/// The empty cells of `grid` whose candidates are exactly `mask`: in the set of each digit
/// of the mask and of no other.
pub(crate) fn cells_with_candidates<S: Shape>(grid: &Grid<S>, mask: S::Mask) -> CellSet<S> {
    grid.all_digits().fold(grid.empty_cells(), |cells, digit| {
        if mask.has(usize::from(digit) - 1) {
            cells & grid.digit_cells(digit)
        } else {
            cells - grid.digit_cells(digit)
        }
    })
}

/// Every almost locked set of up to [`MAX_ALS_CELLS`] cells: proper subsets of a house's
/// empty cells with one digit more than cells. The subsets are grown cell by cell, a branch
/// dropped once it holds more than `MAX_ALS_CELLS + 1` digits (no set of at most
/// `MAX_ALS_CELLS` cells grown from it can be almost locked), which keeps the large boards'
/// houses of many candidates cheap.
fn collect_als<S: Shape>(grid: &Grid<S>) -> Vec<Als<S>> {
    /// Adds to `found` every almost locked set extending `cells` (holding `mask`) with cells
    /// of `empty[from..]`.
    fn grow<S: Shape>(
        grid: &Grid<S>,
        empty: &[Cell],
        from: usize,
        (cells, mask): (CellSet<S>, S::Mask),
        house: House,
        found: &mut Vec<(CellSet<S>, House)>,
    ) {
        for (i, &c) in empty.iter().enumerate().skip(from) {
            let (cells, mask) = (cells | CellSet::single(c), mask.or(grid.candidates(c)));
            let n = cells.len();
            if mask.count() > MAX_ALS_CELLS + 1 {
                continue;
            }
            if mask.count() == n + 1 && (n as usize) < empty.len() {
                found.push((cells, house));
            }
            if n < MAX_ALS_CELLS {
                grow(grid, empty, i + 1, (cells, mask), house, found);
            }
        }
    }
    let mut found: Vec<(CellSet<S>, House)> = Vec::new();
    let geo = grid.geometry();
    let mut empty: Vec<Cell> = Vec::with_capacity(S::N);
    for house in geo.houses() {
        empty.clear();
        empty.extend((geo.house(house) & grid.empty_cells()).iter());
        if empty.len() < 2 {
            continue;
        }
        let none = (CellSet::EMPTY, S::Mask::ZERO);
        grow(grid, &empty, 0, none, house, &mut found);
    }
    found.sort_by_key(|(cells, _)| (cells.len(), *cells));
    found.dedup_by_key(|(cells, _)| *cells);
    found
        .into_iter()
        .map(|(cells, house)| {
            let mut cells_of = CandSet::<S>::EMPTY;
            let mut seen_by = CandSet::<S>::EMPTY;
            let mut mask = S::Mask::ZERO;
            for d in grid.all_digits() {
                let dc = grid.digit_cells(d) & cells;
                if !dc.is_empty() {
                    mask.set(usize::from(d) - 1);
                    cells_of.add_cells(d, dc);
                    seen_by.add_cells(d, geo.common_peers(dc) - cells);
                }
            }
            Als {
                cells,
                digits: mask,
                house,
                cells_of,
                seen_by,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cell::digits;
    use crate::text::nine::parse_puzzle;

    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn strong_links_have_two_cells_in_their_house() {
        let grid = parse_puzzle(PUZZLE).unwrap();
        let ctx = Context::new(&grid);
        assert!(!ctx.strong_links().is_empty());
        for l in ctx.strong_links() {
            assert_eq!(grid.digit_cells_in(l.digit, l.house).len(), 2);
            assert!(l.a < l.b);
        }
    }

    #[test]
    fn strong_links_of_a_digit_are_its_slice_of_all() {
        let grid = parse_puzzle(PUZZLE).unwrap();
        let ctx = Context::new(&grid);
        for digit in 1..=9u8 {
            let filtered: Vec<StrongLink> = ctx
                .strong_links()
                .iter()
                .filter(|l| l.digit == digit)
                .copied()
                .collect();
            assert_eq!(ctx.strong_links_of(digit), &filtered[..]);
        }
    }

    #[test]
    fn every_als_has_one_more_digit_than_cells() {
        let grid = parse_puzzle(PUZZLE).unwrap();
        let ctx = Context::new(&grid);
        let als = ctx.als();
        assert!(!als.is_empty());
        for a in als {
            assert_eq!(a.digits.count(), a.cells.len() + 1);
            assert_eq!(grid.candidates_of(a.cells), a.digits);
            for d in digits(a.digits) {
                assert!(!a.cells_of(d).is_empty());
                assert!(!a.seen_by(d).intersects(a.cells));
            }
        }
        // listed once each
        let mut cells: Vec<CellSet> = als.iter().map(|a| a.cells).collect();
        cells.dedup();
        assert_eq!(cells.len(), als.len());
        // bivalue cells are the one-cell sets
        let one: CellSet = als
            .iter()
            .filter(|a| a.cells.len() == 1)
            .map(|a| a.cells.first().unwrap())
            .collect();
        assert_eq!(one, ctx.bivalue_cells());
    }

    #[test]
    fn cells_by_count_and_by_candidates_match_a_cell_by_cell_count() {
        let mut grids = vec![parse_puzzle(PUZZLE).unwrap()];
        // positions with fewer candidates: the same grid with some candidates removed
        let mut g = grids[0].clone();
        for (i, c) in g.empty_cells().iter().enumerate().collect::<Vec<_>>() {
            let first = crate::model::cell::digits(g.candidates(c)).next();
            if let Some(d) = first.filter(|_| i % 3 == 0) {
                g.eliminate(c, d);
            }
        }
        grids.push(g);
        for grid in &grids {
            for n in 0..=10u32 {
                let want: CellSet = grid
                    .empty_cells()
                    .iter()
                    .filter(|&c| grid.candidates(c).count_ones() == n)
                    .collect();
                assert_eq!(cells_with_count(grid, n), want, "n = {n}");
            }
            for mask in [0b11, 0b101000000, 0b111, 0b110010001, 0x1ff, 0] {
                let want: CellSet = grid
                    .empty_cells()
                    .iter()
                    .filter(|&c| grid.candidates(c) == mask)
                    .collect();
                assert_eq!(cells_with_candidates(grid, mask), want, "mask {mask:#b}");
            }
        }
    }

    #[test]
    fn group_nodes_lie_in_a_box_line_intersection() {
        let grid = parse_puzzle(PUZZLE).unwrap();
        let ctx = Context::new(&grid);
        for g in ctx.group_nodes() {
            assert!(g.cells.len() >= 2);
            assert!(g.cells.is_subset(g.line.cells() & g.boxed.cells()));
            assert!(g.cells.is_subset(grid.digit_cells(g.digit)));
        }
    }
}

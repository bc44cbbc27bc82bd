//! Fish: one generic finder over base and cover sets, and the named fish as configurations
//! of it — basic (X-Wing, Swordfish, Jellyfish), finned and sashimi, Franken and mutant, with
//! or without fins, and siamese pairs of finned fish.
//!
//! For a digit, a fish takes `n` base houses and `n` cover houses (no house in both). Each
//! base house must hold the digit once, in a different cell when the base houses do not
//! overlap; when every base candidate lies in a cover house, those `n` digits fill the `n`
//! cover houses, so the digit leaves every other cell of the covers. Base candidates outside
//! the covers, and base candidates in two base houses (endo fins), are fins: then either a fin
//! is true or the fish holds, so only cover candidates that see every fin go. A base candidate
//! in two cover houses cannot be true either (cannibalism).

use crate::technique::Builtin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::cellset::CellSet;
use crate::geometry::{Cell, House};
use crate::grid::{Candidate, Grid};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

use crate::geometry::{BOX_HOUSES as BOXES, CELL_HOUSES, COL_HOUSES as COLS, ROW_HOUSES as ROWS};

/// Which houses a fish draws its base and cover sets from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Rows for base and columns for cover, or the other way round.
    Basic,
    /// Rows and boxes for base, columns and boxes for cover (or transposed), not basic.
    Franken,
    /// Any houses, neither basic nor Franken.
    Mutant,
}

impl Shape {
    /// The shape of a fish with these base and cover house masks.
    pub fn of(base: u32, cover: u32) -> Shape {
        let within = |m: u32, allowed: u32| m & !allowed == 0;
        if (within(base, ROWS) && within(cover, COLS))
            || (within(base, COLS) && within(cover, ROWS))
        {
            Shape::Basic
        } else if (within(base, ROWS | BOXES) && within(cover, COLS | BOXES))
            || (within(base, COLS | BOXES) && within(cover, ROWS | BOXES))
        {
            Shape::Franken
        } else {
            Shape::Mutant
        }
    }

    /// The (base, cover) house masks to search for fish of this shape (a superset: the
    /// caller checks [`Shape::of`]).
    fn spaces(self) -> &'static [(u32, u32)] {
        match self {
            Shape::Basic => &[(ROWS, COLS), (COLS, ROWS)],
            Shape::Franken => &[(ROWS | BOXES, COLS | BOXES), (COLS | BOXES, ROWS | BOXES)],
            Shape::Mutant => &[(ROWS | COLS | BOXES, ROWS | COLS | BOXES)],
        }
    }
}

/// What a fish does with fins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fins {
    /// No fins (a basic, Franken or mutant fish).
    None,
    /// Fins, and without them every base house would keep at least two candidates.
    Finned,
    /// Fins, and without them some base house would keep at most one candidate.
    Sashimi,
    /// Fins of either kind (finned Franken and mutant fish do not tell them apart).
    Any,
}

/// One fish found by [`find_fish`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundFish {
    /// The digit.
    pub digit: u8,
    /// Number of base (and cover) houses.
    pub size: usize,
    /// Base houses as a mask of house indices.
    pub base: u32,
    /// Cover houses as a mask of house indices.
    pub cover: u32,
    /// Cells of the base houses holding the digit.
    pub base_cells: CellSet,
    /// Cells of the cover houses holding the digit.
    pub cover_cells: CellSet,
    /// Fins: base candidates outside every cover, plus the endo fins.
    pub fins: CellSet,
    /// Endo fins: base candidates in two base houses.
    pub endo_fins: CellSet,
    /// Cells losing the digit.
    pub eliminations: CellSet,
}

impl FoundFish {
    /// The shape of the fish by its houses.
    pub fn shape(&self) -> Shape {
        Shape::of(self.base, self.cover)
    }

    /// Whether, without the fins, some base house would keep at most one candidate (the
    /// fish without its fins is degenerate): HoDoKu's sashimi.
    pub fn is_sashimi(&self) -> bool {
        !self.fins.is_empty()
            && houses_of(self.base).any(|h| ((self.base_cells & h.cells()) - self.fins).len() <= 1)
    }

    /// The kind of fins: `None`, `Finned` or `Sashimi`.
    pub fn fin_kind(&self) -> Fins {
        if self.fins.is_empty() {
            Fins::None
        } else if self.is_sashimi() {
            Fins::Sashimi
        } else {
            Fins::Finned
        }
    }
}

/// The houses of a mask, rows then columns then boxes.
fn houses_of(mask: u32) -> impl Iterator<Item = House> {
    (0..27u8)
        .filter(move |i| mask >> i & 1 != 0)
        .map(House::from_index)
}

/// Houses of a mask in words, grouped by kind: `rows r2,r8 and box b7`, `column c4`.
pub(crate) fn houses_words(mask: u32) -> String {
    let mut parts = Vec::new();
    for (kind, one, many) in [
        (ROWS, "row", "rows"),
        (COLS, "column", "columns"),
        (BOXES, "box", "boxes"),
    ] {
        let names: Vec<String> = houses_of(mask & kind).map(|h| h.to_string()).collect();
        match names.len() {
            0 => {}
            1 => parts.push(format!("{one} {}", names[0])),
            _ => parts.push(format!("{many} {}", names.join(","))),
        }
    }
    parts.join(" and ")
}

/// The fins of a fish in words, led by ` except`: ` except fin r5c4`, ` except fins
/// r4c1,r4c2 and endo fin r5c5`; empty without fins.
fn fins_words(fins: CellSet, endo: CellSet) -> String {
    let list = |set: CellSet, one: &str, many: &str| {
        let cells: Vec<String> = set.iter().map(|c| c.to_string()).collect();
        match cells.len() {
            0 => None,
            1 => Some(format!("{one} {}", cells[0])),
            _ => Some(format!("{many} {}", cells.join(","))),
        }
    };
    let parts: Vec<String> = [
        list(fins - endo, "fin", "fins"),
        list(endo & fins, "endo fin", "endo fins"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" except {}", parts.join(" and "))
    }
}

/// A fish in words, its base and cover sets named as houses and its fins named:
/// `4 in rows r2,r5 lies in columns c6,c9 except fin r5c4`.
pub(crate) fn fish_words(f: &FoundFish) -> String {
    format!(
        "{} in {} lies in {}{}",
        f.digit,
        houses_words(f.base),
        houses_words(f.cover),
        fins_words(f.fins, f.endo_fins)
    )
}

/// The three houses of a cell as indices.
#[inline]
fn house_indices(cell: Cell) -> [usize; 3] {
    cell.houses().map(House::index)
}

/// The three houses of a cell as a house mask.
#[inline]
fn house_bits(cell: Cell) -> u32 {
    CELL_HOUSES[cell.index()]
}

/// The search state shared by one base set.
struct Search<'a> {
    digit: u8,
    size: usize,
    /// Cells holding the digit.
    cands: CellSet,
    /// Houses allowed as covers (base houses removed).
    cover_allowed: u32,
    /// Whether fins are allowed.
    fins_allowed: bool,
    /// Kraken mode: fins anywhere, at most this many (endo fins included), and every fish
    /// reported with all its cover candidates outside the base as targets, whatever the fins
    /// see (the caller proves each target).
    kraken_fins: Option<usize>,
    base: u32,
    base_cells: CellSet,
    /// Base candidates in exactly one base house.
    single: CellSet,
    endo: CellSet,
    found: &'a mut dyn FnMut(&FoundFish) -> ControlFlow<()>,
}

impl Search<'_> {
    /// Whether a fish may have these fins (endo fins included): fins that some candidate of
    /// the digit sees all of, or in kraken mode at most the allowed number.
    fn fins_ok(&self, fins: CellSet) -> bool {
        match self.kraken_fins {
            Some(max) => fins.len() as usize <= max,
            None => fins.common_peers().intersects(self.cands),
        }
    }

    /// Chooses cover houses: takes the first base candidate not yet covered nor a fin, and
    /// either covers it with one of its houses (excluding, in later branches, the houses
    /// tried before, so every cover set is reached once) or makes it a fin.
    #[allow(clippy::too_many_arguments)]
    fn covers(
        &mut self,
        k: usize,
        cover: u32,
        covered: CellSet,
        twice: CellSet,
        forbidden: u32,
        fins: CellSet,
    ) -> ControlFlow<()> {
        let uncovered = self.single - covered - fins;
        if k == self.size {
            return self.report(cover, covered, twice, fins | uncovered);
        }
        if uncovered.is_empty() {
            // Every base candidate is covered or a fin with fewer covers: the other covers
            // may be any houses still allowed that hold a base candidate.
            let extra = self.cover_allowed & !forbidden & !cover;
            return self.extra_covers(k, extra, cover, covered, twice, fins);
        }
        // Cells no remaining house can cover are fins; otherwise branch on the cell with the
        // fewest houses left to cover it.
        let avail = self.cover_allowed & !forbidden;
        let mut forced = CellSet::EMPTY;
        let mut best: Option<(Cell, u32)> = None;
        for c in uncovered {
            let n = (house_bits(c) & avail).count_ones();
            if n == 0 {
                forced.insert(c);
            } else if best.is_none() {
                best = Some((c, n));
            }
        }
        if !forced.is_empty() {
            let nf = fins | forced;
            if !self.fins_allowed || !self.fins_ok(nf | self.endo) {
                return ControlFlow::Continue(());
            }
            return self.covers(k, cover, covered, twice, forbidden, nf);
        }
        let (x, _) = best.expect("not empty");
        let mut forb = forbidden;
        for h in house_indices(x) {
            let bit = 1u32 << h;
            if self.cover_allowed & !forb & bit == 0 {
                continue;
            }
            let hc = House::from_index(h as u8).cells() & self.cands;
            self.covers(
                k + 1,
                cover | bit,
                covered | hc,
                twice | (covered & hc),
                forb,
                fins,
            )?;
            forb |= bit;
        }
        if self.fins_allowed {
            let nf = fins | CellSet::single(x);
            if self.fins_ok(nf | self.endo) {
                self.covers(k, cover, covered, twice, forb, nf)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Adds covers from the houses of `extra` (in index order) up to the size, then reports.
    fn extra_covers(
        &mut self,
        k: usize,
        extra: u32,
        cover: u32,
        covered: CellSet,
        twice: CellSet,
        fins: CellSet,
    ) -> ControlFlow<()> {
        if k == self.size {
            return self.report(cover, covered, twice, fins);
        }
        let mut rest = extra;
        while rest != 0 {
            let h = rest.trailing_zeros();
            rest &= rest - 1;
            if (rest.count_ones() as usize) < self.size - k - 1 {
                break;
            }
            let hc = House::from_index(h as u8).cells() & self.cands;
            if !hc.intersects(self.base_cells) {
                continue;
            }
            self.extra_covers(
                k + 1,
                rest,
                cover | 1 << h,
                covered | hc,
                twice | (covered & hc),
                fins,
            )?;
        }
        ControlFlow::Continue(())
    }

    /// Reports the fish with these covers and fins (besides the endo fins) when it
    /// eliminates something.
    fn report(
        &mut self,
        cover: u32,
        covered: CellSet,
        twice: CellSet,
        fins: CellSet,
    ) -> ControlFlow<()> {
        let all_fins = fins | self.endo;
        if !all_fins.is_empty() && !self.fins_allowed {
            return ControlFlow::Continue(());
        }
        let mut targets = (covered - self.base_cells) | (twice & (self.base_cells - self.endo));
        if self.kraken_fins.is_some() {
            // the caller proves each target
        } else if !all_fins.is_empty() {
            targets &= all_fins.common_peers();
        }
        if targets.is_empty() && self.kraken_fins.is_none() {
            return ControlFlow::Continue(());
        }
        let fish = FoundFish {
            digit: self.digit,
            size: self.size,
            base: self.base,
            cover,
            base_cells: self.base_cells,
            cover_cells: covered,
            fins: all_fins,
            endo_fins: self.endo,
            eliminations: targets,
        };
        (self.found)(&fish)
    }
}

/// Finds every fish of `digit` with `size` base and cover houses drawn from the houses of
/// `shape` (a superset of the shape: check [`FoundFish::shape`]), with fins when
/// `fins_allowed`, calling `found` for each one that eliminates something until it breaks.
///
/// Every cover house covers at least one base candidate that no cover chosen before it
/// covers; every fish is reported once.
pub fn find_fish(
    grid: &Grid,
    digit: u8,
    size: usize,
    shape: Shape,
    fins_allowed: bool,
    found: &mut dyn FnMut(&FoundFish) -> ControlFlow<()>,
) -> ControlFlow<()> {
    search_fish(grid, digit, size, shape, fins_allowed, None, found)
}

/// Finds every fish of `digit` with `size` base and cover houses of `shape` and at most
/// `max_fins` fins (endo fins included) anywhere, with or without eliminations of its own:
/// each is reported with every cover candidate outside the base (and every cannibalistic
/// one) in [`FoundFish::eliminations`], whether the fins see it or not. Kraken fish prove
/// those targets with chains from the fins.
pub(crate) fn find_fish_with_any_fins(
    grid: &Grid,
    digit: u8,
    size: usize,
    shape: Shape,
    max_fins: usize,
    found: &mut dyn FnMut(&FoundFish) -> ControlFlow<()>,
) -> ControlFlow<()> {
    search_fish(grid, digit, size, shape, true, Some(max_fins), found)
}

fn search_fish(
    grid: &Grid,
    digit: u8,
    size: usize,
    shape: Shape,
    fins_allowed: bool,
    kraken_fins: Option<usize>,
    found: &mut dyn FnMut(&FoundFish) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let cands = grid.digit_cells(digit);
    for &(base_allowed, cover_allowed) in shape.spaces() {
        let mut houses = [0u8; 27];
        let mut n = 0;
        for h in houses_of(base_allowed) {
            if h.cells().intersects(cands) {
                houses[n] = h.index() as u8;
                n += 1;
            }
        }
        let mut search = Search {
            digit,
            size,
            cands,
            cover_allowed,
            fins_allowed,
            kraken_fins,
            base: 0,
            base_cells: CellSet::EMPTY,
            single: CellSet::EMPTY,
            endo: CellSet::EMPTY,
            found,
        };
        bases(
            &mut search,
            &houses[..n],
            0,
            0,
            CellSet::EMPTY,
            CellSet::EMPTY,
        )?;
    }
    ControlFlow::Continue(())
}

/// For a basic fish (rows covered by columns or the other way), whether base cells `cells` can
/// make one that eliminates something, so the cover search can be skipped when not. Without
/// fins the base cells must lie in at most `size` cover lines. With fins, a target lies in a
/// cover line and sees every fin; fins lie outside the cover lines, so target and fins share
/// one box, and every base cell outside that box must be covered: some box holds a candidate
/// outside the base and leaves the other base cells in at most `size` lines. Other shapes
/// always search.
fn basic_fish_possible(s: &Search<'_>, cells: CellSet) -> bool {
    if s.kraken_fins.is_some() {
        return true;
    }
    let by_col = s.cover_allowed == COLS;
    if !by_col && s.cover_allowed != ROWS {
        return true;
    }
    // The number of columns (or rows) holding a cell of `set`, from its nine 9-bit row slices.
    let lines = |set: CellSet| -> u32 {
        let bits = set.bits();
        let mut m = 0u32;
        for r in 0..9 {
            let row = (bits >> (9 * r)) as u32 & 0x1ff;
            if by_col {
                m |= row;
            } else if row != 0 {
                m |= 1 << r;
            }
        }
        m.count_ones()
    };
    let n = s.size as u32;
    if lines(cells) <= n {
        return true;
    }
    if !s.fins_allowed {
        return false;
    }
    (0..9).any(|b| {
        let bc = House::boxed(b).cells();
        bc.intersects(cells) && !(s.cands & (bc - cells)).is_empty() && lines(cells - bc) <= n
    })
}

/// Chooses base houses from `houses[from..]`, then the covers.
fn bases(
    s: &mut Search<'_>,
    houses: &[u8],
    from: usize,
    base: u32,
    cells: CellSet,
    endo: CellSet,
) -> ControlFlow<()> {
    let k = base.count_ones() as usize;
    if k == s.size {
        // every base house needs a candidate of its own
        let single = cells - endo;
        if houses_of(base).any(|h| !h.cells().intersects(single)) {
            return ControlFlow::Continue(());
        }
        if !basic_fish_possible(s, cells) {
            return ControlFlow::Continue(());
        }
        s.base = base;
        s.base_cells = cells;
        s.single = single;
        s.endo = endo;
        let allowed = s.cover_allowed;
        s.cover_allowed &= !base;
        let flow = s.covers(0, 0, CellSet::EMPTY, CellSet::EMPTY, 0, CellSet::EMPTY);
        s.cover_allowed = allowed;
        return flow;
    }
    for i in from..houses.len() {
        if houses.len() - i < s.size - k {
            break;
        }
        let hc = House::from_index(houses[i]).cells() & s.cands;
        let new_endo = endo | (cells & hc);
        if !new_endo.is_empty() && (!s.fins_allowed || !s.fins_ok(new_endo)) {
            continue;
        }
        bases(
            s,
            houses,
            i + 1,
            base | 1 << houses[i],
            cells | hc,
            new_endo,
        )?;
    }
    ControlFlow::Continue(())
}

/// A named fish: a configuration of [`find_fish`].
pub struct Fish {
    size: usize,
    shape: Shape,
    fins: Fins,
    allow_siamese: bool,
    info: &'static TechniqueInfo,
}

impl Fish {
    /// The fish of catalogue id `id`: `size` (2..=7) houses, `shape` and `fins` (Franken and
    /// mutant fish do not tell finned from sashimi: either means [`Fins::Any`]).
    pub const fn new(id: &str, size: usize, shape: Shape, fins: Fins) -> Fish {
        assert!(matches!(size, 2..=7), "fish of 2 to 7 houses");
        let fins = match (shape, fins) {
            (Shape::Franken | Shape::Mutant, Fins::Finned | Fins::Sashimi) => Fins::Any,
            _ => fins,
        };
        Fish {
            size,
            shape,
            fins,
            allow_siamese: false,
            info: entry(id),
        }
    }

    /// Also reports siamese fish: two fins fish of this kind on the same base houses whose
    /// eliminations, put together, go further than either (only for fish with fins).
    pub const fn with_siamese(mut self, allow: bool) -> Fish {
        self.allow_siamese = allow && !matches!(self.fins, Fins::None);
        self
    }

    /// Whether a found fish is one of this technique's.
    fn accepts(&self, f: &FoundFish) -> bool {
        if f.shape() != self.shape {
            return false;
        }
        match self.fins {
            Fins::None => f.fins.is_empty(),
            Fins::Any => !f.fins.is_empty(),
            Fins::Finned | Fins::Sashimi => f.fin_kind() == self.fins,
        }
    }

    /// The step for a fish (or a siamese pair when `other` is given).
    fn step(&self, f: &FoundFish, other: Option<&FoundFish>) -> Step {
        let d = f.digit;
        let mut elims = f.eliminations;
        let mut fins = f.fins;
        let mut base_cells = f.base_cells;
        let mut cover_cells = f.cover_cells;
        let mut houses = f.base | f.cover;
        if let Some(o) = other {
            elims |= o.eliminations;
            fins |= o.fins;
            base_cells |= o.base_cells;
            cover_cells |= o.cover_cells;
            houses |= o.base | o.cover;
        }
        let cands = |s: CellSet| s.iter().map(move |c| Candidate::new(c, d));
        let elim_list: Vec<Candidate> = cands(elims).collect();
        let text = match other {
            None => format!(
                "{}: {} => {}",
                self.info.name,
                fish_words(f),
                eliminations_text(&elim_list)
            ),
            // siamese fish share their base houses: the second one differs in covers and fins
            Some(o) => format!(
                "Siamese {}: {}, or in {}{} => {}",
                self.info.name,
                fish_words(f),
                houses_words(o.cover),
                fins_words(o.fins, o.endo_fins),
                eliminations_text(&elim_list)
            ),
        };
        let mut step = Step::new(self.info.id, self.info.difficulty)
            .houses(houses_of(houses))
            .highlight(Role::Base, cands(base_cells - fins))
            .highlight(Role::Cover, cands(cover_cells - base_cells));
        if !fins.is_empty() {
            step = step.highlight(Role::Fin, cands(fins));
        }
        step.eliminations(elim_list).explain(text)
    }
}

impl Builtin for Fish {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            let with_fins = self.fins != Fins::None;
            for digit in 1..=9u8 {
                let mut finned: Vec<FoundFish> = Vec::new();
                // elimination sets already reported: another fish with the same ones adds nothing
                let mut seen: Vec<CellSet> = Vec::new();
                find_fish(grid, digit, self.size, self.shape, with_fins, &mut |f| {
                    if self.allow_siamese && !f.fins.is_empty() && f.shape() == self.shape {
                        finned.push(f.clone());
                    }
                    if !self.accepts(f) || seen.contains(&f.eliminations) {
                        return ControlFlow::Continue(());
                    }
                    seen.push(f.eliminations);
                    sink(self.step(f, None))
                })?;
                if !self.allow_siamese {
                    continue;
                }
                // siamese: two fish on the same base houses, together eliminating more than either
                finned.sort_by_key(|f| f.base);
                for (i, a) in finned.iter().enumerate() {
                    for b in finned[i + 1..].iter().take_while(|b| b.base == a.base) {
                        let both = a.eliminations | b.eliminations;
                        if both == a.eliminations
                            || both == b.eliminations
                            || !(self.accepts(a) || self.accepts(b))
                            || seen.contains(&both)
                        {
                            continue;
                        }
                        seen.push(both);
                        sink(self.step(a, Some(b)))?;
                    }
                }
            }
            ControlFlow::Continue(())
        })
    }
}

/// The techniques of this family, easiest first: basic, finned and sashimi fish (with
/// siamese pairs from size 3), then Franken and mutant fish with and without fins.
///
/// Difficulties: Sudoku Explainer rates X-Wing 3.2, Swordfish 3.8 and Jellyfish 5.2; it has no
/// finned, Franken or mutant fish, so those extend its scale consistently: finned +0.2,
/// sashimi +0.3, Franken +0.6, finned Franken +0.8, mutant +1.0, finned mutant +1.2 over the
/// basic fish of the same size (the [catalogue](super::catalogue) has the figures).
pub fn techniques() -> Vec<Box<dyn Technique>> {
    FISH.into_iter()
        .map(|f| Box::new(f) as Box<dyn Technique>)
        .collect()
}

/// The built-in fish, in [`techniques`] order.
const FISH: [Fish; 42] = {
    use Fins::{Any, Finned, Sashimi};
    use Shape::{Basic, Franken, Mutant};
    [
        Fish::new("x-wing", 2, Basic, Fins::None),
        Fish::new("swordfish", 3, Basic, Fins::None),
        Fish::new("jellyfish", 4, Basic, Fins::None),
        Fish::new("finned-x-wing", 2, Basic, Finned),
        Fish::new("finned-swordfish", 3, Basic, Finned).with_siamese(true),
        Fish::new("finned-jellyfish", 4, Basic, Finned).with_siamese(true),
        Fish::new("sashimi-x-wing", 2, Basic, Sashimi),
        Fish::new("sashimi-swordfish", 3, Basic, Sashimi).with_siamese(true),
        Fish::new("sashimi-jellyfish", 4, Basic, Sashimi).with_siamese(true),
        Fish::new("franken-x-wing", 2, Franken, Fins::None),
        Fish::new("franken-swordfish", 3, Franken, Fins::None),
        Fish::new("franken-jellyfish", 4, Franken, Fins::None),
        Fish::new("finned-franken-x-wing", 2, Franken, Any),
        Fish::new("finned-franken-swordfish", 3, Franken, Any).with_siamese(true),
        Fish::new("finned-franken-jellyfish", 4, Franken, Any).with_siamese(true),
        Fish::new("mutant-x-wing", 2, Mutant, Fins::None),
        Fish::new("mutant-swordfish", 3, Mutant, Fins::None),
        Fish::new("mutant-jellyfish", 4, Mutant, Fins::None),
        Fish::new("finned-mutant-x-wing", 2, Mutant, Any),
        Fish::new("finned-mutant-swordfish", 3, Mutant, Any).with_siamese(true),
        Fish::new("finned-mutant-jellyfish", 4, Mutant, Any).with_siamese(true),
        // five to seven houses (squirmbag, whale, leviathan), off by default
        Fish::new("squirmbag", 5, Basic, Fins::None),
        Fish::new("whale", 6, Basic, Fins::None),
        Fish::new("leviathan", 7, Basic, Fins::None),
        Fish::new("finned-squirmbag", 5, Basic, Finned).with_siamese(true),
        Fish::new("finned-whale", 6, Basic, Finned).with_siamese(true),
        Fish::new("finned-leviathan", 7, Basic, Finned).with_siamese(true),
        Fish::new("sashimi-squirmbag", 5, Basic, Sashimi).with_siamese(true),
        Fish::new("sashimi-whale", 6, Basic, Sashimi).with_siamese(true),
        Fish::new("sashimi-leviathan", 7, Basic, Sashimi).with_siamese(true),
        Fish::new("franken-squirmbag", 5, Franken, Fins::None),
        Fish::new("franken-whale", 6, Franken, Fins::None),
        Fish::new("franken-leviathan", 7, Franken, Fins::None),
        Fish::new("finned-franken-squirmbag", 5, Franken, Any).with_siamese(true),
        Fish::new("finned-franken-whale", 6, Franken, Any).with_siamese(true),
        Fish::new("finned-franken-leviathan", 7, Franken, Any).with_siamese(true),
        Fish::new("mutant-squirmbag", 5, Mutant, Fins::None),
        Fish::new("mutant-whale", 6, Mutant, Fins::None),
        Fish::new("mutant-leviathan", 7, Mutant, Fins::None),
        Fish::new("finned-mutant-squirmbag", 5, Mutant, Any).with_siamese(true),
        Fish::new("finned-mutant-whale", 6, Mutant, Any).with_siamese(true),
        Fish::new("finned-mutant-leviathan", 7, Mutant, Any).with_siamese(true),
    ]
};

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(list: &[(u8, u8)]) -> CellSet {
        list.iter().map(|&(r, c)| Cell::at(r - 1, c - 1)).collect()
    }

    #[test]
    fn houses_are_named_in_words_grouped_by_kind() {
        assert_eq!(houses_words(1 << 1 | 1 << 4), "rows r2,r5");
        assert_eq!(houses_words(1 << 9), "column c1");
        assert_eq!(
            houses_words(1 << 1 | 1 << 7 | 1 << 24),
            "rows r2,r8 and box b7"
        );
    }

    #[test]
    fn a_fish_is_spelled_out_with_its_fins() {
        let fish = |fins: CellSet, endo: CellSet| FoundFish {
            digit: 4,
            size: 2,
            base: 1 << 1 | 1 << 4,
            cover: 1 << 14 | 1 << 17,
            base_cells: CellSet::EMPTY,
            cover_cells: CellSet::EMPTY,
            fins,
            endo_fins: endo,
            eliminations: CellSet::EMPTY,
        };
        assert_eq!(
            fish_words(&fish(CellSet::EMPTY, CellSet::EMPTY)),
            "4 in rows r2,r5 lies in columns c6,c9"
        );
        assert_eq!(
            fish_words(&fish(cells(&[(5, 4)]), CellSet::EMPTY)),
            "4 in rows r2,r5 lies in columns c6,c9 except fin r5c4"
        );
        let endo = cells(&[(5, 5)]);
        assert_eq!(
            fish_words(&fish(cells(&[(5, 4), (5, 6)]) | endo, endo)),
            "4 in rows r2,r5 lies in columns c6,c9 except fins r5c4,r5c6 and endo fin r5c5"
        );
    }
}

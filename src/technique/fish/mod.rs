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

//!
//! Written once for every size: house sets are masks of the shape's `Houses` width (bit `h` for
//! house `h`: rows, then columns, then boxes). A fish of `k` houses runs on boards of size `n`
//! with `k <= n / 2` (a larger one is the complement of a smaller one), and on 9x9 up to 7.

use crate::model::Sym;
use crate::technique::SizedBuiltin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::model::cell::{Cell, House};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Geometry, S9, Shape};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The rows, the columns and the boxes of shape `S` as house masks.
#[inline]
fn kinds<S: Shape>() -> [S::Houses; 3] {
    let low = |k: usize| S::Houses::low(k * S::N);
    [low(1), low(2).and_not(low(1)), low(3).and_not(low(2))]
}

/// Which houses a fish draws its base and cover sets from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FishShape {
    /// Rows for base and columns for cover, or the other way round.
    Basic,
    /// Rows and boxes for base, columns and boxes for cover (or transposed), not basic.
    Franken,
    /// Any houses, neither basic nor Franken.
    Mutant,
}

impl FishShape {
    /// The shape of a fish with these base and cover house masks.
    pub fn of<S: Shape>(base: S::Houses, cover: S::Houses) -> FishShape {
        let [rows, cols, boxes] = kinds::<S>();
        let within = |m: S::Houses, allowed: S::Houses| m.and_not(allowed).is_zero();
        if (within(base, rows) && within(cover, cols))
            || (within(base, cols) && within(cover, rows))
        {
            FishShape::Basic
        } else if (within(base, rows.or(boxes)) && within(cover, cols.or(boxes)))
            || (within(base, cols.or(boxes)) && within(cover, rows.or(boxes)))
        {
            FishShape::Franken
        } else {
            FishShape::Mutant
        }
    }

    /// The (base, cover) house masks to search for fish of this shape (a superset: the
    /// caller checks [`FishShape::of`]), and how many there are.
    fn spaces<S: Shape>(self) -> ([Space<S>; 2], usize) {
        let [rows, cols, boxes] = kinds::<S>();
        match self {
            FishShape::Basic => ([(rows, cols), (cols, rows)], 2),
            FishShape::Franken => (
                [
                    (rows.or(boxes), cols.or(boxes)),
                    (cols.or(boxes), rows.or(boxes)),
                ],
                2,
            ),
            FishShape::Mutant => {
                let all = rows.or(cols).or(boxes);
                ([(all, all); 2], 1)
            }
        }
    }
}

/// The houses a fish may take its base from, and those it may take its cover from.
type Space<S> = (<S as Shape>::Houses, <S as Shape>::Houses);

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

/// One fish found by [`find_fish`], on a board of shape `S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundFish<S: Shape = S9> {
    /// The digit.
    pub digit: u8,
    /// Number of base (and cover) houses.
    pub size: usize,
    /// Base houses as a mask of house indices.
    pub base: S::Houses,
    /// Cover houses as a mask of house indices.
    pub cover: S::Houses,
    /// Cells of the base houses holding the digit.
    pub base_cells: CellSet<S>,
    /// Cells of the cover houses holding the digit.
    pub cover_cells: CellSet<S>,
    /// Fins: base candidates outside every cover, plus the endo fins.
    pub fins: CellSet<S>,
    /// Endo fins: base candidates in two base houses.
    pub endo_fins: CellSet<S>,
    /// Cells losing the digit.
    pub eliminations: CellSet<S>,
}

impl<S: Shape> FoundFish<S> {
    /// The shape of the fish by its houses.
    pub fn shape(&self) -> FishShape {
        FishShape::of::<S>(self.base, self.cover)
    }

    /// Whether, without the fins, some base house would keep at most one candidate (the
    /// fish without its fins is degenerate): HoDoKu's sashimi.
    pub fn is_sashimi(&self, geo: &Geometry<S>) -> bool {
        !self.fins.is_empty()
            && self
                .base
                .ones()
                .any(|h| ((self.base_cells & geo.house_at(h)) - self.fins).len() <= 1)
    }

    /// The kind of fins: `None`, `Finned` or `Sashimi`.
    pub fn fin_kind(&self, geo: &Geometry<S>) -> Fins {
        if self.fins.is_empty() {
            Fins::None
        } else if self.is_sashimi(geo) {
            Fins::Sashimi
        } else {
            Fins::Finned
        }
    }
}

/// The houses of a mask, rows then columns then boxes.
fn houses_of<S: Shape>(mask: S::Houses) -> impl Iterator<Item = House> {
    mask.ones().map(|h| House::from_index_in(h, S::N))
}

/// Houses of a mask in words, grouped by kind: `rows r2,r8 and box b7`, `column c4`.
pub(crate) fn houses_words<S: Shape>(mask: S::Houses) -> String {
    let mut parts = Vec::new();
    let [rows, cols, boxes] = kinds::<S>();
    for (kind, one, many) in [
        (rows, "row", "rows"),
        (cols, "column", "columns"),
        (boxes, "box", "boxes"),
    ] {
        let names: Vec<String> = houses_of::<S>(mask.and(kind))
            .map(|h| h.to_string())
            .collect();
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
fn fins_words<S: Shape>(fins: CellSet<S>, endo: CellSet<S>) -> String {
    let list = |set: CellSet<S>, one: &str, many: &str| {
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
pub(crate) fn fish_words<S: Shape>(f: &FoundFish<S>) -> String {
    format!(
        "{} in {} lies in {}{}",
        Sym(f.digit),
        houses_words::<S>(f.base),
        houses_words::<S>(f.cover),
        fins_words(f.fins, f.endo_fins)
    )
}

/// The search state shared by one base set.
struct Search<'a, S: Shape> {
    geo: &'static Geometry<S>,
    digit: u8,
    size: usize,
    /// Cells holding the digit.
    cands: CellSet<S>,
    /// Houses allowed as covers (base houses removed).
    cover_allowed: S::Houses,
    /// Whether fins are allowed.
    fins_allowed: bool,
    /// Kraken mode: fins anywhere, at most this many (endo fins included), and every fish
    /// reported with all its cover candidates outside the base as targets, whatever the fins
    /// see (the caller proves each target).
    kraken_fins: Option<usize>,
    base: S::Houses,
    base_cells: CellSet<S>,
    /// Base candidates in exactly one base house.
    single: CellSet<S>,
    endo: CellSet<S>,
    /// The digit's candidates line by line, for the basic shape's quick test.
    lines: LineMasks,
    found: &'a mut dyn FnMut(&FoundFish<S>) -> ControlFlow<()>,
}

/// One digit's candidates drawn as bit masks along the lines (bit `i`: the `i`-th cell of the
/// line), and each box's rows and columns, so that [`basic_fish_possible`] works on words
/// instead of cell sets.
#[derive(Clone, Copy)]
struct LineMasks {
    /// Per row, the columns holding the digit.
    in_row: [u32; 25],
    /// Per column, the rows holding the digit.
    in_col: [u32; 25],
    /// Per box, the rows it spans.
    box_rows: [u32; 25],
    /// Per box, the columns it spans.
    box_cols: [u32; 25],
}

impl LineMasks {
    fn of<S: Shape>(geo: &Geometry<S>, cands: CellSet<S>) -> LineMasks {
        let mut m = LineMasks {
            in_row: [0; 25],
            in_col: [0; 25],
            box_rows: [0; 25],
            box_cols: [0; 25],
        };
        for c in cands.iter() {
            m.in_row[usize::from(c.row())] |= 1 << c.col();
            m.in_col[usize::from(c.col())] |= 1 << c.row();
        }
        for b in 0..S::N {
            for c in geo.house_at(2 * S::N + b).iter() {
                m.box_rows[b] |= 1 << c.row();
                m.box_cols[b] |= 1 << c.col();
            }
        }
        m
    }
}

impl<'a, S: Shape> Search<'a, S> {
    /// A search for fish of `digit` in `grid` with `size` base houses, covers from
    /// `cover_allowed`, fins when `fins_allowed` (not a Kraken search), nothing chosen yet.
    fn new(
        grid: &Grid<S>,
        digit: u8,
        size: usize,
        cover_allowed: S::Houses,
        fins_allowed: bool,
        found: &'a mut dyn FnMut(&FoundFish<S>) -> ControlFlow<()>,
    ) -> Search<'a, S> {
        let geo = grid.geometry();
        let cands = grid.digit_cells(digit);
        Search {
            geo,
            digit,
            size,
            cands,
            cover_allowed,
            fins_allowed,
            kraken_fins: None,
            base: S::Houses::ZERO,
            base_cells: CellSet::EMPTY,
            single: CellSet::EMPTY,
            endo: CellSet::EMPTY,
            lines: LineMasks::of(geo, cands),
            found,
        }
    }
    /// Whether a fish may have these fins (endo fins included): fins that some candidate of
    /// the digit sees all of, or in kraken mode at most the allowed number.
    fn fins_ok(&self, fins: CellSet<S>) -> bool {
        match self.kraken_fins {
            Some(max) => fins.len() as usize <= max,
            None => self.geo.common_peers(fins).intersects(self.cands),
        }
    }

    /// Chooses cover houses: takes the first base candidate not yet covered nor a fin, and
    /// either covers it with one of its houses (excluding, in later branches, the houses
    /// tried before, so every cover set is reached once) or makes it a fin.
    #[allow(clippy::too_many_arguments)]
    fn covers(
        &mut self,
        k: usize,
        cover: S::Houses,
        covered: CellSet<S>,
        twice: CellSet<S>,
        forbidden: S::Houses,
        fins: CellSet<S>,
    ) -> ControlFlow<()> {
        if crate::model::stop::poll() {
            return ControlFlow::Break(());
        }
        let uncovered = self.single - covered - fins;
        if k == self.size {
            return self.report(cover, covered, twice, fins | uncovered);
        }
        if uncovered.is_empty() {
            // Every base candidate is covered or a fin with fewer covers: the other covers
            // may be any houses still allowed that hold a base candidate.
            let extra = self.cover_allowed.and_not(forbidden).and_not(cover);
            return self.extra_covers(k, extra, cover, covered, twice, fins);
        }
        // Cells no remaining house can cover are fins; otherwise branch on the cell with the
        // fewest houses left to cover it.
        let avail = self.cover_allowed.and_not(forbidden);
        let mut forced = CellSet::EMPTY;
        let mut best: Option<(Cell, u32)> = None;
        for c in uncovered {
            let n = self.geo.house_mask_of(c).and(avail).count();
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
        for h in self.geo.houses_of(x).map(|h| h.index_in(S::N)) {
            if !self.cover_allowed.and_not(forb).has(h) {
                continue;
            }
            let hc = self.geo.house_at(h) & self.cands;
            self.covers(
                k + 1,
                cover.or(S::Houses::bit(h)),
                covered | hc,
                twice | (covered & hc),
                forb,
                fins,
            )?;
            forb.set(h);
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
        extra: S::Houses,
        cover: S::Houses,
        covered: CellSet<S>,
        twice: CellSet<S>,
        fins: CellSet<S>,
    ) -> ControlFlow<()> {
        if k == self.size {
            return self.report(cover, covered, twice, fins);
        }
        let mut rest = extra;
        while let Some(h) = rest.first() {
            rest.clear(h);
            if (rest.count() as usize) < self.size - k - 1 {
                break;
            }
            let hc = self.geo.house_at(h) & self.cands;
            if !hc.intersects(self.base_cells) {
                continue;
            }
            self.extra_covers(
                k + 1,
                rest,
                cover.or(S::Houses::bit(h)),
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
        cover: S::Houses,
        covered: CellSet<S>,
        twice: CellSet<S>,
        fins: CellSet<S>,
    ) -> ControlFlow<()> {
        let all_fins = fins | self.endo;
        if !all_fins.is_empty() && !self.fins_allowed {
            return ControlFlow::Continue(());
        }
        let mut targets = (covered - self.base_cells) | (twice & (self.base_cells - self.endo));
        if self.kraken_fins.is_some() {
            // the caller proves each target
        } else if !all_fins.is_empty() {
            targets &= self.geo.common_peers(all_fins);
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
pub fn find_fish<S: Shape>(
    grid: &Grid<S>,
    digit: u8,
    size: usize,
    shape: FishShape,
    fins_allowed: bool,
    found: &mut dyn FnMut(&FoundFish<S>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    search_fish(grid, digit, size, shape, fins_allowed, None, found)
}

/// Finds every fish of `digit` with `size` base and cover houses of `shape` and at most
/// `max_fins` fins (endo fins included) anywhere, with or without eliminations of its own:
/// each is reported with every cover candidate outside the base (and every cannibalistic
/// one) in [`FoundFish::eliminations`], whether the fins see it or not. Kraken fish prove
/// those targets with chains from the fins.
pub(crate) fn find_fish_with_any_fins<S: Shape>(
    grid: &Grid<S>,
    digit: u8,
    size: usize,
    shape: FishShape,
    max_fins: usize,
    found: &mut dyn FnMut(&FoundFish<S>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    search_fish(grid, digit, size, shape, true, Some(max_fins), found)
}

fn search_fish<S: Shape>(
    grid: &Grid<S>,
    digit: u8,
    size: usize,
    shape: FishShape,
    fins_allowed: bool,
    kraken_fins: Option<usize>,
    found: &mut dyn FnMut(&FoundFish<S>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let cands = grid.digit_cells(digit);
    let geo = grid.geometry();
    let (spaces, count) = shape.spaces::<S>();
    for &(base_allowed, cover_allowed) in &spaces[..count] {
        let mut houses = [0u8; 75];
        let mut n = 0;
        for h in base_allowed.ones() {
            if geo.house_at(h).intersects(cands) {
                houses[n] = h as u8;
                n += 1;
            }
        }
        let mut search = Search::new(grid, digit, size, cover_allowed, fins_allowed, found);
        search.kraken_fins = kraken_fins;
        bases(
            &mut search,
            &houses[..n],
            0,
            S::Houses::ZERO,
            CellSet::EMPTY,
            CellSet::EMPTY,
        )?;
    }
    ControlFlow::Continue(())
}

/// For a basic fish search that is not a Kraken one, whether its covers are columns (bases
/// rows) or rows (bases columns); `None` for the other searches.
fn basic_covers_by_column<S: Shape>(s: &Search<'_, S>) -> Option<bool> {
    let [rows, cols, _] = kinds::<S>();
    let by_col = s.cover_allowed == cols;
    (s.kraken_fins.is_none() && (by_col || s.cover_allowed == rows)).then_some(by_col)
}

/// For a basic fish (rows covered by columns or the other way), whether base cells `cells` can
/// make one that eliminates something, so the cover search can be skipped when not. Without
/// fins the base cells must lie in at most `size` cover lines. With fins, a target lies in a
/// cover line and sees every fin; fins lie outside the cover lines, so target and fins share
/// one box, and every base cell outside that box must be covered: some box holds a candidate
/// outside the base and leaves the other base cells in at most `size` lines. Other shapes
/// always search.
fn basic_fish_possible<S: Shape>(s: &Search<'_, S>, base: S::Houses) -> bool {
    let Some(by_col) = basic_covers_by_column(s) else {
        return true;
    };
    // along each base line, the cover lines holding the digit; per box, the base lines it
    // crosses and the cover lines it spans
    let m = &s.lines;
    let (along, box_base, box_cover, first) = if by_col {
        (&m.in_row, &m.box_rows, &m.box_cols, 0)
    } else {
        (&m.in_col, &m.box_cols, &m.box_rows, S::N)
    };
    let lines: u32 = base.ones().fold(0, |l, h| l | 1 << (h - first));
    let covered = |lines: u32| ones_u32(lines).fold(0u32, |c, i| c | along[i]);
    let n = s.size as u32;
    if covered(lines).count_ones() <= n {
        return true;
    }
    if !s.fins_allowed {
        return false;
    }
    (0..S::N).any(|b| {
        let (crossed, span) = (lines & box_base[b], box_cover[b]);
        // the box holds a base candidate, and a candidate outside the base, and leaves the
        // other base candidates in at most `size` cover lines
        covered(crossed) & span != 0
            && covered(box_base[b] & !lines) & span != 0
            && (covered(lines & !crossed) | covered(crossed) & !span).count_ones() <= n
    })
}

/// The positions of the set bits of `bits`, lowest first.
fn ones_u32(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            i
        })
    })
}

/// [`basic_fish_possible`] on cell sets: the definition it is tested against.
#[cfg(test)]
fn basic_fish_possible_on_cells<S: Shape>(s: &Search<'_, S>, cells: CellSet<S>) -> bool {
    let Some(by_col) = basic_covers_by_column(s) else {
        return true;
    };
    // The number of columns (or rows) holding a cell of `set`.
    let first = if by_col { S::N } else { 0 };
    let lines = |set: CellSet<S>| -> u32 {
        (first..first + S::N)
            .filter(|&h| s.geo.house_at(h).intersects(set))
            .count() as u32
    };
    let n = s.size as u32;
    if lines(cells) <= n {
        return true;
    }
    if !s.fins_allowed {
        return false;
    }
    (2 * S::N..3 * S::N).any(|b| {
        let bc = s.geo.house_at(b);
        bc.intersects(cells) && !(s.cands & (bc - cells)).is_empty() && lines(cells - bc) <= n
    })
}

/// Chooses base houses from `houses[from..]`, then the covers.
fn bases<S: Shape>(
    s: &mut Search<'_, S>,
    houses: &[u8],
    from: usize,
    base: S::Houses,
    cells: CellSet<S>,
    endo: CellSet<S>,
) -> ControlFlow<()> {
    if crate::model::stop::poll() {
        return ControlFlow::Break(());
    }
    let k = base.count() as usize;
    if k == s.size {
        // every base house needs a candidate of its own
        let single = cells - endo;
        if base.ones().any(|h| !s.geo.house_at(h).intersects(single)) {
            return ControlFlow::Continue(());
        }
        if !basic_fish_possible(s, base) {
            return ControlFlow::Continue(());
        }
        s.base = base;
        s.base_cells = cells;
        s.single = single;
        s.endo = endo;
        let allowed = s.cover_allowed;
        s.cover_allowed = allowed.and_not(base);
        let none = S::Houses::ZERO;
        let flow = s.covers(
            0,
            none,
            CellSet::EMPTY,
            CellSet::EMPTY,
            none,
            CellSet::EMPTY,
        );
        s.cover_allowed = allowed;
        return flow;
    }
    for i in from..houses.len() {
        if houses.len() - i < s.size - k {
            break;
        }
        let hc = s.geo.house_at(usize::from(houses[i])) & s.cands;
        let new_endo = endo | (cells & hc);
        if !new_endo.is_empty() && (!s.fins_allowed || !s.fins_ok(new_endo)) {
            continue;
        }
        bases(
            s,
            houses,
            i + 1,
            base.or(S::Houses::bit(usize::from(houses[i]))),
            cells | hc,
            new_endo,
        )?;
    }
    ControlFlow::Continue(())
}

/// A named fish: a configuration of [`find_fish`].
pub struct Fish {
    size: usize,
    shape: FishShape,
    fins: Fins,
    allow_siamese: bool,
    info: &'static TechniqueInfo,
}

impl Fish {
    /// The fish of catalogue id `id`: `size` (2..=7) houses, `shape` and `fins` (Franken and
    /// mutant fish do not tell finned from sashimi: either means [`Fins::Any`]).
    pub const fn new(id: &str, size: usize, shape: FishShape, fins: Fins) -> Fish {
        assert!(matches!(size, 2..=7), "fish of 2 to 7 houses");
        let fins = match (shape, fins) {
            (FishShape::Franken | FishShape::Mutant, Fins::Finned | Fins::Sashimi) => Fins::Any,
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
    fn accepts<S: Shape>(&self, f: &FoundFish<S>, geo: &Geometry<S>) -> bool {
        if f.shape() != self.shape {
            return false;
        }
        match self.fins {
            Fins::None => f.fins.is_empty(),
            Fins::Any => !f.fins.is_empty(),
            Fins::Finned | Fins::Sashimi => f.fin_kind(geo) == self.fins,
        }
    }

    /// The step for a fish (or a siamese pair when `other` is given).
    fn step<S: Shape>(&self, f: &FoundFish<S>, other: Option<&FoundFish<S>>) -> Step {
        let d = f.digit;
        let mut elims = f.eliminations;
        let mut fins = f.fins;
        let mut base_cells = f.base_cells;
        let mut cover_cells = f.cover_cells;
        let mut houses = f.base.or(f.cover);
        if let Some(o) = other {
            elims |= o.eliminations;
            fins |= o.fins;
            base_cells |= o.base_cells;
            cover_cells |= o.cover_cells;
            houses = houses.or(o.base).or(o.cover);
        }
        let cands = |s: CellSet<S>| s.iter().map(move |c| Candidate::new(c, d));
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
                houses_words::<S>(o.cover),
                fins_words(o.fins, o.endo_fins),
                eliminations_text(&elim_list)
            ),
        };
        let mut step = Step::new(self.info.id, self.info.difficulty)
            .houses(houses_of::<S>(houses))
            .highlight(Role::Base, cands(base_cells - fins))
            .highlight(Role::Cover, cands(cover_cells - base_cells));
        if !fins.is_empty() {
            step = step.highlight(Role::Fin, cands(fins));
        }
        step.eliminations(elim_list).explain(text)
    }
}

impl Fish {
    /// The fish (and siamese pairs) of `digit`, each handed to `sink`.
    fn search_digit<S: Shape>(
        &self,
        grid: &Grid<S>,
        digit: u8,
        with_fins: bool,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let geo = grid.geometry();
        let mut finned: Vec<FoundFish<S>> = Vec::new();
        // elimination sets already reported: another fish with the same ones adds nothing
        let mut seen: Vec<CellSet<S>> = Vec::new();
        find_fish(grid, digit, self.size, self.shape, with_fins, &mut |f| {
            if self.allow_siamese && !f.fins.is_empty() && f.shape() == self.shape {
                finned.push(f.clone());
            }
            if !self.accepts(f, geo) || seen.contains(&f.eliminations) {
                return ControlFlow::Continue(());
            }
            seen.push(f.eliminations);
            sink(self.step(f, None))
        })?;
        if !self.allow_siamese {
            return ControlFlow::Continue(());
        }
        // siamese: two fish on the same base houses, together eliminating more than either
        finned.sort_by_key(|f| f.base);
        for (i, a) in finned.iter().enumerate() {
            for b in finned[i + 1..].iter().take_while(|b| b.base == a.base) {
                let both = a.eliminations | b.eliminations;
                if both == a.eliminations
                    || both == b.eliminations
                    || !(self.accepts(a, geo) || self.accepts(b, geo))
                    || seen.contains(&both)
                {
                    continue;
                }
                seen.push(both);
                sink(self.step(a, Some(b)))?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl SizedBuiltin for Fish {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn runs_on(&self, n: usize) -> bool {
        n == 9 || self.size <= n / 2
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            let with_fins = self.fins != Fins::None;
            for digit in grid.all_digits() {
                // a fish reads nothing but its digit's candidates
                ctx.per_digit(self.info.id, digit, sink, |sink| {
                    self.search_digit(grid, digit, with_fins, sink)
                })?;
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
    use FishShape::{Basic, Franken, Mutant};
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
mod tests;

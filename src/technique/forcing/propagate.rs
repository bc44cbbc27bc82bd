//! The propagation engine of the forcing techniques: follows one assumption on a copy of the
//! candidate state, at a chosen [`Level`], and (when asked) records why each implication holds.
//!
//! One code path serves both uses. The search runs it with `NoRecord`, whose hooks compile
//! to nothing, so a hypothesis costs a few hundred 128-bit operations per round; once a
//! conclusion is found, the same propagation is run again with a `Record` to rebuild the
//! proof. Propagation to a fixpoint is confluent (every rule only ever removes candidates, and
//! a rule that holds keeps holding when more are removed), so both runs reach the same state or
//! both meet a contradiction.

use crate::cellset::CellSet;
use crate::geometry::{Cell, DigitMask, House, digit_bit, digits};
use crate::grid::{Candidate, Grid};
use crate::net::{BranchEnd, Implication, NetBranch, Reason};

/// The cells of the 27 houses, by house index.
const HOUSE_CELLS: [CellSet; 27] = {
    let mut a = [CellSet::EMPTY; 27];
    let mut i = 0;
    while i < 27 {
        a[i] = House::from_index(i as u8).cells();
        i += 1;
    }
    a
};

/// The three houses of each cell, as a mask of house indices.
const CELL_HOUSES: [u32; 81] = {
    let mut a = [0u32; 81];
    let mut i = 0;
    while i < 81 {
        let c = Cell::new(i as u8);
        a[i] = 1 << c.row() | 1 << (9 + c.col()) | 1 << (18 + c.box_index());
        i += 1;
    }
    a
};

/// Every house.
const ALL_HOUSES: u32 = (1 << 27) - 1;

/// No record for this candidate yet.
const NONE: u32 = u32::MAX;

/// How far an assumption is followed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// The links of the position only: a true candidate removes its peers, a false one makes
    /// true the other end of a bivalue cell or conjugate pair of the position.
    Static,
    /// Naked and hidden singles on the hypothetical grid, so an implication may use every
    /// earlier one (Sudoku Explainer's dynamic chains).
    Dynamic,
    /// Dynamic, plus locked candidates, naked and hidden pairs and triples, X-Wing and
    /// Swordfish on the hypothetical grid (SE's "Dynamic (+)").
    Plus,
    /// Plus, and one level down: a candidate whose assumption leads to a contradiction at the
    /// inner level is removed (nested forcing chains).
    Nested(&'static Level),
}

impl Level {
    /// How many levels of nesting this level uses.
    pub fn depth(self) -> u8 {
        match self {
            Level::Nested(inner) => 1 + inner.depth(),
            _ => 0,
        }
    }
}

/// The units (cells, and houses per digit) a set of changed candidates touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Units {
    cells: CellSet,
    /// Per digit, the houses (bit `i` for house index `i`) holding a changed candidate.
    houses: [u32; 9],
}

impl Units {
    /// Every unit: a footprint that always has to be tested again.
    const ALL: Units = Units {
        cells: CellSet::ALL,
        houses: [(1 << 27) - 1; 9],
    };

    /// The units touched by the candidates of `before` that `after` no longer has.
    fn of_change(before: &[CellSet; 9], after: &[CellSet; 9]) -> Units {
        let mut units = Units {
            cells: CellSet::EMPTY,
            houses: [0; 9],
        };
        for di in 0..9 {
            let gone = before[di] - after[di];
            if gone.is_empty() {
                continue;
            }
            units.cells |= gone;
            let mut mask = 0u32;
            for (h, &hc) in HOUSE_CELLS.iter().enumerate() {
                mask |= (gone.intersects(hc) as u32) << h;
            }
            units.houses[di] = mask;
        }
        units
    }

    /// Whether a unit is touched by both.
    fn meets(&self, other: &Units) -> bool {
        self.cells.intersects(other.cells)
            || (0..9).any(|di| self.houses[di] & other.houses[di] != 0)
    }
}

/// Where each candidate's assumption reaches, one level down, from a search's start state:
/// a filter that spares the nested propagation most of its inner assumptions.
///
/// The inner levels it serves (static and dynamic) are local: a rule reads one cell, or one
/// digit's places in one house. If assuming `y` from the start state `S0` reaches a state `F`
/// without a contradiction, and the changes from `S0` to a later state `S` (a fixpoint, fewer
/// candidates) touch no cell and no digit-in-house that the changes from `S0` to `F` touch,
/// then assuming `y` from `S` reaches `S` minus those same changes, again without a
/// contradiction: every implication still holds for the same reason, and each unit of the
/// result is a unit of `S` or of `F`. So `y` need not be assumed again there. The filter only
/// skips assumptions that would not lead to a contradiction, so the propagation removes the
/// same candidates, in the same order, with it or without it.
pub(crate) struct Footprints {
    inner: Level,
    start: [CellSet; 9],
    /// Per candidate index, the units its inner assumption changed (all for a contradiction).
    units: Vec<Units>,
}

impl Footprints {
    /// The footprints for a search at `level` from `start`, when `level` nests a level the
    /// filter serves (static or dynamic chains one level down).
    pub fn new(start: &State, level: Level) -> Option<Footprints> {
        let Level::Nested(inner) = level else {
            return None;
        };
        if !matches!(inner, Level::Static | Level::Dynamic) {
            return None;
        }
        let mut units = vec![Units::ALL; 729];
        let aids = Aids {
            links: (*inner == Level::Static).then(|| Links::of(start)),
            footprints: None,
        };
        for di in 0..9 {
            for cell in start.cands[di] {
                let y = cand(cell, di);
                let mut t = start.clone();
                if t.assume_with(y, true, *inner, &mut NoRecord, &aids).is_ok() {
                    units[index(y)] = Units::of_change(&start.cands, &t.cands);
                }
            }
        }
        Some(Footprints {
            inner: *inner,
            start: start.cands,
            units,
        })
    }

    /// The changes from the start to `st`, when this filter serves a nested pass at `inner`
    /// from `st` (whose candidates are a subset of the start's).
    fn changes(&self, st: &State, inner: Level) -> Option<Units> {
        if inner != self.inner || (0..9).any(|di| !st.cands[di].is_subset(self.start[di])) {
            return None;
        }
        Some(Units::of_change(&self.start, &st.cands))
    }
}

/// The strong links of one state, by candidate: what becomes true when the candidate is
/// false (the other candidate of a bivalue cell, the other place of a conjugate pair), in the
/// order the static walk takes them (the cell, then its row, column and box). Built once for
/// the many walks a search or a nested pass starts from the same state.
pub(crate) struct Links {
    /// Per candidate index, up to four (partner index, house index or [`CELL_LINK`]).
    partners: Vec<[(u16, u8); 4]>,
    count: Vec<u8>,
}

/// The house slot of a link inside a cell.
const CELL_LINK: u8 = u8::MAX;

impl Links {
    /// The strong links of `st`.
    pub fn of(st: &State) -> Links {
        let mut links = Links {
            partners: vec![[(0, 0); 4]; 729],
            count: vec![0; 729],
        };
        let (mut ones, mut twos, mut threes) = (CellSet::EMPTY, CellSet::EMPTY, CellSet::EMPTY);
        for &b in &st.cands {
            threes |= twos & b;
            twos |= ones & b;
            ones |= b;
        }
        for cell in twos - threes {
            let mask = st.mask(cell);
            let (a, b) = (
                mask.trailing_zeros() as usize,
                15 - mask.leading_zeros() as usize,
            );
            links.push(index(cand(cell, a)), index(cand(cell, b)), CELL_LINK);
            links.push(index(cand(cell, b)), index(cand(cell, a)), CELL_LINK);
        }
        for di in 0..9 {
            for (h, &hc) in HOUSE_CELLS.iter().enumerate() {
                let rest = st.cands[di] & hc;
                if rest.len() == 2 && !st.placed[di].intersects(hc) {
                    let mut it = rest.iter();
                    let (x, y) = (it.next().expect("two"), it.next().expect("two"));
                    links.push(index(cand(x, di)), index(cand(y, di)), h as u8);
                    links.push(index(cand(y, di)), index(cand(x, di)), h as u8);
                }
            }
        }
        links
    }

    fn push(&mut self, from: usize, to: usize, house: u8) {
        let n = self.count[from] as usize;
        self.partners[from][n] = (to as u16, house);
        self.count[from] += 1;
    }

    /// The links from candidate index `i`, in walk order.
    #[inline]
    fn from(&self, i: usize) -> &[(u16, u8)] {
        &self.partners[i][..self.count[i] as usize]
    }
}

/// What a search builds once for the many assumptions it follows from its start state.
#[derive(Default)]
pub(crate) struct Aids {
    /// The start's strong links, for static walks from the start.
    links: Option<Links>,
    /// The inner assumptions' footprints, for a nested level.
    footprints: Option<Footprints>,
}

impl Aids {
    /// No aids: every assumption is followed on its own.
    pub const NONE: Aids = Aids {
        links: None,
        footprints: None,
    };

    /// The aids for following many assumptions at `level` from `start`.
    pub fn for_search(start: &State, level: Level) -> Aids {
        Aids {
            links: (level == Level::Static).then(|| Links::of(start)),
            footprints: Footprints::new(start, level),
        }
    }
}

/// A contradiction met while propagating.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Clash {
    /// An open cell has no candidate left.
    EmptyCell(Cell),
    /// A digit has no place left in a house that lacks it.
    NoPlace(u8, House),
    /// A candidate would be both true and false.
    Both(Candidate),
}

/// Why the engine made a candidate true or false (the recorder turns it into parents).
pub(crate) enum Why {
    Assume,
    /// False: sees this true candidate.
    Peer(Candidate),
    /// True: every other candidate of its cell is gone.
    LastInCell,
    /// True: every other place of its digit in the house is gone.
    LastInHouse(House),
    /// False: the digit's places in `region` all lie in `other`.
    Locked {
        region: House,
        other: House,
    },
    /// False: these cells of the house hold only these digits.
    NakedSubset {
        house: House,
        cells: CellSet,
        digits: DigitMask,
    },
    /// False: these digits of the house lie only in these cells.
    HiddenSubset {
        house: House,
        cells: CellSet,
        digits: DigitMask,
    },
    /// False: a fish whose base lines are `base` (cells), covered by `cover` (cells).
    Fish {
        base: CellSet,
        cover: CellSet,
        lines: Vec<House>,
    },
    /// False: its assumption leads to a contradiction one level down; `ext` are the
    /// candidates removed at this level that the inner proof uses.
    Nested(Box<NetBranch>, Vec<Candidate>),
}

/// Receives every implication as the engine makes it.
pub(crate) trait Recorder {
    /// Whether anything is recorded (the hooks are skipped otherwise).
    const ON: bool;
    /// `c` became true (recorders that keep no proof ignore it).
    #[inline(always)]
    fn on(&mut self, _c: Candidate, _why: Why) {}
    /// `c` became false.
    #[inline(always)]
    fn off(&mut self, _c: Candidate, _why: Why) {}
    /// The propagation met `clash`.
    #[inline(always)]
    fn clash(&mut self, _clash: Clash) {}
    /// The candidates that count as given for parents (see [`Record`]); only asked of
    /// recorders with `ON` set.
    fn base(&self) -> &[CellSet; 9] {
        unreachable!("only a recorder with ON set has a base")
    }
    /// A nested pass removed `y` (its assumption leads to a contradiction one level down).
    #[inline(always)]
    fn nested_removal(&mut self, _y: Candidate) {}
    /// The removals a nested pass is to make, in order, when they are known from an earlier
    /// run of the same branch (see [`Trail`]); taken once.
    #[inline(always)]
    fn take_replay(&mut self) -> Option<Vec<Candidate>> {
        None
    }
}

/// Records only the candidates a nested pass removes, in order: a branch followed with a
/// trail can be recorded again later without testing every inner assumption, by replaying
/// them (the propagation is deterministic, so the replay meets the same states).
#[derive(Default)]
pub(crate) struct Trail {
    pub removed: Vec<Candidate>,
}

impl Recorder for Trail {
    const ON: bool = false;
    fn nested_removal(&mut self, y: Candidate) {
        self.removed.push(y);
    }
}

/// Records nothing: the search's fast path.
pub(crate) struct NoRecord;

impl Recorder for NoRecord {
    const ON: bool = false;
}

/// A hypothetical candidate state: what is still possible and what is known true.
#[derive(Clone, Debug)]
pub(crate) struct State {
    /// Candidates still possible, per digit (cells with a value have none).
    pub cands: [CellSet; 9],
    /// Cells known to hold each digit (the grid's values and placements made since).
    pub placed: [CellSet; 9],
    /// Cells without a value.
    pub open: CellSet,
    /// Per digit, the houses (as a mask of house indices) whose places for it changed since
    /// the last round of hidden singles looked at them: the next round looks only there.
    dirty: [u32; 9],
    /// The same, for locked candidates (a box or line whose places for the digit changed
    /// since locked candidates last looked at it without finding anything).
    locked_dirty: [u32; 9],
    /// The houses with a change (any digit) since subsets last looked at them.
    subsets_dirty: u32,
    /// The digits with a change since fish last looked at them.
    fish_dirty: u16,
}

/// Two states are equal when they have the same candidates and values (the houses still to
/// look at are bookkeeping).
impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.cands == other.cands && self.placed == other.placed && self.open == other.open
    }
}

impl Eq for State {}

#[inline]
fn cand(cell: Cell, di: usize) -> Candidate {
    Candidate::new(cell, di as u8 + 1)
}

impl State {
    /// The state of `grid`.
    pub fn of(grid: &Grid) -> State {
        let mut placed = [CellSet::EMPTY; 9];
        for c in grid.filled_cells() {
            placed[grid.value(c) as usize - 1].insert(c);
        }
        let mut cands = [CellSet::EMPTY; 9];
        for (di, s) in cands.iter_mut().enumerate() {
            *s = grid.digit_cells(di as u8 + 1);
        }
        State {
            cands,
            placed,
            open: grid.empty_cells(),
            dirty: [ALL_HOUSES; 9],
            locked_dirty: [ALL_HOUSES; 9],
            subsets_dirty: ALL_HOUSES,
            fish_dirty: 0x1ff,
        }
    }

    /// Notes that the places of digit `di` changed in `houses`, for every rule that looks only
    /// at what changed.
    #[inline]
    fn mark(&mut self, di: usize, houses: u32) {
        self.dirty[di] |= houses;
        self.locked_dirty[di] |= houses;
        self.subsets_dirty |= houses;
        self.fish_dirty |= 1 << di;
    }

    /// The state of `grid`, marked settled when it holds no single and no contradiction (so a
    /// round of singles after an assumption looks only at the houses the assumption changed).
    pub fn settled_of(grid: &Grid) -> State {
        let mut st = State::of(grid);
        let mut probe = st.clone();
        if probe.singles(&mut NoRecord) == Ok(false) {
            st.dirty = [0; 9];
            let nr = &mut NoRecord;
            if !probe.locked(nr) && !probe.subsets(nr) && !probe.fish(nr) {
                st.locked_dirty = [0; 9];
                st.subsets_dirty = 0;
                st.fish_dirty = 0;
            }
        }
        st
    }

    /// Looks at every house in the next round of hidden singles, as for a new state.
    #[cfg(test)]
    fn all_dirty(mut self) -> State {
        for di in 0..9 {
            self.mark(di, ALL_HOUSES);
        }
        self
    }

    /// Whether `c` is still a candidate.
    #[inline]
    pub fn has(&self, c: Candidate) -> bool {
        self.cands[c.digit as usize - 1].contains(c.cell)
    }

    /// The candidates of `cell` as a mask.
    #[inline]
    pub fn mask(&self, cell: Cell) -> DigitMask {
        mask_of(&self.cands, cell)
    }

    /// Makes `c` true, removing its peers; `false` when it is no longer a candidate (a stale
    /// single of the same round: the next round meets the contradiction).
    fn place<R: Recorder>(&mut self, c: Candidate, why: Why, rec: &mut R) -> bool {
        let di = c.digit as usize - 1;
        let cell = c.cell;
        if !self.cands[di].contains(cell) {
            return false;
        }
        if R::ON {
            rec.on(c, why);
        }
        self.placed[di].insert(cell);
        self.open.remove(cell);
        let own = CELL_HOUSES[cell.index()];
        for e in 0..9 {
            if e != di && self.cands[e].contains(cell) {
                self.cands[e].remove(cell);
                self.mark(e, own);
                if R::ON {
                    rec.off(cand(cell, e), Why::Peer(c));
                }
            }
        }
        let gone = self.cands[di] & cell.peers();
        self.cands[di] -= gone;
        self.cands[di].remove(cell);
        let mut touched = own;
        for p in gone {
            touched |= CELL_HOUSES[p.index()];
        }
        self.mark(di, touched);
        if R::ON {
            for p in gone {
                rec.off(cand(p, di), Why::Peer(c));
            }
        }
        true
    }

    /// Makes `c` false.
    #[inline]
    fn remove<R: Recorder>(&mut self, c: Candidate, why: Why, rec: &mut R) {
        let di = c.digit as usize - 1;
        if self.cands[di].contains(c.cell) {
            self.cands[di].remove(c.cell);
            self.mark(di, CELL_HOUSES[c.cell.index()]);
            if R::ON {
                rec.off(c, why);
            }
        }
    }

    /// Follows the assumption that `c` is true (`on`) or false at `level`.
    pub fn assume<R: Recorder>(
        &mut self,
        c: Candidate,
        on: bool,
        level: Level,
        rec: &mut R,
    ) -> Result<(), Clash> {
        self.assume_with(c, on, level, rec, &Aids::NONE)
    }

    /// [`State::assume`] with what a search built once from this state (static links) or from
    /// a state this one descends from (footprints). Same result either way.
    pub fn assume_with<R: Recorder>(
        &mut self,
        c: Candidate,
        on: bool,
        level: Level,
        rec: &mut R,
        aids: &Aids,
    ) -> Result<(), Clash> {
        if level == Level::Static {
            return match &aids.links {
                Some(links) => self.assume_static(c, on, rec, links),
                None => self.assume_static(c, on, rec, &Links::of(self)),
            };
        }
        let footprints = aids.footprints.as_ref();
        if on {
            self.place(c, Why::Assume, rec);
        } else {
            self.remove(c, Why::Assume, rec);
        }
        match level {
            Level::Static => Ok(()),
            Level::Dynamic => self.settle(false, rec),
            Level::Plus => self.settle(true, rec),
            Level::Nested(inner) => {
                self.settle(true, rec)?;
                self.nested(*inner, rec, footprints)
            }
        }
    }

    /// Singles (and with `plus` the cheaper techniques) to a fixpoint.
    fn settle<R: Recorder>(&mut self, plus: bool, rec: &mut R) -> Result<(), Clash> {
        loop {
            if self.singles(rec)? {
                continue;
            }
            if plus && (self.locked(rec) || self.subsets(rec) || self.fish(rec)) {
                continue;
            }
            return Ok(());
        }
    }

    /// One round of naked and hidden singles; whether anything was placed.
    fn singles<R: Recorder>(&mut self, rec: &mut R) -> Result<bool, Clash> {
        let mut ones = CellSet::EMPTY;
        let mut twos = CellSet::EMPTY;
        for &b in &self.cands {
            twos |= ones & b;
            ones |= b;
        }
        if let Some(c) = (self.open - ones).first() {
            return Err(self.clash(Clash::EmptyCell(c), rec));
        }
        let mut found = [(0u8, 0u8, 0u8); 81];
        let mut n = 0;
        let mut chosen = CellSet::EMPTY;
        // Only the houses whose places changed since the last round can hold a new hidden
        // single or have lost their last place; they are looked at in the same order as a
        // full round would, so the singles found (and their order) are the same.
        for di in 0..9 {
            let b = self.cands[di];
            let p = self.placed[di];
            let mut look = std::mem::take(&mut self.dirty[di]);
            while look != 0 {
                let h = look.trailing_zeros() as usize;
                look &= look - 1;
                let hc = HOUSE_CELLS[h];
                if p.intersects(hc) {
                    continue;
                }
                let x = b & hc;
                match x.len() {
                    0 => {
                        let clash = Clash::NoPlace(di as u8 + 1, House::from_index(h as u8));
                        return Err(self.clash(clash, rec));
                    }
                    1 => {
                        let c = x.first().expect("one cell");
                        if !chosen.contains(c) {
                            chosen.insert(c);
                            found[n] = (c.index() as u8, di as u8, h as u8 + 1);
                            n += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
        for c in (self.open & ones) - twos - chosen {
            let di = (0..9)
                .find(|&d| self.cands[d].contains(c))
                .expect("one digit");
            found[n] = (c.index() as u8, di as u8, 0);
            n += 1;
        }
        for &(c, di, h) in &found[..n] {
            let why = if h == 0 {
                Why::LastInCell
            } else {
                Why::LastInHouse(House::from_index(h - 1))
            };
            self.place(cand(Cell::new(c), di as usize), why, rec);
        }
        Ok(n > 0)
    }

    #[inline]
    fn clash<R: Recorder>(&self, clash: Clash, rec: &mut R) -> Clash {
        if R::ON {
            rec.clash(clash);
        }
        clash
    }

    /// Pointing and claiming; whether anything was removed.
    ///
    /// Only boxes and lines whose places changed since they were last looked at are looked at
    /// (in the same order as a full pass, checked as the pass goes): a pattern that found
    /// nothing finds nothing until its own places change, since the candidates it would
    /// remove only ever get fewer.
    fn locked<R: Recorder>(&mut self, rec: &mut R) -> bool {
        let mut changed = false;
        for di in 0..9 {
            if self.locked_dirty[di] == 0 {
                continue;
            }
            let p = self.placed[di];
            for bx in 0..9usize {
                let bh = 18 + bx;
                if self.locked_dirty[di] >> bh & 1 == 0 {
                    continue;
                }
                self.locked_dirty[di] &= !(1 << bh);
                let bc = HOUSE_CELLS[bh];
                let x = self.cands[di] & bc;
                if p.intersects(bc) || x.len() < 2 {
                    continue;
                }
                let lines = [
                    bx / 3 * 3,
                    bx / 3 * 3 + 1,
                    bx / 3 * 3 + 2,
                    9 + bx % 3 * 3,
                    9 + bx % 3 * 3 + 1,
                    9 + bx % 3 * 3 + 2,
                ];
                for line in lines {
                    let lc = HOUSE_CELLS[line];
                    if x.is_subset(lc) {
                        let elim = self.cands[di] & (lc - bc);
                        let (region, other) = (house(bh), house(line));
                        for c in elim {
                            self.remove(cand(c, di), Why::Locked { region, other }, rec);
                            changed = true;
                        }
                    }
                }
            }
            for (line, &lc) in HOUSE_CELLS.iter().enumerate().take(18) {
                if self.locked_dirty[di] >> line & 1 == 0 {
                    continue;
                }
                self.locked_dirty[di] &= !(1 << line);
                let x = self.cands[di] & lc;
                if p.intersects(lc) || x.len() < 2 {
                    continue;
                }
                let boxes = if line < 9 {
                    let b0 = line / 3 * 3;
                    [b0, b0 + 1, b0 + 2]
                } else {
                    let b0 = (line - 9) / 3;
                    [b0, b0 + 3, b0 + 6]
                };
                for bx in boxes {
                    let bc = HOUSE_CELLS[18 + bx];
                    if x.is_subset(bc) {
                        let elim = self.cands[di] & (bc - lc);
                        let (region, other) = (house(line), house(18 + bx));
                        for c in elim {
                            self.remove(cand(c, di), Why::Locked { region, other }, rec);
                            changed = true;
                        }
                    }
                }
            }
        }
        changed
    }

    /// Naked and hidden pairs and triples; whether anything was removed (stops at the first
    /// subset that removes something).
    ///
    /// Only houses with a change since they were last looked at are looked at.
    fn subsets<R: Recorder>(&mut self, rec: &mut R) -> bool {
        for (h, &hc) in HOUSE_CELLS.iter().enumerate() {
            if self.subsets_dirty >> h & 1 == 0 {
                continue;
            }
            self.subsets_dirty &= !(1 << h);
            let open = self.open & hc;
            if open.len() < 3 {
                continue;
            }
            let list = house(h).cell_list();
            let mut masks = [0u16; 9];
            let mut pos = [0u16; 9];
            for (i, &c) in list.iter().enumerate() {
                if !open.contains(c) {
                    continue;
                }
                for (di, p) in pos.iter_mut().enumerate() {
                    if self.cands[di].contains(c) {
                        masks[i] |= 1 << di;
                        *p |= 1 << i;
                    }
                }
            }
            for k in 2..=3u32 {
                // Naked: k cells holding k digits between them.
                if let Some((cells, ds)) = combination(&masks, k) {
                    let cellset = cells_of(list, cells);
                    let targets = !cells & 0x1ff;
                    if (0..9).any(|i| targets >> i & 1 != 0 && masks[i] & ds != 0) {
                        for i in (0..9).filter(|i| targets >> i & 1 != 0) {
                            for d in digits(masks[i] & ds) {
                                let why = Why::NakedSubset {
                                    house: house(h),
                                    cells: cellset,
                                    digits: ds,
                                };
                                self.remove(Candidate::new(list[i], d), why, rec);
                            }
                        }
                        return true;
                    }
                }
                // Hidden: k digits confined to k cells.
                if let Some((ds, cells)) = combination(&pos, k) {
                    let cellset = cells_of(list, cells);
                    if (0..9).any(|i| cells >> i & 1 != 0 && masks[i] & !ds != 0) {
                        for i in (0..9).filter(|i| cells >> i & 1 != 0) {
                            for d in digits(masks[i] & !ds & 0x1ff) {
                                let why = Why::HiddenSubset {
                                    house: house(h),
                                    cells: cellset,
                                    digits: ds,
                                };
                                self.remove(Candidate::new(list[i], d), why, rec);
                            }
                        }
                        return true;
                    }
                }
            }
        }
        false
    }

    /// X-Wing and Swordfish on rows and columns; whether anything was removed (stops at the
    /// first fish that removes something).
    ///
    /// Only digits with a change since they were last looked at are looked at.
    fn fish<R: Recorder>(&mut self, rec: &mut R) -> bool {
        for di in 0..9 {
            if self.fish_dirty >> di & 1 == 0 {
                continue;
            }
            self.fish_dirty &= !(1 << di);
            let b = self.cands[di];
            for orient in 0..2usize {
                let mut m = [0u16; 9];
                for (i, mi) in m.iter_mut().enumerate() {
                    for c in b & HOUSE_CELLS[orient * 9 + i] {
                        *mi |= 1 << if orient == 0 { c.col() } else { c.row() };
                    }
                }
                for k in 2..=3u32 {
                    let Some((lines, covers)) = combination(&m, k) else {
                        continue;
                    };
                    let mut base = CellSet::EMPTY;
                    let mut cover = CellSet::EMPTY;
                    let mut houses = Vec::new();
                    for i in 0..9 {
                        if lines >> i & 1 != 0 {
                            base |= HOUSE_CELLS[orient * 9 + i];
                            if R::ON {
                                houses.push(house(orient * 9 + i));
                            }
                        }
                        if covers >> i & 1 != 0 {
                            cover |= HOUSE_CELLS[(1 - orient) * 9 + i];
                        }
                    }
                    let elim = b & (cover - base);
                    if elim.is_empty() {
                        continue;
                    }
                    for c in elim {
                        let why = Why::Fish {
                            base,
                            cover,
                            lines: houses.clone(),
                        };
                        self.remove(cand(c, di), why, rec);
                    }
                    return true;
                }
            }
        }
        false
    }

    /// Why `y` goes in a nested pass: its contradiction one level down (`inner`), proved
    /// only when `rec` records.
    fn nested_why<R: Recorder>(&self, y: Candidate, inner: Level, rec: &R) -> Why {
        if R::ON {
            let (branch, ext) = contradiction_proof(self, rec.base(), y, true, inner);
            Why::Nested(Box::new(branch), ext)
        } else {
            Why::Assume
        }
    }

    /// Removes every candidate whose assumption leads to a contradiction at `inner`, settling
    /// (with Plus) after each, until a whole pass removes nothing.
    fn nested<R: Recorder>(
        &mut self,
        inner: Level,
        rec: &mut R,
        footprints: Option<&Footprints>,
    ) -> Result<(), Clash> {
        if let Some(removals) = rec.take_replay() {
            // The same removals as the run that made the trail, each proved again.
            for y in removals {
                debug_assert!(self.has(y), "{y} replayed but gone");
                let why = self.nested_why(y, inner, rec);
                self.remove(y, why, rec);
                self.settle(true, rec)?;
            }
            return Ok(());
        }
        let changes = |st: &State| footprints.and_then(|f| st.changed_for(f, inner));
        let mut changed = changes(self);
        let links_of = |st: &State| (inner == Level::Static).then(|| Links::of(st));
        let mut links = links_of(self);
        // Candidates an inner assumption without contradiction made true, since the last
        // removal: each reaches a part of where that assumption went (its implications are
        // among that assumption's), so it meets no contradiction either and is not followed.
        let mut held_by_others = [CellSet::EMPTY; 9];
        loop {
            let mut removed = false;
            for di in 0..9 {
                for cell in self.cands[di] {
                    let y = cand(cell, di);
                    if !self.has(y) || held_by_others[di].contains(cell) {
                        continue;
                    }
                    if let (Some(f), Some(ch)) = (footprints, &changed)
                        && !f.units[index(y)].meets(ch)
                    {
                        continue;
                    }
                    let mut t = self.clone();
                    let held = match &links {
                        Some(l) => t.assume_static(y, true, &mut NoRecord, l).is_ok(),
                        None => t.assume(y, true, inner, &mut NoRecord).is_ok(),
                    };
                    if held {
                        for (h, (now, before)) in held_by_others
                            .iter_mut()
                            .zip(t.placed.iter().zip(&self.placed))
                        {
                            *h |= *now - *before;
                        }
                        continue;
                    }
                    let why = self.nested_why(y, inner, rec);
                    self.remove(y, why, rec);
                    rec.nested_removal(y);
                    removed = true;
                    self.settle(true, rec)?;
                    changed = changes(self);
                    links = links_of(self);
                    held_by_others = [CellSet::EMPTY; 9];
                }
            }
            if !removed {
                return Ok(());
            }
        }
    }

    /// Static propagation: a breadth-first walk over the links of this state.
    fn assume_static<R: Recorder>(
        &mut self,
        c: Candidate,
        on: bool,
        rec: &mut R,
        links: &Links,
    ) -> Result<(), Clash> {
        let start = &*self;
        let mut is_on = [CellSet::EMPTY; 9];
        let mut is_off = [CellSet::EMPTY; 9];
        // Each candidate enters the queue at most once true and once false: 1,458 entries of
        // `index * 2 + on` (a 3 KB array; a queue of (Candidate, bool) took a fifth of the
        // walk's time to initialize).
        let mut queue = [0u16; 1458];
        let (mut head, mut tail) = (0usize, 1usize);
        queue[0] = entry(c, on);
        if on {
            is_on[c.digit as usize - 1].insert(c.cell);
            rec_on(rec, c, Why::Assume);
        } else {
            is_off[c.digit as usize - 1].insert(c.cell);
            rec_off(rec, c, Why::Assume);
        }
        let mut result = Ok(());
        'walk: while head < tail {
            let (x, x_on) = unentry(queue[head]);
            head += 1;
            let xd = x.digit as usize - 1;
            if x_on {
                // Everything that sees x is false.
                let mut weak = [CellSet::EMPTY; 9];
                for (e, w) in weak.iter_mut().enumerate() {
                    if e != xd && start.cands[e].contains(x.cell) {
                        w.insert(x.cell);
                    }
                }
                weak[xd] = start.cands[xd] & x.cell.peers();
                for (e, w) in weak.iter().enumerate() {
                    for cell in *w - is_off[e] {
                        let y = cand(cell, e);
                        is_off[e].insert(cell);
                        rec_off(rec, y, Why::Peer(x));
                        if is_on[e].contains(cell) {
                            result = Err(Clash::Both(y));
                            break 'walk;
                        }
                        queue[tail] = entry(y, false);
                        tail += 1;
                    }
                }
            } else {
                // The other end of a bivalue cell or conjugate pair is true.
                for &(yi, h) in links.from(index(x)) {
                    let y = cand(Cell::new((yi % 81) as u8), yi as usize / 81);
                    let yd = y.digit as usize - 1;
                    if is_on[yd].contains(y.cell) {
                        continue;
                    }
                    is_on[yd].insert(y.cell);
                    let why = match h {
                        CELL_LINK => Why::LastInCell,
                        h => Why::LastInHouse(house(h as usize)),
                    };
                    rec_on(rec, y, why);
                    if is_off[yd].contains(y.cell) {
                        result = Err(Clash::Both(y));
                        break 'walk;
                    }
                    queue[tail] = entry(y, true);
                    tail += 1;
                }
            }
        }
        if let Err(clash) = result {
            return Err(self.clash(clash, rec));
        }
        for di in 0..9 {
            let gone = is_off[di] | is_on[di];
            if !gone.is_empty() {
                self.cands[di] -= gone;
                self.mark(di, ALL_HOUSES);
            }
            self.placed[di] |= is_on[di];
            self.open -= is_on[di];
        }
        Ok(())
    }

    /// The changes since `footprints`' start, when they may filter a nested pass at `inner`.
    fn changed_for(&self, footprints: &Footprints, inner: Level) -> Option<Units> {
        footprints.changes(self, inner)
    }

    /// The candidates made true since `start`.
    pub fn on_since(&self, start: &State) -> [CellSet; 9] {
        std::array::from_fn(|d| self.placed[d] - start.placed[d])
    }

    /// The candidates made false since `start`.
    pub fn off_since(&self, start: &State) -> [CellSet; 9] {
        std::array::from_fn(|d| start.cands[d] - self.cands[d] - self.placed[d])
    }
}

#[inline]
fn rec_on<R: Recorder>(rec: &mut R, c: Candidate, why: Why) {
    if R::ON {
        rec.on(c, why);
    }
}

#[inline]
fn rec_off<R: Recorder>(rec: &mut R, c: Candidate, why: Why) {
    if R::ON {
        rec.off(c, why);
    }
}

/// A static walk's queue entry: the candidate's index and its truth.
#[inline]
fn entry(c: Candidate, on: bool) -> u16 {
    (index(c) * 2 + on as usize) as u16
}

#[inline]
fn unentry(e: u16) -> (Candidate, bool) {
    let i = (e >> 1) as usize;
    (cand(Cell::new((i % 81) as u8), i / 81), e & 1 != 0)
}

#[inline]
fn house(i: usize) -> House {
    House::from_index(i as u8)
}

fn mask_of(cands: &[CellSet; 9], cell: Cell) -> DigitMask {
    let mut m = 0;
    for (di, s) in cands.iter().enumerate() {
        if s.contains(cell) {
            m |= 1 << di;
        }
    }
    m
}

fn cells_of(list: &[Cell; 9], positions: u16) -> CellSet {
    (0..9)
        .filter(|i| positions >> i & 1 != 0)
        .map(|i| list[i])
        .collect()
}

/// The first `k` entries of `masks` (each with 2..=k bits) whose union has exactly `k` bits:
/// (the entries as a 9-bit set, the union).
fn combination(masks: &[u16; 9], k: u32) -> Option<(u16, u16)> {
    let ok = |m: u16| (2..=k).contains(&m.count_ones());
    for a in 0..9 {
        if !ok(masks[a]) {
            continue;
        }
        for b in a + 1..9 {
            if !ok(masks[b]) {
                continue;
            }
            let ab = masks[a] | masks[b];
            if k == 2 {
                if ab.count_ones() == 2 {
                    return Some((1 << a | 1 << b, ab));
                }
                continue;
            }
            if ab.count_ones() > 3 {
                continue;
            }
            for (c, &mc) in masks.iter().enumerate().skip(b + 1) {
                if ok(mc) && (ab | mc).count_ones() == 3 {
                    return Some((1 << a | 1 << b | 1 << c, ab | mc));
                }
            }
        }
    }
    None
}

/// What happened to one candidate in a [`Record`].
struct Fact {
    cand: Candidate,
    on: bool,
    why: Why,
    parents: Vec<u32>,
    ext: Vec<Candidate>,
}

/// Records every implication of one branch with its parents, so the proof of a conclusion or
/// a contradiction can be rebuilt.
///
/// `base` holds the candidates that count as given: at the top level the position's own, one
/// level down the outer level's. A parent removed before this branch started (in `base`, not
/// in `start`) is an external fact, which the outer level links to its own implications.
pub(crate) struct Record {
    base: [CellSet; 9],
    start: [CellSet; 9],
    on_at: Vec<u32>,
    off_at: Vec<u32>,
    facts: Vec<Fact>,
    clash: Option<(Clash, Vec<u32>, Vec<Candidate>)>,
    /// The nested removals to replay (from a [`Trail`] of the same branch).
    replay: Option<Vec<Candidate>>,
}

/// The index of `c` among the 729 candidates (digit-major, as in [`crate::CandSet`]).
#[inline]
pub(crate) fn index(c: Candidate) -> usize {
    (c.digit as usize - 1) * 81 + c.cell.index()
}

impl Record {
    /// A record of a branch starting at `start`, with `base` as the given candidates.
    pub fn new(start: &State, base: &[CellSet; 9]) -> Record {
        Record {
            base: *base,
            start: start.cands,
            on_at: vec![NONE; 729],
            off_at: vec![NONE; 729],
            facts: Vec::new(),
            clash: None,
            replay: None,
        }
    }

    /// Adds the parent for `c` being false.
    fn off_parent(&self, c: Candidate, parents: &mut Vec<u32>, ext: &mut Vec<Candidate>) {
        let di = c.digit as usize - 1;
        if self.start[di].contains(c.cell) {
            let at = self.off_at[index(c)];
            if at != NONE {
                parents.push(at);
            }
        } else if self.base[di].contains(c.cell) {
            ext.push(c);
        }
    }

    fn parents_of(&self, c: Candidate, why: &Why) -> (Vec<u32>, Vec<Candidate>) {
        let mut parents = Vec::new();
        let mut ext = Vec::new();
        let di = c.digit as usize - 1;
        match why {
            Why::Assume => {}
            Why::Peer(x) => {
                let at = self.on_at[index(*x)];
                if at != NONE {
                    parents.push(at);
                }
            }
            Why::LastInCell => {
                for d in digits(mask_of(&self.base, c.cell) & !digit_bit(c.digit)) {
                    self.off_parent(Candidate::new(c.cell, d), &mut parents, &mut ext);
                }
            }
            Why::LastInHouse(h) => {
                for cell in self.base[di] & (h.cells() - CellSet::single(c.cell)) {
                    self.off_parent(cand(cell, di), &mut parents, &mut ext);
                }
            }
            Why::Locked { region, other } => {
                for cell in self.base[di] & (region.cells() - other.cells()) {
                    self.off_parent(cand(cell, di), &mut parents, &mut ext);
                }
            }
            Why::NakedSubset {
                cells, digits: ds, ..
            } => {
                for cell in *cells {
                    for d in digits(mask_of(&self.base, cell) & !ds) {
                        self.off_parent(Candidate::new(cell, d), &mut parents, &mut ext);
                    }
                }
            }
            Why::HiddenSubset {
                house,
                cells,
                digits: ds,
            } => {
                for d in digits(*ds) {
                    for cell in self.base[d as usize - 1] & (house.cells() - *cells) {
                        self.off_parent(Candidate::new(cell, d), &mut parents, &mut ext);
                    }
                }
            }
            Why::Fish { base, cover, .. } => {
                for cell in self.base[di] & (*base - *cover) {
                    self.off_parent(cand(cell, di), &mut parents, &mut ext);
                }
            }
            Why::Nested(_, inner_ext) => {
                for &e in inner_ext {
                    self.off_parent(e, &mut parents, &mut ext);
                }
            }
        }
        parents.sort_unstable();
        parents.dedup();
        (parents, ext)
    }

    fn push(&mut self, c: Candidate, on: bool, why: Why) {
        let (parents, ext) = self.parents_of(c, &why);
        let at = self.facts.len() as u32;
        if on {
            self.on_at[index(c)] = at;
        } else {
            self.off_at[index(c)] = at;
        }
        self.facts.push(Fact {
            cand: c,
            on,
            why,
            parents,
            ext,
        });
    }

    /// Where `c` was made true (`on`) or false, if it was.
    pub fn fact_of(&self, c: Candidate, on: bool) -> Option<u32> {
        let at = if on {
            self.on_at[index(c)]
        } else {
            self.off_at[index(c)]
        };
        (at != NONE).then_some(at)
    }

    /// The proof of `target` (a fact index), or of the contradiction when `target` is
    /// `None`: the facts it rests on, in order, and the external facts they use.
    pub fn proof(&self, target: Option<u32>) -> (NetBranch, Vec<Candidate>) {
        let mut keep = vec![false; self.facts.len()];
        let mut stack: Vec<u32> = Vec::new();
        let mut ext: Vec<Candidate> = Vec::new();
        let end = match (target, &self.clash) {
            (Some(t), _) => {
                stack.push(t);
                BranchEnd::Conclusion
            }
            (None, Some((clash, parents, cext))) => {
                stack.extend(parents);
                ext.extend(cext);
                match *clash {
                    Clash::EmptyCell(c) => BranchEnd::EmptyCell(c),
                    Clash::NoPlace(d, h) => BranchEnd::NoPlace(d, h),
                    Clash::Both(c) => BranchEnd::Both(c),
                }
            }
            (None, None) => BranchEnd::Conclusion,
        };
        // The assumption is always part of the branch.
        if !self.facts.is_empty() {
            stack.push(0);
        }
        while let Some(f) = stack.pop() {
            let f = f as usize;
            if keep[f] {
                continue;
            }
            keep[f] = true;
            stack.extend(&self.facts[f].parents);
            ext.extend(&self.facts[f].ext);
        }
        let mut new_index = vec![u16::MAX; self.facts.len()];
        let mut implications = Vec::new();
        for (i, fact) in self.facts.iter().enumerate() {
            if !keep[i] {
                continue;
            }
            new_index[i] = implications.len() as u16;
            implications.push(Implication {
                candidate: fact.cand,
                on: fact.on,
                reason: reason_of(&fact.why, fact.on, i == 0),
                parents: fact
                    .parents
                    .iter()
                    .map(|&p| new_index[p as usize])
                    .collect(),
            });
        }
        let end_parents = match (target, &self.clash) {
            (None, Some((_, parents, _))) => {
                parents.iter().map(|&p| new_index[p as usize]).collect()
            }
            _ => Vec::new(),
        };
        ext.sort();
        ext.dedup();
        (
            NetBranch {
                implications,
                end,
                end_parents,
            },
            ext,
        )
    }
}

fn reason_of(why: &Why, on: bool, first: bool) -> Reason {
    match why {
        Why::Assume => Reason::Assumption,
        Why::Peer(_) => Reason::Peer,
        Why::LastInCell => Reason::LastInCell,
        Why::LastInHouse(h) => Reason::LastInHouse(*h),
        Why::Locked { region, other } => Reason::Locked(*region, *other),
        Why::NakedSubset { house, cells, .. } => {
            Reason::NakedSubset(*house, cells.iter().collect())
        }
        Why::HiddenSubset {
            house, digits: d, ..
        } => Reason::HiddenSubset(*house, digits(*d).collect()),
        Why::Fish { lines, .. } => Reason::Fish(lines.clone()),
        Why::Nested(branch, _) => {
            debug_assert!(!on && !first);
            Reason::Nested(branch.clone())
        }
    }
}

impl Recorder for Record {
    const ON: bool = true;
    fn on(&mut self, c: Candidate, why: Why) {
        self.push(c, true, why);
    }
    fn off(&mut self, c: Candidate, why: Why) {
        self.push(c, false, why);
    }
    fn clash(&mut self, clash: Clash) {
        let mut parents = Vec::new();
        let mut ext = Vec::new();
        match clash {
            Clash::EmptyCell(cell) => {
                for d in digits(mask_of(&self.base, cell)) {
                    self.off_parent(Candidate::new(cell, d), &mut parents, &mut ext);
                }
            }
            Clash::NoPlace(d, h) => {
                for cell in self.base[d as usize - 1] & h.cells() {
                    self.off_parent(Candidate::new(cell, d), &mut parents, &mut ext);
                }
            }
            Clash::Both(c) => {
                parents.extend(self.fact_of(c, true));
                parents.extend(self.fact_of(c, false));
            }
        }
        self.clash = Some((clash, parents, ext));
    }
    fn base(&self) -> &[CellSet; 9] {
        &self.base
    }
    fn take_replay(&mut self) -> Option<Vec<Candidate>> {
        self.replay.take()
    }
}

/// Follows `c` (true or false) from `start` at `level` with a record; the record and the
/// state reached (or the contradiction met).
pub(crate) fn record_branch(
    start: &State,
    base: &[CellSet; 9],
    c: Candidate,
    on: bool,
    level: Level,
) -> (Record, Result<State, Clash>) {
    record_branch_with(start, base, c, on, level, &Aids::NONE, None)
}

/// [`record_branch`] with the aids a search built from `start`, and the nested removals of
/// the same branch when a [`Trail`] of it was kept.
pub(crate) fn record_branch_with(
    start: &State,
    base: &[CellSet; 9],
    c: Candidate,
    on: bool,
    level: Level,
    aids: &Aids,
    replay: Option<Vec<Candidate>>,
) -> (Record, Result<State, Clash>) {
    let mut rec = Record::new(start, base);
    rec.replay = replay;
    let mut st = start.clone();
    let r = st.assume_with(c, on, level, &mut rec, aids);
    (rec, r.map(|()| st))
}

/// The proof that assuming `c` (`on`) at `level` from `start` leads to a contradiction, and the
/// external facts it uses.
pub(crate) fn contradiction_proof(
    start: &State,
    base: &[CellSet; 9],
    c: Candidate,
    on: bool,
    level: Level,
) -> (NetBranch, Vec<Candidate>) {
    let (rec, r) = record_branch(start, base, c, on, level);
    debug_assert!(
        r.is_err(),
        "the recorded run must meet the contradiction too"
    );
    rec.proof(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_puzzle;

    const HARD: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn grid() -> Grid {
        parse_puzzle(HARD).expect("valid")
    }

    #[test]
    fn a_true_assumption_never_meets_a_contradiction() {
        let g = grid();
        let sol = crate::solver::solve(&g.given_values()).expect("unique");
        let start = State::of(&g);
        for level in [
            Level::Static,
            Level::Dynamic,
            Level::Plus,
            Level::Nested(&Level::Dynamic),
        ] {
            for cell in g.empty_cells() {
                let c = Candidate::new(cell, sol[cell.index()]);
                let mut st = start.clone();
                assert!(
                    st.assume(c, true, level, &mut NoRecord).is_ok(),
                    "{c} at {level:?}"
                );
                // Everything it made true is the solution.
                for (di, s) in st.on_since(&start).iter().enumerate() {
                    for x in *s {
                        assert_eq!(sol[x.index()], di as u8 + 1);
                    }
                }
            }
        }
    }

    #[test]
    fn recorded_and_fast_runs_agree() {
        let g = grid();
        let start = State::of(&g);
        let base = start.cands;
        for level in [Level::Static, Level::Dynamic, Level::Plus] {
            for di in 0..9 {
                for cell in start.cands[di] {
                    let c = cand(cell, di);
                    for on in [true, false] {
                        let mut fast = start.clone();
                        let f = fast.assume(c, on, level, &mut NoRecord);
                        let (rec, r) = record_branch(&start, &base, c, on, level);
                        assert_eq!(f.is_err(), r.is_err(), "{c} {on} {level:?}");
                        if let Ok(st) = r {
                            assert_eq!(st, fast);
                        } else {
                            let (proof, ext) = rec.proof(None);
                            assert!(ext.is_empty());
                            assert_eq!(proof.assumption(), Some((c, on)));
                            assert!(proof.end != BranchEnd::Conclusion);
                        }
                    }
                }
            }
        }
    }

    /// Every assumption at `level` from the stuck position, with the search's aids and
    /// without, and (for the hidden singles that look only at changed houses) from a start
    /// marked settled and from one whose every house is looked at.
    fn aided_and_plain_runs_agree(level: Level) -> usize {
        let g = crate::technique::forcing::tests::stuck_position(
            crate::technique::forcing::tests::STALLS,
        );
        let settled = State::settled_of(&g);
        let plain = State::of(&g);
        assert_eq!(settled, plain);
        let aids = Aids::for_search(&settled, level);
        let mut contradictions = 0;
        for di in 0..9 {
            for cell in settled.cands[di] {
                let c = cand(cell, di);
                for on in [true, false] {
                    let mut aided = settled.clone();
                    let a = aided.assume_with(c, on, level, &mut NoRecord, &aids);
                    let mut alone = plain.clone().all_dirty();
                    let b = alone.assume(c, on, level, &mut NoRecord);
                    assert_eq!(a.is_err(), b.is_err(), "{c} {on} {level:?}");
                    if a.is_ok() {
                        assert_eq!(aided, alone, "{c} {on} {level:?}");
                    } else {
                        contradictions += 1;
                    }
                }
            }
        }
        contradictions
    }

    #[test]
    fn links_and_changed_houses_change_nothing() {
        // Chains already found what static links would: only the dynamic levels contradict.
        let found: usize = [Level::Static, Level::Dynamic, Level::Plus]
            .into_iter()
            .map(aided_and_plain_runs_agree)
            .sum();
        assert!(found > 0);
    }

    #[test]
    fn footprints_skip_only_what_would_not_contradict() {
        // The nested pass removes the same candidates with the footprint filter or without.
        for level in [
            Level::Nested(&Level::Static),
            Level::Nested(&Level::Dynamic),
        ] {
            let aids = Aids::for_search(&State::of(&grid()), level);
            assert!(aids.footprints.is_some(), "{level:?} has footprints");
            assert!(aided_and_plain_runs_agree(level) > 0, "{level:?}");
        }
    }

    #[test]
    fn a_footprint_is_what_the_inner_assumption_changed() {
        let g = grid();
        let start = State::of(&g);
        let level = Level::Nested(&Level::Dynamic);
        let fp = Footprints::new(&start, level).expect("dynamic inner level");
        let mut seen = 0;
        for di in 0..9 {
            for cell in start.cands[di] {
                let y = cand(cell, di);
                let mut t = start.clone();
                let units = fp.units[index(y)];
                if t.assume(y, true, Level::Dynamic, &mut NoRecord).is_err() {
                    assert_eq!(units, Units::ALL);
                    continue;
                }
                seen += 1;
                // The assumption's own cell and houses are always in its footprint.
                assert!(units.cells.contains(cell));
                assert_eq!(
                    units.houses[di] & CELL_HOUSES[cell.index()],
                    CELL_HOUSES[cell.index()]
                );
                assert_eq!(units, Units::of_change(&start.cands, &t.cands));
            }
        }
        assert!(seen > 0);
        // No footprints where the inner level is not local.
        assert!(Footprints::new(&start, Level::Nested(&Level::Plus)).is_none());
        assert!(Footprints::new(&start, Level::Dynamic).is_none());
    }

    #[test]
    fn links_are_bivalue_cells_and_conjugate_pairs() {
        let g = grid();
        let st = State::of(&g);
        let links = Links::of(&st);
        for di in 0..9 {
            for cell in st.cands[di] {
                let c = cand(cell, di);
                let mut expect = Vec::new();
                let mask = st.mask(cell);
                if mask.count_ones() == 2 {
                    let other = (mask & !(1 << di)).trailing_zeros() as usize;
                    expect.push((index(cand(cell, other)) as u16, CELL_LINK));
                }
                for h in cell.houses() {
                    let rest = st.cands[di] & h.cells();
                    if rest.len() == 2 {
                        let other = (rest - CellSet::single(cell)).first().expect("two");
                        expect.push((index(cand(other, di)) as u16, h.index() as u8));
                    }
                }
                assert_eq!(links.from(index(c)), &expect[..], "{c}");
            }
        }
    }

    #[test]
    fn proofs_only_use_earlier_facts() {
        let g = crate::technique::forcing::tests::stuck_position(
            crate::technique::forcing::tests::STALLS,
        );
        let start = State::of(&g);
        let sol = crate::solver::solve(&g.given_values()).expect("unique");
        let mut seen = 0;
        for cell in g.empty_cells() {
            for d in digits(g.candidates(cell)) {
                if d == sol[cell.index()] {
                    continue;
                }
                let c = Candidate::new(cell, d);
                let (rec, r) = record_branch(&start, &start.cands, c, true, Level::Dynamic);
                if r.is_ok() {
                    continue;
                }
                seen += 1;
                let (proof, _) = rec.proof(None);
                for (i, imp) in proof.implications.iter().enumerate() {
                    assert!(imp.parents.iter().all(|&p| (p as usize) < i));
                    if imp.reason == Reason::Peer {
                        assert_eq!(imp.parents.len(), 1, "{imp:?}");
                    }
                }
                assert!(!proof.end_parents.is_empty());
            }
        }
        assert!(seen > 0);
    }
}

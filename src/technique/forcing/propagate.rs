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
    /// `c` became true.
    fn on(&mut self, c: Candidate, why: Why);
    /// `c` became false.
    fn off(&mut self, c: Candidate, why: Why);
    /// The propagation met `clash`.
    fn clash(&mut self, clash: Clash);
    /// The candidates that count as given for parents (see [`Record`]).
    fn base(&self) -> &[CellSet; 9];
}

/// Records nothing: the search's fast path.
pub(crate) struct NoRecord;

impl Recorder for NoRecord {
    const ON: bool = false;
    #[inline(always)]
    fn on(&mut self, _: Candidate, _: Why) {}
    #[inline(always)]
    fn off(&mut self, _: Candidate, _: Why) {}
    #[inline(always)]
    fn clash(&mut self, _: Clash) {}
    fn base(&self) -> &[CellSet; 9] {
        unreachable!("NoRecord has no base")
    }
}

/// A hypothetical candidate state: what is still possible and what is known true.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct State {
    /// Candidates still possible, per digit (cells with a value have none).
    pub cands: [CellSet; 9],
    /// Cells known to hold each digit (the grid's values and placements made since).
    pub placed: [CellSet; 9],
    /// Cells without a value.
    pub open: CellSet,
}

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
        }
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
        for e in 0..9 {
            if e != di && self.cands[e].contains(cell) {
                self.cands[e].remove(cell);
                if R::ON {
                    rec.off(cand(cell, e), Why::Peer(c));
                }
            }
        }
        let gone = self.cands[di] & cell.peers();
        self.cands[di] -= gone;
        self.cands[di].remove(cell);
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
        if level == Level::Static {
            return self.assume_static(c, on, rec);
        }
        if on {
            self.place(c, Why::Assume, rec);
        } else {
            self.remove(c, Why::Assume, rec);
        }
        self.propagate(level, rec)
    }

    /// Applies the rules of `level` until nothing changes or a contradiction is met.
    pub fn propagate<R: Recorder>(&mut self, level: Level, rec: &mut R) -> Result<(), Clash> {
        match level {
            Level::Static => Ok(()),
            Level::Dynamic => self.settle(false, rec),
            Level::Plus => self.settle(true, rec),
            Level::Nested(inner) => {
                self.settle(true, rec)?;
                self.nested(*inner, rec)
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
        for di in 0..9 {
            let b = self.cands[di];
            let p = self.placed[di];
            for (h, &hc) in HOUSE_CELLS.iter().enumerate() {
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
    fn locked<R: Recorder>(&mut self, rec: &mut R) -> bool {
        let mut changed = false;
        for di in 0..9 {
            let p = self.placed[di];
            for bx in 0..9usize {
                let bh = 18 + bx;
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
    fn subsets<R: Recorder>(&mut self, rec: &mut R) -> bool {
        for (h, &hc) in HOUSE_CELLS.iter().enumerate() {
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
    fn fish<R: Recorder>(&mut self, rec: &mut R) -> bool {
        for di in 0..9 {
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

    /// Removes every candidate whose assumption leads to a contradiction at `inner`, settling
    /// (with Plus) after each, until a whole pass removes nothing.
    fn nested<R: Recorder>(&mut self, inner: Level, rec: &mut R) -> Result<(), Clash> {
        loop {
            let mut removed = false;
            for di in 0..9 {
                for cell in self.cands[di] {
                    let y = cand(cell, di);
                    if !self.has(y) {
                        continue;
                    }
                    let mut t = self.clone();
                    if t.assume(y, true, inner, &mut NoRecord).is_ok() {
                        continue;
                    }
                    let why = if R::ON {
                        let (branch, ext) = contradiction_proof(self, rec.base(), y, true, inner);
                        Why::Nested(Box::new(branch), ext)
                    } else {
                        Why::Assume
                    };
                    self.remove(y, why, rec);
                    removed = true;
                    self.settle(true, rec)?;
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
    ) -> Result<(), Clash> {
        let start = &*self;
        let mut is_on = [CellSet::EMPTY; 9];
        let mut is_off = [CellSet::EMPTY; 9];
        let mut queue = [(Candidate::new(Cell::new(0), 1), false); 1458];
        let (mut head, mut tail) = (0usize, 1usize);
        queue[0] = (c, on);
        if on {
            is_on[c.digit as usize - 1].insert(c.cell);
            rec_on(rec, c, Why::Assume);
        } else {
            is_off[c.digit as usize - 1].insert(c.cell);
            rec_off(rec, c, Why::Assume);
        }
        let mut result = Ok(());
        'walk: while head < tail {
            let (x, x_on) = queue[head];
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
                        queue[tail] = (y, false);
                        tail += 1;
                    }
                }
            } else {
                // The other end of a bivalue cell or conjugate pair is true.
                let mask = start.mask(x.cell) & !digit_bit(x.digit);
                let mut strong: [(Candidate, Option<House>); 4] = [(x, None); 4];
                let mut n = 0;
                if mask.count_ones() == 1 {
                    let d = mask.trailing_zeros() as usize;
                    strong[n] = (cand(x.cell, d), None);
                    n += 1;
                }
                for h in x.cell.houses() {
                    let rest = start.cands[xd] & h.cells();
                    if rest.len() == 2 && !start.placed[xd].intersects(h.cells()) {
                        let other = (rest - CellSet::single(x.cell)).first().expect("two");
                        strong[n] = (cand(other, xd), Some(h));
                        n += 1;
                    }
                }
                for &(y, h) in &strong[..n] {
                    let yd = y.digit as usize - 1;
                    if is_on[yd].contains(y.cell) {
                        continue;
                    }
                    is_on[yd].insert(y.cell);
                    let why = match h {
                        None => Why::LastInCell,
                        Some(h) => Why::LastInHouse(h),
                    };
                    rec_on(rec, y, why);
                    if is_off[yd].contains(y.cell) {
                        result = Err(Clash::Both(y));
                        break 'walk;
                    }
                    queue[tail] = (y, true);
                    tail += 1;
                }
            }
        }
        if let Err(clash) = result {
            return Err(self.clash(clash, rec));
        }
        for di in 0..9 {
            self.cands[di] -= is_off[di] | is_on[di];
            self.placed[di] |= is_on[di];
            self.open -= is_on[di];
        }
        Ok(())
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
    let mut rec = Record::new(start, base);
    let mut st = start.clone();
    let r = st.assume(c, on, level, &mut rec);
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

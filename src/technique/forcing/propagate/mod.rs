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
use crate::geometry::{ALL_HOUSES, CELL_HOUSES, HOUSES as HOUSE_CELLS};
use crate::geometry::{Cell, DigitMask, House, digit_bit, digits};
use crate::grid::{Candidate, Grid};
use crate::net::{BranchEnd, Implication, NetBranch, Reason};

mod aids;
mod record;
mod state;
#[cfg(test)]
mod tests;

pub(crate) use record::{contradiction_proof, record_branch, record_branch_with};

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

/// What a search builds once for the many assumptions it follows from its start state.
#[derive(Default)]
pub(crate) struct Aids {
    /// The start's strong links, for static walks from the start.
    links: Option<Links>,
    /// The inner assumptions' footprints, for a nested level.
    footprints: Option<Footprints>,
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

/// Records nothing: the search's fast path.
pub(crate) struct NoRecord;

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

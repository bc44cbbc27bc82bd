//! The propagation engine of the forcing techniques: follows one assumption on a copy of the
//! candidate state, at a chosen [`Level`], and (when asked) records why each implication holds.
//!
//! One code path serves both uses. The search runs it with `NoRecord`, whose hooks compile
//! to nothing, so a hypothesis costs a few hundred 128-bit operations per round; once a
//! conclusion is found, the same propagation is run again with a `Record` to rebuild the
//! proof. Propagation to a fixpoint is confluent (every rule only ever removes candidates, and
//! a rule that holds keeps holding when more are removed), so both runs reach the same state or
//! both meet a contradiction.

use crate::model::cell::{Cell, House, digit_mask, digits};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Geometry, S9, Shape};
use crate::step::net::{BranchEnd, Implication, NetBranch, Reason};

mod aids;
mod closure;
use closure::StaticClosure;
mod record;
mod state;
#[cfg(test)]
mod tests;

pub(crate) use record::{
    contradiction_proof, record_branch, record_branch_with, sketch_branch_with,
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

/// A candidate state of shape `S`: per digit, the cells where it is (still) possible.
pub(crate) type Cands<S> = <S as Shape>::PerDigit<CellSet<S>>;

/// The units (cells, and houses per digit) a set of changed candidates touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Units<S: Shape> {
    cells: CellSet<S>,
    /// Per digit, the houses (bit `h` for house index `h`) holding a changed candidate.
    houses: S::PerDigit<S::Houses>,
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
pub(crate) struct Footprints<S: Shape> {
    inner: Level,
    start: Cands<S>,
    /// Per candidate index, the units its inner assumption changed (all for a contradiction).
    units: Vec<Units<S>>,
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
pub(crate) struct Aids<S: Shape> {
    /// The start's strong links, for static walks from the start.
    links: Option<Links>,
    /// Where every static walk from the start leads, for walks that record nothing.
    closure: Option<StaticClosure<S>>,
    /// The inner assumptions' footprints, for a nested level.
    footprints: Option<Footprints<S>>,
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
pub(crate) enum Why<S: Shape> {
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
        cells: CellSet<S>,
        digits: S::Mask,
    },
    /// False: these digits of the house lie only in these cells.
    HiddenSubset {
        house: House,
        cells: CellSet<S>,
        digits: S::Mask,
    },
    /// False: a fish whose base lines are `base` (cells), covered by `cover` (cells).
    Fish {
        base: CellSet<S>,
        cover: CellSet<S>,
        lines: Vec<House>,
    },
    /// False: its assumption leads to a contradiction one level down; `ext` are the
    /// candidates removed at this level that the inner proof uses.
    Nested(Box<NetBranch>, Vec<Candidate>),
}

/// Receives every implication as the engine makes it.
pub(crate) trait Recorder<S: Shape> {
    /// Whether anything is recorded (the hooks are skipped otherwise).
    const ON: bool;
    /// `c` became true (recorders that keep no proof ignore it).
    #[inline(always)]
    fn on(&mut self, _c: Candidate, _why: Why<S>) {}
    /// `c` became false.
    #[inline(always)]
    fn off(&mut self, _c: Candidate, _why: Why<S>) {}
    /// The propagation met `clash`.
    #[inline(always)]
    fn clash(&mut self, _clash: Clash) {}
    /// The candidates that count as given for parents (see [`Record`]); only asked of
    /// recorders with `ON` set.
    fn base(&self) -> &Cands<S> {
        unreachable!("only a recorder with ON set has a base")
    }
    /// A nested pass removed `y` (its assumption leads to a contradiction one level down).
    #[inline(always)]
    fn nested_removal(&mut self, _y: Candidate) {}
    /// Whether a nested removal's proof is left out (see [`Record::sketch`]).
    #[inline(always)]
    fn sketching(&self) -> bool {
        false
    }
    /// The fewest implications the proof of the nested removal just recorded can have (only
    /// told to a sketching recorder).
    #[inline(always)]
    fn inner_floor(&mut self, _floor: usize) {}
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

/// A hypothetical candidate state of a board of shape `S`: what is still possible and what is
/// known true.
#[derive(Clone, Debug)]
pub(crate) struct State<S: Shape = S9> {
    /// The board's houses and peers.
    geo: &'static Geometry<S>,
    /// Candidates still possible, per digit (cells with a value have none).
    pub cands: Cands<S>,
    /// Cells known to hold each digit (the grid's values and placements made since).
    pub placed: Cands<S>,
    /// Cells without a value.
    pub open: CellSet<S>,
    /// Per digit, the houses (as a mask of house indices) whose places for it changed since
    /// the last round of hidden singles looked at them: the next round looks only there.
    dirty: S::PerDigit<S::Houses>,
    /// The same, for locked candidates (a box or line whose places for the digit changed
    /// since locked candidates last looked at it without finding anything).
    locked_dirty: S::PerDigit<S::Houses>,
    /// The houses with a change (any digit) since subsets last looked at them.
    subsets_dirty: S::Houses,
    /// The digits with a change since fish last looked at them.
    fish_dirty: S::Mask,
    /// Rounds of singles looked for since this state was made from a grid (a bound on how
    /// short a dynamic branch's proof can be: [`State::dynamic_proof_floor`]).
    rounds: u32,
}

/// Two states are equal when they have the same candidates and values (the houses still to
/// look at are bookkeeping).
impl<S: Shape> PartialEq for State<S> {
    fn eq(&self, other: &State<S>) -> bool {
        self.cands.as_ref() == other.cands.as_ref()
            && self.placed.as_ref() == other.placed.as_ref()
            && self.open == other.open
    }
}

impl<S: Shape> Eq for State<S> {}

/// The candidate of `cell` and digit index `di` (0-based).
#[inline]
fn cand(cell: Cell, di: usize) -> Candidate {
    Candidate::new(cell, di as u8 + 1)
}

#[inline]
fn rec_on<S: Shape, R: Recorder<S>>(rec: &mut R, c: Candidate, why: Why<S>) {
    if R::ON {
        rec.on(c, why);
    }
}

#[inline]
fn rec_off<S: Shape, R: Recorder<S>>(rec: &mut R, c: Candidate, why: Why<S>) {
    if R::ON {
        rec.off(c, why);
    }
}

/// A static walk's queue entry: the candidate's index and its truth (below 2 * 25 * 625, so a
/// `u16` on every size).
#[inline]
fn entry<S: Shape>(c: Candidate, on: bool) -> u16 {
    (index::<S>(c) * 2 + on as usize) as u16
}

#[inline]
fn unentry<S: Shape>(e: u16) -> (Candidate, bool) {
    (candidate_at::<S>((e >> 1) as usize), e & 1 != 0)
}

/// House `h` of a board of shape `S`.
#[inline]
fn house<S: Shape>(h: usize) -> House {
    House::from_index_in(h, S::N)
}

/// Every house of shape `S`, as a house mask.
#[inline]
fn all_houses<S: Shape>() -> S::Houses {
    S::Houses::low(3 * S::N)
}

fn mask_of<S: Shape>(cands: &Cands<S>, cell: Cell) -> S::Mask {
    let mut m = S::Mask::ZERO;
    for (di, s) in cands.as_ref().iter().enumerate() {
        if s.contains(cell) {
            m.set(di);
        }
    }
    m
}

/// The cells of `list` (a house's cells, as bit indices) at `positions`.
fn cells_of<S: Shape>(list: &[u16], positions: S::Mask) -> CellSet<S> {
    positions
        .ones()
        .map(|i| S::cell(list[i] as usize))
        .collect()
}

/// The first `k` entries of `masks` (each with 2..=k bits) whose union has exactly `k` bits:
/// (the entries as a set of positions, the union). `k` is 2 or 3.
fn combination<M: Bits>(masks: &[M], k: u32) -> Option<(M, M)> {
    // the members that may take part (2 to k bits), in order: the same first subset as
    // trying every member
    debug_assert!(masks.len() <= 64, "a house of at most 64 places");
    let mut at = [0u8; 64];
    let mut n = 0;
    // written whether it counts or not: no branch to mispredict
    for (i, m) in masks.iter().take(64).enumerate() {
        at[n] = i as u8;
        n += usize::from((2..=k).contains(&m.count()));
    }
    let at = &at[..n];
    for (x, &a) in at.iter().enumerate() {
        let a = usize::from(a);
        for (y, &b) in at.iter().enumerate().skip(x + 1) {
            let b = usize::from(b);
            let ab = masks[a].or(masks[b]);
            if k == 2 {
                if ab.count() == 2 {
                    return Some((M::bit(a).or(M::bit(b)), ab));
                }
                continue;
            }
            if ab.count() > 3 {
                continue;
            }
            for &c in &at[y + 1..] {
                let c = usize::from(c);
                if ab.or(masks[c]).count() == 3 {
                    return Some((M::bit(a).or(M::bit(b)).or(M::bit(c)), ab.or(masks[c])));
                }
            }
        }
    }
    None
}

/// What happened to one candidate in a [`Record`].
struct Fact<S: Shape> {
    cand: Candidate,
    on: bool,
    why: Why<S>,
    /// Its parents: a range of [`Record`]'s `parents` (one list for every fact, not a
    /// vector each).
    parents: std::ops::Range<u32>,
    /// Its external facts: a range of [`Record`]'s `ext`.
    ext: std::ops::Range<u32>,
}

/// Records every implication of one branch with its parents, so the proof of a conclusion or
/// a contradiction can be rebuilt.
///
/// `base` holds the candidates that count as given: at the top level the position's own, one
/// level down the outer level's. A parent removed before this branch started (in `base`, not
/// in `start`) is an external fact, which the outer level links to its own implications.
pub(crate) struct Record<S: Shape = S9> {
    geo: &'static Geometry<S>,
    base: Cands<S>,
    start: Cands<S>,
    on_at: Vec<u32>,
    off_at: Vec<u32>,
    facts: Vec<Fact<S>>,
    /// The parents of every fact, each fact's in a range of its own.
    parents: Vec<u32>,
    /// The external facts of every fact, each fact's in a range of its own.
    ext: Vec<Candidate>,
    clash: Option<(Clash, Vec<u32>, Vec<Candidate>)>,
    /// The nested removals to replay (from a [`Trail`] of the same branch).
    replay: Option<Vec<Candidate>>,
    /// A sketch ([`Record::sketch`]): nested removals are facts without a proof, and
    /// `inner_floors` holds, per such fact, the fewest implications its proof can have.
    sketch: bool,
    inner_floors: Vec<(u32, u32)>,
}

/// How many candidates a board of shape `S` has: `n` digits in `n * n` cells.
#[inline]
pub(crate) const fn candidates<S: Shape>() -> usize {
    S::N * S::CELLS
}

/// The index of `c` among the candidates of shape `S` (digit-major, as in
/// [`crate::model::candset::CandSet`]).
#[inline]
pub(crate) fn index<S: Shape>(c: Candidate) -> usize {
    (c.digit as usize - 1) * S::CELLS + S::bit_of(c.cell)
}

/// The candidate of index `i` (see [`index`]).
#[inline]
pub(crate) fn candidate_at<S: Shape>(i: usize) -> Candidate {
    cand(S::cell(i % S::CELLS), i / S::CELLS)
}

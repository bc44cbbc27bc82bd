//! [`Board`]: values and candidates of a board of any shape, with the counts that make singles
//! cheap to find: for every house and digit, the places left for the digit in the house.
//!
//! ```text
//!  values[cell]      0 or the digit (1..=n)
//!  cands[cell]       digit mask: bit d-1 while d may still go in the cell
//!  places[h][d-1]    place mask: bit i while d may still go in the i-th cell of house h
//!  done[h]           digit mask: the digits placed in house h
//! ```
//!
//! Every change keeps the four in step. A change that leaves a cell without a candidate, or a
//! digit without a place in a house that lacks it, reports a contradiction; one that leaves a
//! single candidate or a single place queues that placement (the brute force's propagation).

use crate::model::{Bits, Geometry, Shape};

/// A placement waiting to be made: a cell and its digit.
pub(crate) type Pending = (u16, u8);

/// How a single was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SingleKind {
    /// The last empty cell of the house.
    FullHouse(usize),
    /// The digit's last place in the house.
    Hidden(usize),
    /// The cell's last candidate.
    Naked,
}

/// A choice between placements: a cell's candidates, or a digit's places in a house.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// The candidates of the cell.
    Cell(usize),
    /// The places of the digit in the house.
    Place(usize, u8),
}

/// A single: the cell, the digit and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Single {
    /// The cell.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// Why it is the only choice.
    pub kind: SingleKind,
}

/// The look-ahead's record of trials ([`Board::look_ahead`]), kept by the search between
/// calls so that no call allocates: for each placement (`cell * n + digit - 1`), the
/// candidates its trial left, or that it failed. An entry counts only when stamped with the current
/// epoch, so forgetting every trial (the board changed) is one increment.
#[derive(Default)]
pub(crate) struct LookAhead {
    /// `epoch << 16 | result`: `FAILED`, or the candidates the trial left.
    tried: Vec<u32>,
    epoch: u32,
}

impl LookAhead {
    const FAILED: u32 = 0xFFFF;

    /// Ready for `slots` placements, none tried.
    fn start(&mut self, slots: usize) {
        if self.tried.len() != slots {
            self.tried.clear();
            self.tried.resize(slots, 0);
            self.epoch = 0;
        }
        self.forget();
    }

    /// Every trial forgotten.
    fn forget(&mut self) {
        self.epoch += 1;
        if self.epoch > 0xFFFF {
            self.tried.fill(0);
            self.epoch = 1;
        }
    }

    /// The trial of `slot`: `None` when untried, `Some(None)` when it failed, else the
    /// candidates it left.
    #[inline]
    fn get(&self, slot: usize) -> Option<Option<usize>> {
        let e = self.tried[slot];
        (e >> 16 == self.epoch).then_some(match e & 0xFFFF {
            Self::FAILED => None,
            left => Some(left as usize),
        })
    }

    /// Records the trial of `slot`: `None` when it failed.
    #[inline]
    fn set(&mut self, slot: usize, left: Option<usize>) {
        debug_assert!(left.is_none_or(|v| v < Self::FAILED as usize));
        let result = left.map_or(Self::FAILED, |v| v as u32);
        self.tried[slot] = self.epoch << 16 | result;
    }
}

/// A mask seen as none, one (which) or more positions.
enum Lone {
    None,
    One(usize),
    More,
}

/// Whether `m` holds no position, one or more: what propagation asks after each change, told
/// without a popcount (the baseline x86-64 target has no such instruction, and counting bit by
/// bit cost a third of the time spent taking a place away).
#[inline]
fn lone<B: Bits>(m: B) -> Lone {
    match m.first() {
        None => Lone::None,
        Some(i) if m.and_not(B::bit(i)) == B::ZERO => Lone::One(i),
        Some(_) => Lone::More,
    }
}

/// The state of a board of shape `S` (see the module's table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Board<S: Shape> {
    pub geo: &'static Geometry<S>,
    values: S::PerCell<u8>,
    cands: S::PerCell<S::Mask>,
    places: S::PerHouse<S::PerDigit<S::Mask>>,
    done: S::PerHouse<S::Mask>,
    empty: usize,
    /// How many candidates the empty cells hold in all: what the look-ahead scores a trial by.
    left: usize,
    /// The cells whose candidates changed since it was last cleared: what a trial of the
    /// look-ahead touched ([`Board::keep_either`] looks at no other cell).
    changed: S::Cells,
}

impl<S: Shape> Board<S> {
    /// The empty board: every candidate everywhere.
    pub fn empty(geo: &'static Geometry<S>) -> Board<S> {
        let all = S::Mask::low(S::N);
        Board {
            geo,
            values: S::per_cell(0),
            cands: S::per_cell(all),
            places: S::per_house(S::per_digit(all)),
            done: S::per_house(S::Mask::ZERO),
            empty: S::CELLS,
            left: S::CELLS * S::N,
            changed: S::Cells::ZERO,
        }
    }

    /// The board of `values` (0 empty, else 1..=n; one per cell), the singles they leave
    /// pushed on `pending`, not yet followed: `None` when the values clash or leave a cell or a
    /// digit of a house with no place.
    pub fn from_values(
        geo: &'static Geometry<S>,
        values: &[u8],
        pending: &mut Vec<Pending>,
    ) -> Option<Board<S>> {
        let mut board = Board::empty(geo);
        for (cell, &v) in values.iter().enumerate().take(S::CELLS) {
            if v != 0 && !board.place(cell, v, pending) {
                return None;
            }
        }
        Some(board)
    }

    /// The value of `cell` (0 when empty).
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.values.as_ref()[cell]
    }

    /// All values, row by row.
    pub fn values(&self) -> &[u8] {
        self.values.as_ref()
    }

    /// The candidates of `cell` (bit `d - 1` for digit `d`).
    #[inline]
    pub fn candidates(&self, cell: usize) -> S::Mask {
        self.cands.as_ref()[cell]
    }

    /// How many cells are empty.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empty
    }

    /// The places left for `digit` in house `h` (bit `i` for the house's i-th cell).
    #[inline]
    pub fn places(&self, h: usize, digit: u8) -> S::Mask {
        self.places.as_ref()[h].as_ref()[digit as usize - 1]
    }

    /// Whether `digit` is placed in house `h`.
    #[inline]
    pub fn is_done(&self, h: usize, digit: u8) -> bool {
        self.done.as_ref()[h].has(digit as usize - 1)
    }

    /// Places `digit` in the empty `cell`, whose candidate it must be: its other candidates
    /// and its peers' `digit` go. Singles this leaves are pushed on `pending`; returns `false`
    /// on a contradiction (the board is then not to be used).
    ///
    /// The peers that lose `digit` are found through the digit's places in the cell's three
    /// houses, so only the peers that still hold it are visited.
    pub fn place(&mut self, cell: usize, digit: u8, pending: &mut Vec<Pending>) -> bool {
        let d = digit as usize - 1;
        let mask = self.cands.as_ref()[cell];
        if self.values.as_ref()[cell] != 0 || !mask.has(d) {
            return false;
        }
        let geo = self.geo;
        let houses = geo.cell_houses.as_ref()[cell];
        let spots = geo.cell_places.as_ref()[cell];
        self.values.as_mut()[cell] = digit;
        self.cands.as_mut()[cell] = S::Mask::ZERO;
        self.changed.set(cell);
        self.empty -= 1;
        self.left -= mask.count() as usize;
        // The other places of `digit` in each house: the peers that lose it.
        let mut rivals = [S::Mask::ZERO; 3];
        for k in 0..3 {
            let h = houses[k] as usize;
            self.done.as_mut()[h].set(d);
            let places = &mut self.places.as_mut()[h].as_mut()[d];
            rivals[k] = places.and_not(S::Mask::bit(spots[k] as usize));
            *places = S::Mask::ZERO;
        }
        // The cell's other candidates lose their place in its houses.
        for e in mask.and_not(S::Mask::bit(d)).ones() {
            for k in 0..3 {
                if !self.lose_place(houses[k] as usize, e, spots[k] as usize, pending) {
                    return false;
                }
            }
        }
        for k in 0..3 {
            let cells = geo.cells_of(houses[k] as usize);
            for i in rivals[k].ones() {
                let p = cells[i] as usize;
                // a peer in two of the houses is seen twice: only the first takes `digit` out
                if self.cands.as_ref()[p].has(d) && !self.eliminate(p, digit, pending) {
                    return false;
                }
            }
        }
        debug_assert!(
            geo.peers_of(cell)
                .iter()
                .all(|&p| !self.cands.as_ref()[p as usize].has(d)),
            "a peer kept the digit placed"
        );
        true
    }

    /// Takes candidate `digit` out of `cell` (which must hold it): `false` on a contradiction.
    pub fn eliminate(&mut self, cell: usize, digit: u8, pending: &mut Vec<Pending>) -> bool {
        let d = digit as usize - 1;
        self.changed.set(cell);
        self.left -= 1;
        let cands = &mut self.cands.as_mut()[cell];
        cands.clear(d);
        match lone(*cands) {
            Lone::None => return false,
            Lone::One(only) => pending.push((cell as u16, only as u8 + 1)),
            Lone::More => {}
        }
        let geo = self.geo;
        let houses = geo.cell_houses.as_ref()[cell];
        let spots = geo.cell_places.as_ref()[cell];
        for k in 0..3 {
            if !self.lose_place(houses[k] as usize, d, spots[k] as usize, pending) {
                return false;
            }
        }
        true
    }

    /// Digit `d + 1` can no longer go in the `spot`-th cell of house `h`.
    #[inline(always)]
    fn lose_place(&mut self, h: usize, d: usize, spot: usize, pending: &mut Vec<Pending>) -> bool {
        if self.done.as_ref()[h].has(d) {
            return true;
        }
        let places = &mut self.places.as_mut()[h].as_mut()[d];
        places.clear(spot);
        match lone(*places) {
            Lone::None => false,
            Lone::One(i) => {
                pending.push((self.geo.cells_of(h)[i], d as u8 + 1));
                true
            }
            Lone::More => true,
        }
    }

    /// Makes the pending placements and those they lead to: `false` on a contradiction.
    pub fn propagate(&mut self, pending: &mut Vec<Pending>) -> bool {
        while let Some((cell, digit)) = pending.pop() {
            let cell = cell as usize;
            match self.values.as_ref()[cell] {
                v if v == digit => continue,
                0 => {
                    if !self.place(cell, digit, pending) {
                        pending.clear();
                        return false;
                    }
                }
                _ => {
                    pending.clear();
                    return false;
                }
            }
        }
        true
    }

    /// Looks ahead on every binary choice: a cell with two candidates, a digit with two places
    /// in a house. Each option is made on a copy of the board and its singles followed; one
    /// that ends in a contradiction is taken out (so the other is made), and when both hold,
    /// what neither leaves possible is taken out too ([`Board::keep_either`]). Passes repeat
    /// until one changes nothing. Returns `None` on a contradiction, else the choice whose two
    /// trials took the most candidates away (the product of their counts) in that last pass: the
    /// best one to guess on (the product of the cells they placed, the first measure, took
    /// three times as long on tarek's tough 16x16 puzzles).
    ///
    /// A placement is an option of up to four choices (its cell, its three houses), so its
    /// trial is kept until the board changes; a choice whose two trials are both kept ones is
    /// not compared again (its boards are gone), which the pass's other choices make up for.
    /// The choices are read from the board as the pass reaches them, so one that became
    /// binary earlier in the pass is looked at in this pass.
    ///
    /// `scratch` is space the caller keeps between calls.
    pub fn look_ahead(
        &mut self,
        pending: &mut Vec<Pending>,
        scratch: &mut LookAhead,
    ) -> Option<Option<Choice>> {
        let n = S::N;
        scratch.start(S::CELLS * n);
        let mut trials = [*self, *self];
        loop {
            let mut best = (0usize, None);
            let mut changed = false;
            for index in 0..S::CELLS + 3 * n * n {
                let choice = if index < S::CELLS {
                    Choice::Cell(index)
                } else {
                    let (h, d) = ((index - S::CELLS) / n, (index - S::CELLS) % n);
                    Choice::Place(h, d as u8 + 1)
                };
                let Some(options) = self.binary(choice) else {
                    continue;
                };
                let slot = |(cell, d): (usize, u8)| cell * n + d as usize - 1;
                let slots = [slot(options[0]), slot(options[1])];
                let mut fresh = [false, false];
                let mut failed = None;
                for (k, &(cell, d)) in options.iter().enumerate() {
                    if scratch.get(slots[k]).is_none() {
                        let trial = &mut trials[k];
                        *trial = *self;
                        trial.changed = S::Cells::ZERO;
                        let ok = trial.place(cell, d, pending) && trial.propagate(pending);
                        pending.clear();
                        scratch.set(slots[k], ok.then_some(trial.left));
                        fresh[k] = true;
                    }
                    if scratch.get(slots[k]) == Some(None) {
                        failed = Some((cell, d));
                        break;
                    }
                }
                let progress = match failed {
                    Some((cell, d)) => self.eliminate(cell, d, pending).then_some(true),
                    None if fresh == [true, true] => {
                        self.keep_either(&trials[0], &trials[1], pending)
                    }
                    None => Some(false),
                };
                match progress {
                    None => {
                        pending.clear();
                        return None;
                    }
                    Some(true) => {
                        if !self.propagate(pending) {
                            return None;
                        }
                        if self.empty == 0 {
                            return Some(None);
                        }
                        scratch.forget();
                        changed = true;
                    }
                    Some(false) => {
                        let placed = |k: usize| {
                            self.left - scratch.get(slots[k]).flatten().unwrap_or(self.left)
                        };
                        let score = placed(0) * placed(1);
                        if score > best.0 {
                            best = (score, Some(choice));
                        }
                    }
                }
            }
            if !changed {
                return Some(best.1);
            }
        }
    }

    /// The two placements of `choice` when it is binary: a cell with two candidates, or a
    /// digit with two places in a house.
    #[inline]
    fn binary(&self, choice: Choice) -> Option<[(usize, u8); 2]> {
        let mask = match choice {
            Choice::Cell(cell) => self.cands.as_ref()[cell],
            Choice::Place(h, d) => self.places(h, d),
        };
        let first = mask.first()?;
        let rest = mask.and_not(S::Mask::bit(first));
        let second = rest.first()?;
        if rest.and_not(S::Mask::bit(second)) != S::Mask::ZERO {
            return None;
        }
        Some(match choice {
            Choice::Cell(cell) => [(cell, first as u8 + 1), (cell, second as u8 + 1)],
            Choice::Place(h, d) => {
                let cells = self.geo.cells_of(h);
                [(cells[first] as usize, d), (cells[second] as usize, d)]
            }
        })
    }

    /// Takes out of every empty cell the candidates that neither `a` nor `b` leaves possible,
    /// where `a` and `b` are this board with one side each of a choice made and followed, their
    /// `changed` cleared before: whichever side holds, those candidates go. Only a cell both
    /// changed can lose one. Returns `None` on a contradiction, else whether a candidate went;
    /// the singles this leaves are pushed on `pending`.
    fn keep_either(
        &mut self,
        a: &Board<S>,
        b: &Board<S>,
        pending: &mut Vec<Pending>,
    ) -> Option<bool> {
        let mut changed = false;
        // the cells both changed: a's without those b left alone
        let both = a.changed.and_not(a.changed.and_not(b.changed));
        for cell in both.ones() {
            if self.values.as_ref()[cell] != 0 {
                continue;
            }
            let keep = a.possible(cell).or(b.possible(cell));
            for d in self.cands.as_ref()[cell].and_not(keep).ones() {
                changed = true;
                if !self.eliminate(cell, d as u8 + 1, pending) {
                    return None;
                }
            }
        }
        Some(changed)
    }

    /// The digits `cell` may hold: its value alone, or its candidates when empty.
    #[inline]
    fn possible(&self, cell: usize) -> S::Mask {
        match self.values.as_ref()[cell] {
            0 => self.cands.as_ref()[cell],
            v => S::Mask::bit(v as usize - 1),
        }
    }

    /// The placements a choice is between, written into `out` (at least `n` long): how many.
    pub fn options(&self, choice: Choice, out: &mut [(usize, u8)]) -> usize {
        let mut k = 0;
        let mut put = |o| {
            out[k] = o;
            k += 1;
        };
        match choice {
            Choice::Cell(cell) => self
                .candidates(cell)
                .ones()
                .for_each(|d| put((cell, d as u8 + 1))),
            Choice::Place(h, d) => {
                let cells = self.geo.cells_of(h);
                self.places(h, d)
                    .ones()
                    .for_each(|i| put((cells[i] as usize, d)));
            }
        }
        k
    }

    /// The first single a solver by hand would see: a full house, then a hidden single (boxes
    /// first, then rows, then columns), then a naked single.
    pub fn next_single(&self) -> Option<Single> {
        let n = S::N;
        let order = (2 * n..3 * n).chain(0..2 * n);
        for h in order.clone() {
            let free = S::Mask::low(n).and_not(self.done.as_ref()[h]);
            if free.count() == 1 {
                let d = free.first()? as u8 + 1;
                let i = self.places(h, d).first()?;
                let cell = self.geo.cells_of(h)[i] as usize;
                return Some(Single {
                    cell,
                    digit: d,
                    kind: SingleKind::FullHouse(h),
                });
            }
        }
        for h in order {
            for d in 1..=n as u8 {
                let places = self.places(h, d);
                if !self.is_done(h, d) && places.count() == 1 {
                    let cell = self.geo.cells_of(h)[places.first()?] as usize;
                    return Some(Single {
                        cell,
                        digit: d,
                        kind: SingleKind::Hidden(h),
                    });
                }
            }
        }
        (0..S::CELLS).find_map(|cell| {
            let m = self.candidates(cell);
            (m.count() == 1).then(|| Single {
                cell,
                digit: m.first().unwrap_or(0) as u8 + 1,
                kind: SingleKind::Naked,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Layout, S4, S9, S16};

    #[test]
    fn placing_keeps_places_and_candidates_in_step() {
        let geo = S9::geometry(Layout::NINE);
        let mut b = Board::<S9>::empty(geo);
        let mut pending = Vec::new();
        assert!(b.place(0, 5, &mut pending));
        assert!(pending.is_empty());
        assert_eq!(b.empty_count(), 80);
        // row 1 (house 0): 5 placed, others lose r1c1's place
        assert!(b.is_done(0, 5));
        assert!(!b.places(0, 4).has(0));
        assert_eq!(b.places(0, 4).count(), 8);
        // r1c2, r2c2 and r3c2 lost 5: column 2 (house 10) has 6 places left for it
        assert!(!b.candidates(1).has(4));
        assert_eq!(b.places(10, 5).count(), 6);
    }

    #[test]
    fn the_record_of_trials_forgets_at_once_and_survives_its_epochs_wrapping() {
        let mut r = LookAhead::default();
        r.start(10);
        assert_eq!(r.get(3), None);
        r.set(3, Some(7));
        r.set(4, None);
        assert_eq!((r.get(3), r.get(4)), (Some(Some(7)), Some(None)));
        r.forget();
        assert_eq!((r.get(3), r.get(4)), (None, None));
        r.set(5, Some(1));
        for _ in 0..0x1_0000 {
            r.forget();
            assert_eq!(r.get(5), None);
        }
        r.start(10);
        assert!((0..10).all(|s| r.get(s).is_none()));
    }

    #[test]
    fn the_look_ahead_changes_no_answer_and_leaves_the_board_in_step() {
        // a 16x16 with the first rows of a solution: the look-ahead's eliminations must keep
        // the solution, and candidates and places must agree afterwards
        let geo = S16::geometry(Layout::new(16).unwrap());
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        let solution = crate::brute::sized::random_solution(geo, &mut rng).unwrap();
        let mut values = solution.clone();
        for (i, v) in values.iter_mut().enumerate() {
            if i % 3 != 0 || i > 160 {
                *v = 0;
            }
        }
        let mut pending = Vec::new();
        let mut b = Board::<S16>::from_values(geo, &values, &mut pending).unwrap();
        assert!(b.propagate(&mut pending));
        let mut scratch = LookAhead::default();
        assert!(b.look_ahead(&mut pending, &mut scratch).is_some());
        for (cell, &s) in solution.iter().enumerate() {
            assert!(b.value(cell) == s || b.candidates(cell).has(s as usize - 1));
        }
        for h in 0..48 {
            for d in 1..=16u8 {
                let cells = geo.cells_of(h);
                let expect =
                    (0..16).filter(|&i| b.candidates(cells[i] as usize).has(d as usize - 1));
                assert!(expect.eq(b.places(h, d).ones()), "house {h} digit {d}");
            }
        }
    }

    #[test]
    fn a_clash_is_a_contradiction() {
        let geo = S4::geometry(Layout::new(4).unwrap());
        let mut v = [0u8; 16];
        v[0] = 1;
        v[3] = 1;
        assert!(Board::<S4>::from_values(geo, &v, &mut Vec::new()).is_none());
    }

    #[test]
    fn singles_are_found_in_order() {
        let geo = S4::geometry(Layout::new(4).unwrap());
        // row 1 holds 1 2 3 _: a full house for 4
        let b = Board::<S4>::from_values(
            geo,
            &[1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            &mut Vec::new(),
        )
        .unwrap();
        let s = b.next_single().unwrap();
        assert_eq!((s.cell, s.digit), (3, 4));
        assert!(matches!(s.kind, SingleKind::FullHouse(_)));
        let big = Board::<S16>::empty(S16::geometry(Layout::new(16).unwrap()));
        assert!(big.next_single().is_none());
    }
}

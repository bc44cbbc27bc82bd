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

use super::bits::Bits;
use super::{Geometry, Shape};

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

/// The state of a board of shape `S` (see the module's table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Board<S: Shape> {
    pub geo: &'static Geometry<S>,
    values: S::PerCell<u8>,
    cands: S::PerCell<S::Mask>,
    places: S::PerHouse<S::PerDigit<S::Mask>>,
    done: S::PerHouse<S::Mask>,
    empty: usize,
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
        self.empty -= 1;
        for &h in &houses {
            let h = h as usize;
            self.done.as_mut()[h].set(d);
            self.places.as_mut()[h].as_mut()[d] = S::Mask::ZERO;
        }
        // The cell's other candidates lose their place in its houses.
        for e in mask.and_not(S::Mask::bit(d)).ones() {
            for k in 0..3 {
                if !self.lose_place(houses[k] as usize, e, spots[k] as usize, pending) {
                    return false;
                }
            }
        }
        for &p in geo.peers_of(cell) {
            if self.cands.as_ref()[p as usize].has(d) && !self.eliminate(p as usize, digit, pending)
            {
                return false;
            }
        }
        true
    }

    /// Takes candidate `digit` out of `cell` (which must hold it): `false` on a contradiction.
    pub fn eliminate(&mut self, cell: usize, digit: u8, pending: &mut Vec<Pending>) -> bool {
        let d = digit as usize - 1;
        let cands = &mut self.cands.as_mut()[cell];
        cands.clear(d);
        match cands.count() {
            0 => return false,
            1 => {
                let only = cands.first().unwrap_or(0) as u8 + 1;
                pending.push((cell as u16, only));
            }
            _ => {}
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
    #[inline]
    fn lose_place(&mut self, h: usize, d: usize, spot: usize, pending: &mut Vec<Pending>) -> bool {
        if self.done.as_ref()[h].has(d) {
            return true;
        }
        let places = &mut self.places.as_mut()[h].as_mut()[d];
        places.clear(spot);
        match places.count() {
            0 => false,
            1 => {
                let i = places.first().unwrap_or(0);
                pending.push((self.geo.cells_of(h)[i], d as u8 + 1));
                true
            }
            _ => true,
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
    /// trials placed the most (the product of their counts) in that last pass: the best one to
    /// guess on.
    ///
    /// A placement is an option of up to four choices (its cell, its three houses), so its
    /// trial is kept until the board changes; a choice whose two trials are both kept ones is
    /// not compared again (its boards are gone), which the pass's other choices make up for.
    ///
    /// `tried` is scratch space the caller keeps between calls.
    pub fn look_ahead(
        &mut self,
        pending: &mut Vec<Pending>,
        tried: &mut Vec<u16>,
    ) -> Option<Option<Choice>> {
        // `tried[cell * n + d - 1]`: the number of cells the placement's trial left empty, or
        // one of these two.
        const UNTRIED: u16 = u16::MAX;
        const FAILED: u16 = u16::MAX - 1;
        let n = S::N;
        tried.clear();
        tried.resize(S::CELLS * n, UNTRIED);
        loop {
            let mut best = (0usize, None);
            let mut changed = false;
            let me = &*self;
            let choices = (0..S::CELLS)
                .filter(|&c| me.cands.as_ref()[c].count() == 2)
                .map(Choice::Cell)
                .chain((0..3 * n).flat_map(|h| {
                    (1..=n as u8)
                        .filter(move |&d| me.places(h, d).count() == 2)
                        .map(move |d| Choice::Place(h, d))
                }))
                .collect::<Vec<_>>();
            for choice in choices {
                let options = self.options(choice);
                if options.len() != 2 {
                    continue;
                }
                let slot = |(cell, d): (usize, u8)| cell * n + d as usize - 1;
                let slots = [slot(options[0]), slot(options[1])];
                let mut trials = [None, None];
                let mut failed = None;
                for (k, &(cell, d)) in options.iter().enumerate() {
                    if tried[slots[k]] == UNTRIED {
                        let mut trial = *self;
                        let ok = trial.place(cell, d, pending) && trial.propagate(pending);
                        pending.clear();
                        tried[slots[k]] = if ok { trial.empty as u16 } else { FAILED };
                        trials[k] = Some(trial);
                    }
                    if tried[slots[k]] == FAILED {
                        failed = Some((cell, d));
                        break;
                    }
                }
                let progress = match (failed, &trials) {
                    (Some((cell, d)), _) => self.eliminate(cell, d, pending).then_some(true),
                    (None, [Some(a), Some(b)]) => self.keep_either(a, b, pending),
                    _ => Some(false),
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
                        tried.fill(UNTRIED);
                        changed = true;
                    }
                    Some(false) => {
                        let placed = |k: usize| self.empty - usize::from(tried[slots[k]]);
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

    /// Takes out of every empty cell the candidates that neither `a` nor `b` leaves possible,
    /// where `a` and `b` are this board with one side each of a choice made and followed:
    /// whichever side holds, those candidates go. Returns `None` on a contradiction, else
    /// whether a candidate went; the singles this leaves are pushed on `pending`.
    fn keep_either(
        &mut self,
        a: &Board<S>,
        b: &Board<S>,
        pending: &mut Vec<Pending>,
    ) -> Option<bool> {
        let mut changed = false;
        for cell in 0..S::CELLS {
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

    /// The placements a choice is between.
    pub fn options(&self, choice: Choice) -> Vec<(usize, u8)> {
        match choice {
            Choice::Cell(cell) => self
                .candidates(cell)
                .ones()
                .map(|d| (cell, d as u8 + 1))
                .collect(),
            Choice::Place(h, d) => self
                .places(h, d)
                .ones()
                .map(|i| (self.geo.cells_of(h)[i] as usize, d))
                .collect(),
        }
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
    use super::super::{Layout, S4, S9, S16};
    use super::*;

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

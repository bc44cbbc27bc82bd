//! The aids of propagation: the units (cells and houses with their candidates), the footprints
//! and the links the rules read, built once per position.

use super::*;

impl Units {
    /// Every unit: a footprint that always has to be tested again.
    pub(super) const ALL: Units = Units {
        cells: CellSet::ALL,
        houses: [ALL_HOUSES; 9],
    };

    /// The units touched by the candidates of `before` that `after` no longer has.
    pub(super) fn of_change(before: &[CellSet; 9], after: &[CellSet; 9]) -> Units {
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
    pub(super) fn meets(&self, other: &Units) -> bool {
        self.cells.intersects(other.cells)
            || (0..9).any(|di| self.houses[di] & other.houses[di] != 0)
    }
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
    pub(super) fn changes(&self, st: &State, inner: Level) -> Option<Units> {
        if inner != self.inner || (0..9).any(|di| !st.cands[di].is_subset(self.start[di])) {
            return None;
        }
        Some(Units::of_change(&self.start, &st.cands))
    }
}

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
    pub(super) fn from(&self, i: usize) -> &[(u16, u8)] {
        &self.partners[i][..self.count[i] as usize]
    }
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

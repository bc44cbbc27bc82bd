//! The aids of propagation: the units (cells and houses with their candidates), the footprints
//! and the links the rules read, built once per position.

use super::*;

impl<S: Shape> Units<S> {
    /// Every unit: a footprint that always has to be tested again.
    pub(super) fn all() -> Units<S> {
        Units {
            cells: CellSet::ALL,
            houses: S::per_digit(all_houses::<S>()),
        }
    }

    /// The units touched by the candidates of `before` that `after` no longer has.
    pub(super) fn of_change(geo: &Geometry<S>, before: &Cands<S>, after: &Cands<S>) -> Units<S> {
        let mut units = Units {
            cells: CellSet::EMPTY,
            houses: S::per_digit(S::Houses::ZERO),
        };
        for di in 0..S::N {
            let gone = before.as_ref()[di] - after.as_ref()[di];
            if gone.is_empty() {
                continue;
            }
            units.cells |= gone;
            let mut mask = S::Houses::ZERO;
            for h in 0..3 * S::N {
                if gone.intersects(geo.house_at(h)) {
                    mask.set(h);
                }
            }
            units.houses.as_mut()[di] = mask;
        }
        units
    }

    /// Whether a unit is touched by both.
    pub(super) fn meets(&self, other: &Units<S>) -> bool {
        self.cells.intersects(other.cells)
            || (self.houses.as_ref().iter())
                .zip(other.houses.as_ref())
                .any(|(a, b)| !a.and(*b).is_zero())
    }
}

impl<S: Shape> Footprints<S> {
    /// The footprints for a search at `level` from `start`, when `level` nests a level the
    /// filter serves (static or dynamic chains one level down).
    pub fn new(start: &State<S>, level: Level) -> Option<Footprints<S>> {
        let Level::Nested(inner) = level else {
            return None;
        };
        if !matches!(inner, Level::Static | Level::Dynamic) {
            return None;
        }
        let mut units = vec![Units::all(); candidates::<S>()];
        let aids = Aids::static_of(start, *inner);
        for di in 0..S::N {
            for cell in start.cands.as_ref()[di] {
                let y = cand(cell, di);
                let mut t = start.clone();
                if t.assume_with(y, true, *inner, &mut NoRecord, &aids).is_ok() {
                    units[index::<S>(y)] = Units::of_change(start.geo, &start.cands, &t.cands);
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
    pub(super) fn changes(&self, st: &State<S>, inner: Level) -> Option<Units<S>> {
        let within = (st.cands.as_ref().iter())
            .zip(self.start.as_ref())
            .all(|(now, start)| now.is_subset(*start));
        if inner != self.inner || !within {
            return None;
        }
        Some(Units::of_change(st.geo, &self.start, &st.cands))
    }
}

impl Links {
    /// The strong links of `st`.
    pub fn of<S: Shape>(st: &State<S>) -> Links {
        let mut links = Links {
            partners: vec![[(0, 0); 4]; candidates::<S>()],
            count: vec![0; candidates::<S>()],
        };
        let (mut ones, mut twos, mut threes) =
            (CellSet::<S>::EMPTY, CellSet::EMPTY, CellSet::EMPTY);
        for &b in st.cands.as_ref() {
            threes |= twos & b;
            twos |= ones & b;
            ones |= b;
        }
        for cell in twos - threes {
            let mut ds = st.mask(cell).ones();
            let (a, b) = (ds.next().expect("two"), ds.next().expect("two"));
            let (x, y) = (index::<S>(cand(cell, a)), index::<S>(cand(cell, b)));
            links.push(x, y, CELL_LINK);
            links.push(y, x, CELL_LINK);
        }
        for di in 0..S::N {
            let (cands, placed) = (st.cands.as_ref()[di], st.placed.as_ref()[di]);
            for h in 0..3 * S::N {
                let hc = st.geo.house_at(h);
                let rest = cands & hc;
                if rest.len() == 2 && !placed.intersects(hc) {
                    let mut it = rest.iter();
                    let (x, y) = (it.next().expect("two"), it.next().expect("two"));
                    let (x, y) = (index::<S>(cand(x, di)), index::<S>(cand(y, di)));
                    links.push(x, y, h as u8);
                    links.push(y, x, h as u8);
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

impl<S: Shape> Aids<S> {
    /// No aids: every assumption is followed on its own.
    pub const NONE: Aids<S> = Aids {
        links: None,
        closure: None,
        footprints: None,
    };

    /// The aids for following many assumptions at `level` from `start`.
    pub fn for_search(start: &State<S>, level: Level) -> Aids<S> {
        Aids {
            footprints: Footprints::new(start, level),
            ..Aids::static_of(start, level)
        }
    }

    /// The static walks' aids from `start` at `level` (none but at [`Level::Static`]).
    fn static_of(start: &State<S>, level: Level) -> Aids<S> {
        let links = (level == Level::Static).then(|| Links::of(start));
        Aids {
            closure: links.as_ref().map(|l| StaticClosure::of(start, l)),
            links,
            footprints: None,
        }
    }
}

impl<S: Shape> Default for Aids<S> {
    fn default() -> Aids<S> {
        Aids::NONE
    }
}

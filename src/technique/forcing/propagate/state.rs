//! The propagation itself: [`State`]'s rules, applied to a fixpoint at a [`Level`].

use super::*;

thread_local! {
    /// The static walk's queue, kept by each thread between walks (see
    /// [`State::assume_static`]).
    static WALK_QUEUE: std::cell::Cell<Vec<u16>> = const { std::cell::Cell::new(Vec::new()) };
}

impl<S: Shape> State<S> {
    /// The state of `grid`.
    pub fn of(grid: &Grid<S>) -> State<S> {
        let mut placed = S::NO_DIGIT_CELLS;
        for c in grid.filled_cells() {
            placed.as_mut()[grid.value(c) as usize - 1].insert(c);
        }
        let mut cands = S::NO_DIGIT_CELLS;
        for (di, s) in cands.as_mut().iter_mut().enumerate() {
            *s = grid.digit_cells(di as u8 + 1);
        }
        State {
            geo: grid.geometry(),
            cands,
            placed,
            open: grid.empty_cells(),
            dirty: S::per_digit(all_houses::<S>()),
            locked_dirty: S::per_digit(all_houses::<S>()),
            subsets_dirty: all_houses::<S>(),
            fish_dirty: S::Mask::low(S::N),
            rounds: 0,
        }
    }

    /// Notes that the places of digit `di` changed in `houses`, for every rule that looks only
    /// at what changed.
    #[inline]
    fn mark(&mut self, di: usize, houses: S::Houses) {
        let d = &mut self.dirty.as_mut()[di];
        *d = d.or(houses);
        let l = &mut self.locked_dirty.as_mut()[di];
        *l = l.or(houses);
        self.subsets_dirty = self.subsets_dirty.or(houses);
        self.fish_dirty.set(di);
    }

    /// The state of `grid`, marked settled when it holds no single and no contradiction (so a
    /// round of singles after an assumption looks only at the houses the assumption changed).
    pub fn settled_of(grid: &Grid<S>) -> State<S> {
        let mut st = State::of(grid);
        let mut probe = st.clone();
        if probe.singles(&mut NoRecord) == Ok(false) {
            st.dirty = S::per_digit(S::Houses::ZERO);
            let nr = &mut NoRecord;
            if !probe.locked(nr) && !probe.subsets(nr) && !probe.fish(nr) {
                st.locked_dirty = S::per_digit(S::Houses::ZERO);
                st.subsets_dirty = S::Houses::ZERO;
                st.fish_dirty = S::Mask::ZERO;
            }
        }
        st
    }

    /// Looks at every house in the next round of hidden singles, as for a new state.
    #[cfg(test)]
    pub(super) fn all_dirty(mut self) -> State<S> {
        for di in 0..S::N {
            self.mark(di, all_houses::<S>());
        }
        self
    }

    /// Whether `c` is still a candidate.
    #[inline]
    pub fn has(&self, c: Candidate) -> bool {
        self.cands.as_ref()[c.digit as usize - 1].contains(c.cell)
    }

    /// The candidates of `cell` as a mask.
    #[inline]
    pub fn mask(&self, cell: Cell) -> S::Mask {
        mask_of::<S>(&self.cands, cell)
    }

    /// Makes `c` true, removing its peers; `false` when it is no longer a candidate (a stale
    /// single of the same round: the next round meets the contradiction).
    fn place<R: Recorder<S>>(&mut self, c: Candidate, why: Why<S>, rec: &mut R) -> bool {
        let di = c.digit as usize - 1;
        let cell = c.cell;
        if !self.cands.as_ref()[di].contains(cell) {
            return false;
        }
        if R::ON {
            rec.on(c, why);
        }
        self.placed.as_mut()[di].insert(cell);
        self.open.remove(cell);
        let geo = self.geo;
        let own = geo.house_mask_of(cell);
        for e in 0..S::N {
            if e != di && self.cands.as_ref()[e].contains(cell) {
                self.cands.as_mut()[e].remove(cell);
                self.mark(e, own);
                if R::ON {
                    rec.off(cand(cell, e), Why::Peer(c));
                }
            }
        }
        let ds = &mut self.cands.as_mut()[di];
        let gone = *ds & geo.peers(cell);
        *ds -= gone;
        ds.remove(cell);
        let mut touched = own;
        for p in gone {
            touched = touched.or(geo.house_mask_of(p));
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
    fn remove<R: Recorder<S>>(&mut self, c: Candidate, why: Why<S>, rec: &mut R) {
        let di = c.digit as usize - 1;
        if self.cands.as_ref()[di].contains(c.cell) {
            self.cands.as_mut()[di].remove(c.cell);
            self.mark(di, self.geo.house_mask_of(c.cell));
            if R::ON {
                rec.off(c, why);
            }
        }
    }

    /// Follows the assumption that `c` is true (`on`) or false at `level`.
    pub fn assume<R: Recorder<S>>(
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
    pub fn assume_with<R: Recorder<S>>(
        &mut self,
        c: Candidate,
        on: bool,
        level: Level,
        rec: &mut R,
        aids: &Aids<S>,
    ) -> Result<(), Clash> {
        if level == Level::Static {
            return match (&aids.closure, &aids.links) {
                (Some(closure), _) if !R::ON => self.follow_static(c, on, closure),
                (_, Some(links)) => self.assume_static(c, on, rec, links),
                _ => self.assume_static(c, on, rec, &Links::of(self)),
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
    fn settle<R: Recorder<S>>(&mut self, plus: bool, rec: &mut R) -> Result<(), Clash> {
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
    fn singles<R: Recorder<S>>(&mut self, rec: &mut R) -> Result<bool, Clash> {
        self.rounds += 1;
        let geo = self.geo;
        let mut ones = CellSet::<S>::EMPTY;
        let mut twos = CellSet::<S>::EMPTY;
        for &b in self.cands.as_ref() {
            twos |= ones & b;
            ones |= b;
        }
        if let Some(c) = (self.open - ones).first() {
            return Err(self.clash(Clash::EmptyCell(c), rec));
        }
        // (cell, digit index, house index + 1 or 0 for a naked single)
        let mut found = S::per_cell((Cell::default(), 0u8, 0u8));
        let mut n = 0;
        let mut chosen = CellSet::<S>::EMPTY;
        // Only the houses whose places changed since the last round can hold a new hidden
        // single or have lost their last place; they are looked at in the same order as a
        // full round would, so the singles found (and their order) are the same.
        for di in 0..S::N {
            let b = self.cands.as_ref()[di];
            let p = self.placed.as_ref()[di];
            let mut look = std::mem::replace(&mut self.dirty.as_mut()[di], S::Houses::ZERO);
            while let Some(h) = look.first() {
                look.clear(h);
                let hc = geo.house_at(h);
                let x = b & hc;
                let places = x.len();
                // most houses keep two places or more: the placed test only for the others
                if places >= 2 || p.intersects(hc) {
                    continue;
                }
                let Some(c) = x.first() else {
                    let clash = Clash::NoPlace(di as u8 + 1, house::<S>(h));
                    return Err(self.clash(clash, rec));
                };
                if !chosen.contains(c) {
                    chosen.insert(c);
                    found.as_mut()[n] = (c, di as u8, h as u8 + 1);
                    n += 1;
                }
            }
        }
        for c in (self.open & ones) - twos - chosen {
            let di = (0..S::N)
                .find(|&d| self.cands.as_ref()[d].contains(c))
                .expect("one digit");
            found.as_mut()[n] = (c, di as u8, 0);
            n += 1;
        }
        for &(c, di, h) in &found.as_ref()[..n] {
            let why = if h == 0 {
                Why::LastInCell
            } else {
                Why::LastInHouse(house::<S>(h as usize - 1))
            };
            self.place(cand(c, di as usize), why, rec);
        }
        Ok(n > 0)
    }

    #[inline]
    fn clash<R: Recorder<S>>(&self, clash: Clash, rec: &mut R) -> Clash {
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
    fn locked<R: Recorder<S>>(&mut self, rec: &mut R) -> bool {
        let geo = self.geo;
        let n = S::N;
        let mut changed = false;
        for di in 0..n {
            if self.locked_dirty.as_ref()[di].is_zero() {
                continue;
            }
            let p = self.placed.as_ref()[di];
            // Boxes first (pointing), then rows and columns (claiming). Two or more places in
            // a box share at most one line, and two or more places in a line at most one box:
            // the line (or box) of the first place is the only one to try.
            for h in (2 * n..3 * n).chain(0..2 * n) {
                if !self.locked_dirty.as_ref()[di].has(h) {
                    continue;
                }
                self.locked_dirty.as_mut()[di].clear(h);
                let hc = geo.house_at(h);
                let x = self.cands.as_ref()[di] & hc;
                if p.intersects(hc) || x.len() < 2 {
                    continue;
                }
                let [row, col, boxed] = geo.houses_of(x.first().expect("two places"));
                let others: &[House] = if h >= 2 * n { &[row, col] } else { &[boxed] };
                for &other in others {
                    let oc = geo.house(other);
                    if x.is_subset(oc) {
                        let elim = self.cands.as_ref()[di] & (oc - hc);
                        let region = house::<S>(h);
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
    fn subsets<R: Recorder<S>>(&mut self, rec: &mut R) -> bool {
        let geo = self.geo;
        let all = S::Mask::low(S::N);
        for h in 0..3 * S::N {
            if !self.subsets_dirty.has(h) {
                continue;
            }
            self.subsets_dirty.clear(h);
            let open = self.open & geo.house_at(h);
            if open.len() < 3 {
                continue;
            }
            let list = geo.cells_of(h);
            // per place in the house: its digits; per digit: its places (each digit's
            // candidates in the house, at their place in the house's list)
            let kind = h / S::N;
            let mut masks = S::per_digit(S::Mask::ZERO);
            let mut pos = S::per_digit(S::Mask::ZERO);
            for (di, p) in pos.as_mut().iter_mut().enumerate() {
                for c in self.cands.as_ref()[di] & open {
                    let i = usize::from(geo.cell_places.as_ref()[S::bit_of(c)][kind]);
                    masks.as_mut()[i].set(di);
                    p.set(i);
                }
            }
            let (masks, pos) = (masks.as_ref(), pos.as_ref());
            for k in 2..=3u32 {
                // Naked: k cells holding k digits between them.
                if let Some((cells, ds)) = combination(masks, k) {
                    let cellset = cells_of::<S>(list, cells);
                    let targets = all.and_not(cells);
                    if targets.ones().any(|i| !masks[i].and(ds).is_zero()) {
                        for i in targets.ones() {
                            for d in digits(masks[i].and(ds)) {
                                let why = Why::NakedSubset {
                                    house: house::<S>(h),
                                    cells: cellset,
                                    digits: ds,
                                };
                                self.remove(Candidate::new(S::cell(list[i] as usize), d), why, rec);
                            }
                        }
                        return true;
                    }
                }
                // Hidden: k digits confined to k cells.
                if let Some((ds, cells)) = combination(pos, k) {
                    let cellset = cells_of::<S>(list, cells);
                    if cells.ones().any(|i| !masks[i].and_not(ds).is_zero()) {
                        for i in cells.ones() {
                            for d in digits(masks[i].and_not(ds)) {
                                let why = Why::HiddenSubset {
                                    house: house::<S>(h),
                                    cells: cellset,
                                    digits: ds,
                                };
                                self.remove(Candidate::new(S::cell(list[i] as usize), d), why, rec);
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
    fn fish<R: Recorder<S>>(&mut self, rec: &mut R) -> bool {
        let geo = self.geo;
        let n = S::N;
        for di in 0..n {
            if !self.fish_dirty.has(di) {
                continue;
            }
            self.fish_dirty.clear(di);
            let b = self.cands.as_ref()[di];
            for orient in 0..2usize {
                // per line: the cross lines holding the digit
                let mut m = S::per_digit(S::Mask::ZERO);
                for c in b {
                    let (line, cross) = if orient == 0 {
                        (c.row(), c.col())
                    } else {
                        (c.col(), c.row())
                    };
                    m.as_mut()[usize::from(line)].set(usize::from(cross));
                }
                for k in 2..=3u32 {
                    let Some((lines, covers)) = combination(m.as_ref(), k) else {
                        continue;
                    };
                    let mut base = CellSet::<S>::EMPTY;
                    let mut cover = CellSet::<S>::EMPTY;
                    let mut houses = Vec::new();
                    for i in lines.ones() {
                        base |= geo.house_at(orient * n + i);
                        if R::ON {
                            houses.push(house::<S>(orient * n + i));
                        }
                    }
                    for i in covers.ones() {
                        cover |= geo.house_at((1 - orient) * n + i);
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

    /// Removes `y` in a nested pass, for its contradiction one level down (`inner`): proved
    /// when `rec` records, only bounded from below when it sketches ([`Record::sketch`]: the
    /// floor is told once the removal is recorded).
    fn remove_nested<R: Recorder<S>>(&mut self, y: Candidate, inner: Level, rec: &mut R) {
        if R::ON && rec.sketching() {
            let floor = if inner == Level::Dynamic {
                let mut t = self.clone();
                let r = t.assume(y, true, inner, &mut NoRecord);
                debug_assert!(r.is_err(), "{y} was removed for a contradiction");
                t.dynamic_proof_floor(self, inner)
            } else {
                1
            };
            let unproved = NetBranch {
                implications: Vec::new(),
                end: BranchEnd::Conclusion,
                end_parents: Vec::new(),
            };
            self.remove(y, Why::Nested(Box::new(unproved), Vec::new()), rec);
            rec.inner_floor(floor);
        } else if R::ON {
            let (branch, ext) = contradiction_proof(self, rec.base(), y, true, inner);
            self.remove(y, Why::Nested(Box::new(branch), ext), rec);
        } else {
            self.remove(y, Why::Assume, rec);
        }
    }

    /// Removes every candidate whose assumption leads to a contradiction at `inner`, settling
    /// (with Plus) after each, until a whole pass removes nothing.
    fn nested<R: Recorder<S>>(
        &mut self,
        inner: Level,
        rec: &mut R,
        footprints: Option<&Footprints<S>>,
    ) -> Result<(), Clash> {
        if let Some(removals) = rec.take_replay() {
            // The same removals as the run that made the trail, each proved again.
            for y in removals {
                debug_assert!(self.has(y), "{y} replayed but gone");
                self.remove_nested(y, inner, rec);
                self.settle(true, rec)?;
            }
            return Ok(());
        }
        let changes = |st: &State<S>| footprints.and_then(|f| st.changed_for(f, inner));
        let mut changed = changes(self);
        // one level above static chains, every walk's answer at once ([`StaticClosure`])
        let closure_of =
            |st: &State<S>| (inner == Level::Static).then(|| StaticClosure::of(st, &Links::of(st)));
        let mut closure = closure_of(self);
        // Candidates an inner assumption without contradiction made true, since the last
        // removal: each reaches a part of where that assumption went (its implications are
        // among that assumption's), so it meets no contradiction either and is not followed.
        let mut held_by_others = S::NO_DIGIT_CELLS;
        loop {
            let mut removed = false;
            for di in 0..S::N {
                for cell in self.cands.as_ref()[di] {
                    // a stopped search ends here: the search above it concludes nothing (a
                    // recorded proof replays a contradiction found, so it is not cut)
                    if !R::ON && crate::model::stop::poll() {
                        return Ok(());
                    }
                    let y = cand(cell, di);
                    if !self.has(y) || held_by_others.as_ref()[di].contains(cell) {
                        continue;
                    }
                    if let (Some(f), Some(ch)) = (footprints, &changed)
                        && !f.units[index::<S>(y)].meets(ch)
                    {
                        continue;
                    }
                    let held = match &closure {
                        Some(cl) => {
                            let held = !cl.contradicts(y);
                            if held {
                                cl.add_made_true(y, &mut held_by_others);
                            }
                            held
                        }
                        None => {
                            let mut t = self.clone();
                            let held = t.assume(y, true, inner, &mut NoRecord).is_ok();
                            if held {
                                for (h, (now, before)) in held_by_others
                                    .as_mut()
                                    .iter_mut()
                                    .zip(t.placed.as_ref().iter().zip(self.placed.as_ref()))
                                {
                                    *h |= *now - *before;
                                }
                            }
                            held
                        }
                    };
                    if held {
                        continue;
                    }
                    self.remove_nested(y, inner, rec);
                    rec.nested_removal(y);
                    removed = true;
                    self.settle(true, rec)?;
                    changed = changes(self);
                    closure = closure_of(self);
                    held_by_others = S::NO_DIGIT_CELLS;
                }
            }
            if !removed {
                return Ok(());
            }
        }
    }

    /// Static propagation: a breadth-first walk over the links of this state.
    pub(super) fn assume_static<R: Recorder<S>>(
        &mut self,
        c: Candidate,
        on: bool,
        rec: &mut R,
        links: &Links,
    ) -> Result<(), Clash> {
        let start = &*self;
        let geo = self.geo;
        let mut is_on = S::NO_DIGIT_CELLS;
        let mut is_off = S::NO_DIGIT_CELLS;
        // Each candidate enters the queue at most once true and once false: entries of
        // `index * 2 + on`, in a buffer the thread keeps from walk to walk (a walk takes a few
        // microseconds; allocating its queue each time was a tenth of that).
        let mut queue = WALK_QUEUE.take();
        queue.clear();
        queue.reserve(2 * candidates::<S>());
        let mut head = 0usize;
        queue.push(entry::<S>(c, on));
        if on {
            is_on.as_mut()[c.digit as usize - 1].insert(c.cell);
            rec_on(rec, c, Why::Assume);
        } else {
            is_off.as_mut()[c.digit as usize - 1].insert(c.cell);
            rec_off(rec, c, Why::Assume);
        }
        let mut result = Ok(());
        'walk: while head < queue.len() {
            let (x, x_on) = unentry::<S>(queue[head]);
            head += 1;
            let xd = x.digit as usize - 1;
            if x_on {
                // Everything that sees x is false.
                let mut weak = S::NO_DIGIT_CELLS;
                for (e, w) in weak.as_mut().iter_mut().enumerate() {
                    if e != xd && start.cands.as_ref()[e].contains(x.cell) {
                        w.insert(x.cell);
                    }
                }
                weak.as_mut()[xd] = start.cands.as_ref()[xd] & geo.peers(x.cell);
                for (e, w) in weak.as_ref().iter().enumerate() {
                    for cell in *w - is_off.as_ref()[e] {
                        let y = cand(cell, e);
                        is_off.as_mut()[e].insert(cell);
                        rec_off(rec, y, Why::Peer(x));
                        if is_on.as_ref()[e].contains(cell) {
                            result = Err(Clash::Both(y));
                            break 'walk;
                        }
                        queue.push(entry::<S>(y, false));
                    }
                }
            } else {
                // The other end of a bivalue cell or conjugate pair is true.
                for &(yi, h) in links.from(index::<S>(x)) {
                    let y = candidate_at::<S>(yi as usize);
                    let yd = y.digit as usize - 1;
                    if is_on.as_ref()[yd].contains(y.cell) {
                        continue;
                    }
                    is_on.as_mut()[yd].insert(y.cell);
                    let why = match h {
                        CELL_LINK => Why::LastInCell,
                        h => Why::LastInHouse(house::<S>(h as usize)),
                    };
                    rec_on(rec, y, why);
                    if is_off.as_ref()[yd].contains(y.cell) {
                        result = Err(Clash::Both(y));
                        break 'walk;
                    }
                    queue.push(entry::<S>(y, true));
                }
            }
        }
        WALK_QUEUE.set(queue);
        if let Err(clash) = result {
            return Err(self.clash(clash, rec));
        }
        self.apply_walk(&is_on, &is_off);
        Ok(())
    }

    /// Makes what a static walk reached hold: `on` true, `off` false.
    pub(super) fn apply_walk(&mut self, on: &Cands<S>, off: &Cands<S>) {
        for di in 0..S::N {
            let on = on.as_ref()[di];
            let gone = off.as_ref()[di] | on;
            if !gone.is_empty() {
                self.cands.as_mut()[di] -= gone;
                self.mark(di, all_houses::<S>());
            }
            self.placed.as_mut()[di] |= on;
            self.open -= on;
        }
    }

    /// The changes since `footprints`' start, when they may filter a nested pass at `inner`.
    fn changed_for(&self, footprints: &Footprints<S>, inner: Level) -> Option<Units<S>> {
        footprints.changes(self, inner)
    }

    /// The fewest implications a proof of the contradiction this state met can have, when it
    /// met it following one assumption from `start` at [`Level::Dynamic`].
    ///
    /// Singles come in rounds, each found on the state the last round left, so a clash seen
    /// in round `R` rests on a candidate removed in round `R - 1`, removed by a placement of
    /// that round, which was a single only after a removal of round `R - 2`, and so on back to
    /// the assumption: the proof holds `2R - 1` facts at least (and the assumption, always).
    /// Other levels interleave rules that need not rest on the last round: 1 there.
    pub fn dynamic_proof_floor(&self, start: &State<S>, level: Level) -> usize {
        match level {
            Level::Dynamic => (2 * (self.rounds - start.rounds) as usize).saturating_sub(1),
            _ => 1,
        }
    }

    /// The candidates made true since `start`.
    pub fn on_since(&self, start: &State<S>) -> Cands<S> {
        let mut on = S::NO_DIGIT_CELLS;
        for (d, o) in on.as_mut().iter_mut().enumerate() {
            *o = self.placed.as_ref()[d] - start.placed.as_ref()[d];
        }
        on
    }

    /// The candidates made false since `start`.
    pub fn off_since(&self, start: &State<S>) -> Cands<S> {
        let mut off = S::NO_DIGIT_CELLS;
        for (d, o) in off.as_mut().iter_mut().enumerate() {
            *o = start.cands.as_ref()[d] - self.cands.as_ref()[d] - self.placed.as_ref()[d];
        }
        off
    }
}

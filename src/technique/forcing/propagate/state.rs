//! The propagation itself: [`State`]'s rules, applied to a fixpoint at a [`Level`].

use super::*;

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
    pub(super) fn all_dirty(mut self) -> State {
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

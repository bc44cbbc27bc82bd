//! Proof recording: why each implication holds, rebuilt into the branches of a forcing net.

use std::mem::take;
use std::ops::Range;

use super::*;

/// A `u32` range as indices.
fn range(r: &Range<u32>) -> Range<usize> {
    r.start as usize..r.end as usize
}

impl<S: Shape> Recorder<S> for Trail {
    const ON: bool = false;
    fn nested_removal(&mut self, y: Candidate) {
        self.removed.push(y);
    }
}

impl<S: Shape> Recorder<S> for NoRecord {
    const ON: bool = false;
}

impl<S: Shape> Record<S> {
    /// A record of a branch starting at `start`, with `base` as the given candidates.
    pub fn new(start: &State<S>, base: &Cands<S>) -> Record<S> {
        Record {
            geo: start.geo,
            base: *base,
            start: start.cands,
            on_at: vec![NONE; candidates::<S>()],
            off_at: vec![NONE; candidates::<S>()],
            facts: Vec::new(),
            parents: Vec::new(),
            ext: Vec::new(),
            clash: None,
            replay: None,
            sketch: false,
            inner_floors: Vec::new(),
        }
    }

    /// A record that leaves nested removals unproved: each is a fact without parents, its
    /// proof's size only bounded from below. Cheap to make, and [`Record::proof_floor`]
    /// then bounds the size of the full record's proof.
    pub fn sketch(start: &State<S>, base: &Cands<S>) -> Record<S> {
        Record {
            sketch: true,
            ..Record::new(start, base)
        }
    }

    /// The facts the proof of `target` (or of the contradiction) keeps.
    pub(super) fn kept(&self, target: Option<u32>) -> Vec<bool> {
        let mut keep = vec![false; self.facts.len()];
        let mut stack: Vec<u32> = Vec::new();
        match (target, &self.clash) {
            (Some(t), _) => stack.push(t),
            (None, Some((_, parents, _))) => stack.extend(parents),
            (None, None) => {}
        }
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
            stack.extend(self.parents_of_fact(f));
        }
        keep
    }

    /// The fewest implications the proof of the contradiction can have, from a sketch: the
    /// full record's proof keeps every fact the sketch's keeps (a nested removal's proof only
    /// adds parents), and each nested one counts its proof, at least its floor.
    pub fn proof_floor(&self) -> usize {
        let keep = self.kept(None);
        let nested: usize = (self.inner_floors.iter())
            .filter(|&&(f, _)| keep[f as usize])
            .map(|&(_, floor)| floor as usize)
            .sum();
        keep.iter().filter(|&&k| k).count() + nested
    }

    /// Adds the parent for `c` being false.
    fn off_parent(&self, c: Candidate, parents: &mut Vec<u32>, ext: &mut Vec<Candidate>) {
        let di = c.digit as usize - 1;
        if self.start.as_ref()[di].contains(c.cell) {
            let at = self.off_at[index::<S>(c)];
            if at != NONE {
                parents.push(at);
            }
        } else if self.base.as_ref()[di].contains(c.cell) {
            ext.push(c);
        }
    }

    /// Appends the parents of `c` (made true or false for `why`) to `parents`, sorted and
    /// without repeats, and its external facts to `ext`.
    fn parents_of(
        &self,
        c: Candidate,
        why: &Why<S>,
        parents: &mut Vec<u32>,
        ext: &mut Vec<Candidate>,
    ) {
        let first = parents.len();
        let di = c.digit as usize - 1;
        let geo = self.geo;
        match why {
            Why::Assume => {}
            Why::Peer(x) => {
                let at = self.on_at[index::<S>(*x)];
                if at != NONE {
                    parents.push(at);
                }
            }
            Why::LastInCell => {
                let others = mask_of::<S>(&self.base, c.cell).and_not(digit_mask(c.digit));
                for d in digits(others) {
                    self.off_parent(Candidate::new(c.cell, d), parents, ext);
                }
            }
            Why::LastInHouse(h) => {
                for cell in self.base.as_ref()[di] & (geo.house(*h) - CellSet::single(c.cell)) {
                    self.off_parent(cand(cell, di), parents, ext);
                }
            }
            Why::Locked { region, other } => {
                for cell in self.base.as_ref()[di] & (geo.house(*region) - geo.house(*other)) {
                    self.off_parent(cand(cell, di), parents, ext);
                }
            }
            Why::NakedSubset {
                cells, digits: ds, ..
            } => {
                for cell in *cells {
                    for d in digits(mask_of::<S>(&self.base, cell).and_not(*ds)) {
                        self.off_parent(Candidate::new(cell, d), parents, ext);
                    }
                }
            }
            Why::HiddenSubset {
                house,
                cells,
                digits: ds,
            } => {
                for d in digits(*ds) {
                    for cell in self.base.as_ref()[d as usize - 1] & (geo.house(*house) - *cells) {
                        self.off_parent(Candidate::new(cell, d), parents, ext);
                    }
                }
            }
            Why::Fish { base, cover, .. } => {
                for cell in self.base.as_ref()[di] & (*base - *cover) {
                    self.off_parent(cand(cell, di), parents, ext);
                }
            }
            Why::Nested(_, inner_ext) => {
                for &e in inner_ext {
                    self.off_parent(e, parents, ext);
                }
            }
        }
        let own = &mut parents[first..];
        own.sort_unstable();
        let mut kept = 0;
        for i in 0..own.len() {
            if i == 0 || own[i] != own[kept - 1] {
                own[kept] = own[i];
                kept += 1;
            }
        }
        parents.truncate(first + kept);
    }

    fn push(&mut self, c: Candidate, on: bool, why: Why<S>) {
        let (mut parents, mut ext) = (take(&mut self.parents), take(&mut self.ext));
        let (p0, e0) = (parents.len() as u32, ext.len() as u32);
        self.parents_of(c, &why, &mut parents, &mut ext);
        let (parents_end, ext_end) = (parents.len() as u32, ext.len() as u32);
        (self.parents, self.ext) = (parents, ext);
        let at = self.facts.len() as u32;
        if on {
            self.on_at[index::<S>(c)] = at;
        } else {
            self.off_at[index::<S>(c)] = at;
        }
        self.facts.push(Fact {
            cand: c,
            on,
            why,
            parents: p0..parents_end,
            ext: e0..ext_end,
        });
    }

    /// The facts fact `f` rests on.
    fn parents_of_fact(&self, f: usize) -> &[u32] {
        &self.parents[range(&self.facts[f].parents)]
    }

    /// Where `c` was made true (`on`) or false, if it was.
    pub fn fact_of(&self, c: Candidate, on: bool) -> Option<u32> {
        let at = if on {
            self.on_at[index::<S>(c)]
        } else {
            self.off_at[index::<S>(c)]
        };
        (at != NONE).then_some(at)
    }

    /// The proof of `target` (a fact index), or of the contradiction when `target` is
    /// `None`: the facts it rests on, in order, and the external facts they use.
    pub fn proof(&self, target: Option<u32>) -> (NetBranch, Vec<Candidate>) {
        let mut ext: Vec<Candidate> = Vec::new();
        let end = match (target, &self.clash) {
            (Some(_), _) => BranchEnd::Conclusion,
            (None, Some((clash, _, cext))) => {
                ext.extend(cext);
                match *clash {
                    Clash::EmptyCell(c) => BranchEnd::EmptyCell(c),
                    Clash::NoPlace(d, h) => BranchEnd::NoPlace(d, h),
                    Clash::Both(c) => BranchEnd::Both(c),
                }
            }
            (None, None) => BranchEnd::Conclusion,
        };
        let keep = self.kept(target);
        for (f, fact) in self.facts.iter().enumerate() {
            if keep[f] {
                ext.extend(&self.ext[range(&fact.ext)]);
            }
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
                parents: self
                    .parents_of_fact(i)
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

fn reason_of<S: Shape>(why: &Why<S>, on: bool, first: bool) -> Reason {
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

impl<S: Shape> Recorder<S> for Record<S> {
    const ON: bool = true;
    fn on(&mut self, c: Candidate, why: Why<S>) {
        self.push(c, true, why);
    }
    fn off(&mut self, c: Candidate, why: Why<S>) {
        self.push(c, false, why);
    }
    fn clash(&mut self, clash: Clash) {
        let mut parents = Vec::new();
        let mut ext = Vec::new();
        match clash {
            Clash::EmptyCell(cell) => {
                for d in digits(mask_of::<S>(&self.base, cell)) {
                    self.off_parent(Candidate::new(cell, d), &mut parents, &mut ext);
                }
            }
            Clash::NoPlace(d, h) => {
                for cell in self.base.as_ref()[d as usize - 1] & self.geo.house(h) {
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
    fn base(&self) -> &Cands<S> {
        &self.base
    }
    fn take_replay(&mut self) -> Option<Vec<Candidate>> {
        self.replay.take()
    }
    fn sketching(&self) -> bool {
        self.sketch
    }
    fn inner_floor(&mut self, floor: usize) {
        let f = self.facts.len() as u32 - 1;
        self.inner_floors.push((f, floor as u32));
    }
}

/// Follows `c` (true or false) from `start` at `level` with a record; the record and the
/// state reached (or the contradiction met).
pub(crate) fn record_branch<S: Shape>(
    start: &State<S>,
    base: &Cands<S>,
    c: Candidate,
    on: bool,
    level: Level,
) -> (Record<S>, Result<State<S>, Clash>) {
    record_branch_with(start, base, c, on, level, &Aids::NONE, None)
}

/// [`record_branch`] with the aids a search built from `start`, and the nested removals of
/// the same branch when a [`Trail`] of it was kept.
pub(crate) fn record_branch_with<S: Shape>(
    start: &State<S>,
    base: &Cands<S>,
    c: Candidate,
    on: bool,
    level: Level,
    aids: &Aids<S>,
    replay: Option<Vec<Candidate>>,
) -> (Record<S>, Result<State<S>, Clash>) {
    follow_recorded(
        Record::new(start, base),
        start,
        (c, on),
        level,
        aids,
        replay,
    )
}

/// [`record_branch_with`] making a sketch ([`Record::sketch`]) of a nested branch whose
/// [`Trail`] was kept, the position's candidates as given.
pub(crate) fn sketch_branch_with<S: Shape>(
    start: &State<S>,
    c: Candidate,
    on: bool,
    level: Level,
    aids: &Aids<S>,
    replay: Vec<Candidate>,
) -> (Record<S>, Result<State<S>, Clash>) {
    let rec = Record::sketch(start, &start.cands);
    follow_recorded(rec, start, (c, on), level, aids, Some(replay))
}

/// Follows the assumption from `start` at `level` into `rec`, replaying `replay`'s nested
/// removals when given; the record and the state reached (or the contradiction met).
fn follow_recorded<S: Shape>(
    mut rec: Record<S>,
    start: &State<S>,
    (c, on): (Candidate, bool),
    level: Level,
    aids: &Aids<S>,
    replay: Option<Vec<Candidate>>,
) -> (Record<S>, Result<State<S>, Clash>) {
    rec.replay = replay;
    let mut st = start.clone();
    let r = st.assume_with(c, on, level, &mut rec, aids);
    (rec, r.map(|()| st))
}

/// The proof that assuming `c` (`on`) at `level` from `start` leads to a contradiction, and the
/// external facts it uses.
pub(crate) fn contradiction_proof<S: Shape>(
    start: &State<S>,
    base: &Cands<S>,
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

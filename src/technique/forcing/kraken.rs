//! Kraken fish: a fish whose fins are too many or too far apart to eliminate anything as a
//! finned fish, completed by forcing chains from the fins.
//!
//! Either a fin is true or the fish holds (see [`fish`](crate::technique::fish)). So:
//!
//! - **Type 1** (HoDoKu 0371): a candidate of the fish's digit in a cover house, outside the
//!   base, goes when every fin, assumed true, leads to its elimination: with no fin true the
//!   fish eliminates it anyway.
//! - **Type 2** (0372): any candidate goes when, for one cover house, every base candidate in
//!   that house and every fin lead to its elimination: with no fin true, the fish puts its
//!   digit on one of that cover house's base candidates.
//!
//! The chains are static forcing chains (the links of the position, as the forcing chain at
//! 8.0 follows them); a fin whose assumption leads to a contradiction cannot be true, and
//! counts as leading anywhere. Basic fish of 2 to 4 lines with up to four fins are searched.
//! A step rates as a forcing chain (8.0) plus the length bonus over its chains.

use std::ops::ControlFlow;

use crate::model::Sym;
use crate::model::cell::House;
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Shape};
use crate::step::net::{ForcingKind, ForcingNet, literal};
use crate::step::{Role, Step};
use crate::technique::catalogue::entry;
use crate::technique::chains::chain_difficulty;
use crate::technique::context::Context;
use crate::technique::fish::{FishShape, FoundFish, find_fish_with_any_fins, fish_words};
use crate::technique::{
    SizedBuiltin, StepSink, Technique, TechniqueError, TechniqueInfo, stoppable,
};

use super::propagate::{Cands, Level, NoRecord, State, candidates, index, record_branch};

/// The Kraken fish techniques: type 1, then type 2.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![Box::new(KrakenFish::TYPE_1), Box::new(KrakenFish::TYPE_2)]
}

/// Largest fish searched (lines).
const MAX_SIZE: usize = 4;
/// Most fins a Kraken fish may have, endo fins included.
const MAX_FINS: usize = 4;

/// Which conclusion a Kraken fish draws.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum KrakenType {
    /// Cover candidates of the digit, from the fins alone.
    One,
    /// Any candidate, from the fins and the base candidates of one cover house.
    Two,
}

/// A Kraken fish technique.
pub struct KrakenFish {
    info: &'static TechniqueInfo,
    kind: KrakenType,
}

impl KrakenFish {
    /// Type 1: cover candidates that every fin eliminates.
    pub const TYPE_1: KrakenFish = KrakenFish {
        info: entry("kraken-fish-type-1"),
        kind: KrakenType::One,
    };
    /// Type 2: candidates that every fin and every base candidate of one cover house eliminate.
    pub const TYPE_2: KrakenFish = KrakenFish {
        info: entry("kraken-fish-type-2"),
        kind: KrakenType::Two,
    };
}

impl SizedBuiltin for KrakenFish {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }

    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            let mut search = Search {
                tech: self,
                geo: grid.geometry(),
                fates: Fates::new(grid),
                seen: Vec::new(),
            };
            for digit in grid.all_digits() {
                for size in 2..=MAX_SIZE {
                    find_fish_with_any_fins(
                        grid,
                        digit,
                        size,
                        FishShape::Basic,
                        MAX_FINS,
                        &mut |f| search.fish(f, sink),
                    )?;
                }
            }
            ControlFlow::Continue(())
        })
    }
}

/// What assuming a candidate true leads to by static links.
enum Fate<S: Shape> {
    /// A contradiction: the candidate is false, and leads anywhere.
    Contradiction,
    /// The candidates it makes false, per digit.
    Off(Cands<S>),
}

/// Each candidate's fate, followed once when first asked.
struct Fates<S: Shape> {
    start: State<S>,
    cache: Vec<Option<Fate<S>>>,
}

impl<S: Shape> Fates<S> {
    fn new(grid: &Grid<S>) -> Fates<S> {
        Fates {
            start: State::of(grid),
            cache: (0..candidates::<S>()).map(|_| None).collect(),
        }
    }

    fn fate(&mut self, c: Candidate) -> &Fate<S> {
        let start = &self.start;
        self.cache[index::<S>(c)].get_or_insert_with(|| {
            let mut st = start.clone();
            match st.assume(c, true, Level::Static, &mut NoRecord) {
                Err(_) => Fate::Contradiction,
                Ok(()) => Fate::Off(st.off_since(start)),
            }
        })
    }

    /// The candidates that `c`, assumed true, eliminates (every candidate of `within` for a
    /// contradiction), as cells per digit.
    fn eliminated(&mut self, c: Candidate, within: &Cands<S>) -> Cands<S> {
        match self.fate(c) {
            Fate::Contradiction => *within,
            Fate::Off(off) => *off,
        }
    }
}

struct Search<'a, S: Shape> {
    tech: &'a KrakenFish,
    geo: &'static crate::model::Geometry<S>,
    fates: Fates<S>,
    /// Conclusions already reported (candidate index): one step each.
    seen: Vec<usize>,
}

impl<S: Shape> Search<'_, S> {
    /// Looks for conclusions of one fish and reports them.
    fn fish(&mut self, f: &FoundFish<S>, sink: &mut StepSink<'_>) -> ControlFlow<()> {
        if crate::model::stop::poll() {
            return ControlFlow::Break(());
        }
        if f.fins.is_empty() {
            return ControlFlow::Continue(());
        }
        let d = f.digit;
        let fins: Vec<Candidate> = f.fins.iter().map(|c| Candidate::new(c, d)).collect();
        let all = self.fates.start.cands;
        // what every fin eliminates
        let mut by_fins = all;
        for &fin in &fins {
            let off = self.fates.eliminated(fin, &all);
            for (a, o) in by_fins.as_mut().iter_mut().zip(off.as_ref()) {
                *a &= *o;
            }
        }
        match self.tech.kind {
            KrakenType::One => {
                // a finned fish already takes the targets that see every fin
                let targets = (f.eliminations & by_fins.as_ref()[d as usize - 1])
                    - self.geo.common_peers(f.fins);
                for cell in targets {
                    let t = Candidate::new(cell, d);
                    self.report(f, None, &fins, t, sink)?;
                }
            }
            KrakenType::Two => {
                for cover in f.cover.ones() {
                    let house = House::from_index_in(cover, S::N);
                    let in_cover = (f.base_cells & self.geo.house(house)) - f.fins;
                    if in_cover.is_empty() {
                        continue;
                    }
                    let mut common = by_fins;
                    for cell in in_cover {
                        let off = self.fates.eliminated(Candidate::new(cell, d), &all);
                        for (a, o) in common.as_mut().iter_mut().zip(off.as_ref()) {
                            *a &= *o;
                        }
                    }
                    // the digit's own cover candidates are type 1's
                    common.as_mut()[d as usize - 1] -= f.eliminations;
                    for (di, cells) in common.as_ref().iter().enumerate() {
                        for cell in *cells {
                            let t = Candidate::new(cell, di as u8 + 1);
                            self.report(f, Some((house, in_cover)), &fins, t, sink)?;
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Builds and hands on the step eliminating `t`, with one branch per fin (and per base
    /// candidate of `cover` for type 2).
    fn report(
        &mut self,
        f: &FoundFish<S>,
        cover: Option<(House, CellSet<S>)>,
        fins: &[Candidate],
        t: Candidate,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        if self.seen.contains(&index::<S>(t)) {
            return ControlFlow::Continue(());
        }
        self.seen.push(index::<S>(t));
        let d = f.digit;
        let mut assumed: Vec<Candidate> = Vec::new();
        if let Some((_, cells)) = cover {
            assumed.extend(cells.iter().map(|c| Candidate::new(c, d)));
        }
        assumed.extend_from_slice(fins);
        let start = &self.fates.start;
        let mut branches = Vec::with_capacity(assumed.len());
        for &c in &assumed {
            let (rec, result) = record_branch(start, &start.cands, c, true, Level::Static);
            let branch = match result {
                Err(_) => rec.proof(None).0,
                Ok(_) => match rec.fact_of(t, false) {
                    Some(at) => rec.proof(Some(at)).0,
                    // the cached fate said otherwise: never report an unproved step
                    None => return ControlFlow::Continue(()),
                },
            };
            branches.push(branch);
        }
        let net = ForcingNet {
            kind: ForcingKind::Fish(d),
            branches,
        };
        let fish_text = fish_words(f);
        let premise = match cover {
            None => "every fin leads to it".to_string(),
            Some((house, cells)) => {
                let places: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
                format!(
                    "every fin and each place for {} in cover {house} ({}) lead to it",
                    Sym(d),
                    places.join(",")
                )
            }
        };
        let conclusion = literal(t, false);
        let mut step = Step::new(
            self.tech.info.id,
            chain_difficulty(self.tech.info.difficulty, net.length().saturating_sub(2)),
        )
        .eliminate(t.cell, t.digit)
        .houses((f.base.or(f.cover).ones()).map(|h| House::from_index_in(h, S::N)));
        let cands = |s: CellSet<S>| s.iter().map(move |c| Candidate::new(c, d));
        step = step
            .highlight(Role::Base, cands(f.base_cells - f.fins))
            .highlight(Role::Cover, cands(f.cover_cells - f.base_cells))
            .highlight(Role::Fin, cands(f.fins))
            .explain(format!(
                "{}: {fish_text}: {premise} => {conclusion}",
                self.tech.info.name
            ))
            .net(net);
        sink(step)
    }
}

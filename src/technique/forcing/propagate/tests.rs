//! Tests of the propagation engine.

use super::*;
use crate::model::{Layout, S16};
use crate::text::nine::parse_puzzle;

const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn grid() -> Grid {
    parse_puzzle(HARD).expect("valid")
}

#[test]
fn a_true_assumption_never_meets_a_contradiction() {
    let g = grid();
    let sol = crate::brute::nine::solve(&g.given_values()).expect("unique");
    let start = State::of(&g);
    for level in [
        Level::Static,
        Level::Dynamic,
        Level::Plus,
        Level::Nested(&Level::Dynamic),
    ] {
        for cell in g.empty_cells() {
            let c = Candidate::new(cell, sol[cell.index()]);
            let mut st = start.clone();
            assert!(
                st.assume(c, true, level, &mut NoRecord).is_ok(),
                "{c} at {level:?}"
            );
            // Everything it made true is the solution.
            for (di, s) in st.on_since(&start).iter().enumerate() {
                for x in *s {
                    assert_eq!(sol[x.index()], di as u8 + 1);
                }
            }
        }
    }
}

#[test]
fn recorded_and_fast_runs_agree() {
    let g = grid();
    let start = State::of(&g);
    let base = start.cands;
    for level in [Level::Static, Level::Dynamic, Level::Plus] {
        for di in 0..9 {
            for cell in start.cands[di] {
                let c = cand(cell, di);
                for on in [true, false] {
                    let mut fast = start.clone();
                    let f = fast.assume(c, on, level, &mut NoRecord);
                    let (rec, r) = record_branch(&start, &base, c, on, level);
                    assert_eq!(f.is_err(), r.is_err(), "{c} {on} {level:?}");
                    if let Ok(st) = r {
                        assert_eq!(st, fast);
                    } else {
                        let (proof, ext) = rec.proof(None);
                        assert!(ext.is_empty());
                        assert_eq!(proof.assumption(), Some((c, on)));
                        assert!(proof.end != BranchEnd::Conclusion);
                    }
                }
            }
        }
    }
}

/// Every assumption at `level` from the stuck position, with the search's aids and
/// without, and (for the hidden singles that look only at changed houses) from a start
/// marked settled and from one whose every house is looked at.
fn aided_and_plain_runs_agree(level: Level) -> usize {
    let g =
        crate::technique::forcing::tests::stuck_position(crate::technique::forcing::tests::STALLS);
    let settled = State::settled_of(&g);
    let plain = State::of(&g);
    assert_eq!(settled, plain);
    let aids = Aids::for_search(&settled, level);
    let mut contradictions = 0;
    for di in 0..9 {
        for cell in settled.cands[di] {
            let c = cand(cell, di);
            for on in [true, false] {
                let mut aided = settled.clone();
                let a = aided.assume_with(c, on, level, &mut NoRecord, &aids);
                let mut alone = plain.clone().all_dirty();
                let b = alone.assume(c, on, level, &mut NoRecord);
                assert_eq!(a.is_err(), b.is_err(), "{c} {on} {level:?}");
                if a.is_ok() {
                    assert_eq!(aided, alone, "{c} {on} {level:?}");
                } else {
                    contradictions += 1;
                }
            }
        }
    }
    contradictions
}

#[test]
fn links_and_changed_houses_change_nothing() {
    // Chains already found what static links would: only the dynamic levels contradict.
    let found: usize = [Level::Static, Level::Dynamic, Level::Plus]
        .into_iter()
        .map(aided_and_plain_runs_agree)
        .sum();
    assert!(found > 0);
}

#[test]
fn footprints_skip_only_what_would_not_contradict() {
    // The nested pass removes the same candidates with the footprint filter or without.
    for level in [
        Level::Nested(&Level::Static),
        Level::Nested(&Level::Dynamic),
    ] {
        let aids = Aids::for_search(&State::of(&grid()), level);
        assert!(aids.footprints.is_some(), "{level:?} has footprints");
        assert!(aided_and_plain_runs_agree(level) > 0, "{level:?}");
    }
}

#[test]
fn a_footprint_is_what_the_inner_assumption_changed() {
    let g = grid();
    let start = State::of(&g);
    let level = Level::Nested(&Level::Dynamic);
    let fp = Footprints::new(&start, level).expect("dynamic inner level");
    let mut seen = 0;
    for di in 0..9 {
        for cell in start.cands[di] {
            let y = cand(cell, di);
            let mut t = start.clone();
            let units = fp.units[index::<S9>(y)];
            if t.assume(y, true, Level::Dynamic, &mut NoRecord).is_err() {
                assert_eq!(units, Units::all());
                continue;
            }
            seen += 1;
            // The assumption's own cell and houses are always in its footprint.
            assert!(units.cells.contains(cell));
            let own = start.geo.house_mask_of(cell);
            assert_eq!(units.houses[di] & own, own);
            assert_eq!(units, Units::of_change(start.geo, &start.cands, &t.cands));
        }
    }
    assert!(seen > 0);
    // No footprints where the inner level is not local.
    assert!(Footprints::new(&start, Level::Nested(&Level::Plus)).is_none());
    assert!(Footprints::new(&start, Level::Dynamic).is_none());
}

#[test]
fn links_are_bivalue_cells_and_conjugate_pairs() {
    let g = grid();
    let st = State::of(&g);
    let links = Links::of(&st);
    for di in 0..9 {
        for cell in st.cands[di] {
            let c = cand(cell, di);
            let mut expect = Vec::new();
            let mask = st.mask(cell);
            if mask.count_ones() == 2 {
                let other = (mask & !(1 << di)).trailing_zeros() as usize;
                expect.push((index::<S9>(cand(cell, other)) as u16, CELL_LINK));
            }
            for h in cell.houses() {
                let rest = st.cands[di] & h.cells();
                if rest.len() == 2 {
                    let other = (rest - CellSet::single(cell)).first().expect("two");
                    expect.push((index::<S9>(cand(other, di)) as u16, h.index() as u8));
                }
            }
            assert_eq!(links.from(index::<S9>(c)), &expect[..], "{c}");
        }
    }
}

#[test]
fn proofs_only_use_earlier_facts() {
    let g =
        crate::technique::forcing::tests::stuck_position(crate::technique::forcing::tests::STALLS);
    let start = State::of(&g);
    let sol = crate::brute::nine::solve(&g.given_values()).expect("unique");
    let mut seen = 0;
    for cell in g.empty_cells() {
        for d in digits(g.candidates(cell)) {
            if d == sol[cell.index()] {
                continue;
            }
            let c = Candidate::new(cell, d);
            let (rec, r) = record_branch(&start, &start.cands, c, true, Level::Dynamic);
            if r.is_ok() {
                continue;
            }
            seen += 1;
            let (proof, _) = rec.proof(None);
            for (i, imp) in proof.implications.iter().enumerate() {
                assert!(imp.parents.iter().all(|&p| (p as usize) < i));
                if imp.reason == Reason::Peer {
                    assert_eq!(imp.parents.len(), 1, "{imp:?}");
                }
            }
            assert!(!proof.end_parents.is_empty());
        }
    }
    assert!(seen > 0);
}

/// A 16x16 position of tarek's tough set, where the forcing chains are needed: after the
/// techniques before them, a true assumption meets no contradiction at any level, and the
/// recorded and fast runs agree.
#[test]
fn sixteen_by_sixteen_assumptions_are_sound_and_recorded_alike() {
    const TOUGH: &str = ".A729.BC.....3.16..B3....D..A.2........5.3..C8..1.9...86..4.............B..92..8D.....E....2.........3..5....B7..4.3...D...71...9B1...A2.......74.6.....1.......5.........G8..34..27.9.1.4....65...C......2A...6....65..C7....A......423.1..859......8.....64.B2";
    let puzzle = crate::text::Puzzle::parse(TOUGH).expect("a 16x16 puzzle");
    let solution = puzzle.solution().expect("unique");
    let geo = S16::geometry(Layout::new(16).unwrap());
    let g = crate::model::grid::Grid::<S16>::from_value_slice(geo, puzzle.values());
    let sol = solution.values();
    let start = State::settled_of(&g);
    let base = start.cands;
    let (mut checked, mut contradictions) = (0, 0);
    for level in [Level::Static, Level::Dynamic, Level::Plus] {
        for (di, cells) in start.cands.iter().enumerate() {
            // every candidate of the solution, and a few others
            for cell in cells.iter().step_by(3) {
                let c = cand(cell, di);
                let right = sol[cell.index_in(16)] == di as u8 + 1;
                let mut fast = start.clone();
                let f = fast.assume(c, true, level, &mut NoRecord);
                let (rec, r) = record_branch(&start, &base, c, true, level);
                assert_eq!(f.is_err(), r.is_err(), "{c} {level:?}");
                checked += 1;
                if right {
                    assert!(f.is_ok(), "{c} is the solution's, at {level:?}");
                    for (dj, on) in fast.on_since(&start).iter().enumerate() {
                        for x in *on {
                            assert_eq!(sol[x.index_in(16)], dj as u8 + 1, "{c} made {x} true");
                        }
                    }
                } else if r.is_err() {
                    contradictions += 1;
                    let (proof, _) = rec.proof(None);
                    assert_eq!(proof.assumption(), Some((c, true)));
                    assert!(proof.end != BranchEnd::Conclusion);
                }
            }
        }
    }
    assert!(
        checked > 1000 && contradictions > 0,
        "{checked} {contradictions}"
    );
}

/// The floor a dynamic contradiction gives its proof's size holds for every contradiction of
/// a stuck 9x9 position (true and false assumptions, from a settled state and from one with
/// every house still to look at). (Proofs there are 18 to 74 implications over floors of 5 to
/// 21: a floor twice as high would fail.)
#[test]
fn a_dynamic_proof_is_never_under_its_floor() {
    let g =
        crate::technique::forcing::tests::stuck_position(crate::technique::forcing::tests::STALLS);
    let (mut above_one, mut seen) = (0, 0);
    for start in [State::settled_of(&g), State::of(&g)] {
        for cell in g.empty_cells() {
            for d in digits(g.candidates(cell)) {
                let c = Candidate::new(cell, d);
                for on in [true, false] {
                    let mut fast = start.clone();
                    if fast.assume(c, on, Level::Dynamic, &mut NoRecord).is_ok() {
                        continue;
                    }
                    let floor = fast.dynamic_proof_floor(&start, Level::Dynamic);
                    let (rec, r) = record_branch(&start, &start.cands, c, on, Level::Dynamic);
                    assert!(r.is_err());
                    let size = rec.proof(None).0.implications.len();
                    assert!(
                        size >= floor,
                        "{c} {on}: a proof of {size} under its floor {floor}"
                    );
                    seen += 1;
                    above_one += usize::from(floor > 1);
                }
            }
        }
    }
    assert!(seen > 20 && above_one > 0, "{seen} {above_one}");
}

/// A sketch of a nested branch (nested removals unproved) bounds its full proof from below,
/// and counts the nested proofs it keeps: the floors pass the facts kept alone.
#[test]
fn a_nested_sketch_is_never_over_the_full_proof() {
    let g =
        crate::technique::forcing::tests::stuck_position(crate::technique::forcing::tests::STALLS);
    let start = State::settled_of(&g);
    let level = Level::Nested(&Level::Dynamic);
    let (mut seen, mut with_nested) = (0, 0);
    for cell in g.empty_cells() {
        for d in digits(g.candidates(cell)) {
            let c = Candidate::new(cell, d);
            let mut trail = Trail::default();
            if start.clone().assume(c, true, level, &mut trail).is_ok() {
                continue;
            }
            let aids = Aids::NONE;
            let (sketch, r) =
                sketch_branch_with(&start, c, true, level, &aids, trail.removed.clone());
            assert!(r.is_err());
            let floor = sketch.proof_floor();
            let (rec, r) = record_branch_with(
                &start,
                &start.cands,
                c,
                true,
                level,
                &aids,
                Some(trail.removed),
            );
            assert!(r.is_err());
            let (proof, _) = rec.proof(None);
            assert!(
                floor <= proof.size(),
                "{c}: floor {floor} over {}",
                proof.size()
            );
            // the sketch keeps the facts the proof keeps, nested ones as plain facts
            let kept = sketch.kept(None).iter().filter(|&&k| k).count();
            with_nested += usize::from(floor > kept);
            seen += 1;
            if seen == 12 {
                assert!(with_nested > 0, "no sketch counted a nested proof");
                return;
            }
        }
    }
    panic!("only {seen} nested contradictions");
}

/// The static closure answers what a static walk from each candidate would: the same
/// contradictions, and without one the same candidates made true and the same state reached
/// (true and false; on 9x9 and 16x16 states, before and after an assumption).
#[test]
fn the_static_closure_answers_as_every_walk_would() {
    fn check<S: Shape>(st: &State<S>) -> (usize, usize) {
        let links = Links::of(st);
        let closure = StaticClosure::of(st, &links);
        let (mut contradictions, mut held) = (0, 0);
        for di in 0..S::N {
            for cell in st.cands.as_ref()[di] {
                let y = cand(cell, di);
                let mut t = st.clone();
                let walk = t.assume_static(y, true, &mut NoRecord, &links);
                assert_eq!(closure.contradicts(y), walk.is_err(), "{y}");
                if walk.is_ok() {
                    let mut made = S::NO_DIGIT_CELLS;
                    closure.add_made_true(y, &mut made);
                    for e in 0..S::N {
                        let walked = t.placed.as_ref()[e] - st.placed.as_ref()[e];
                        assert_eq!(made.as_ref()[e], walked, "{y}, digit {}", e + 1);
                    }
                    held += 1;
                } else {
                    contradictions += 1;
                }
                // and a whole walk's end, true and false, from the closure alone
                for on in [true, false] {
                    let mut walked = st.clone();
                    let w = walked.assume_static(y, on, &mut NoRecord, &links);
                    let mut followed = st.clone();
                    let f = followed.follow_static(y, on, &closure);
                    assert_eq!(w.is_err(), f.is_err(), "{y} {on}");
                    if w.is_ok() {
                        assert_eq!(walked, followed, "{y} {on}");
                    }
                }
            }
        }
        (contradictions, held)
    }
    let stuck =
        crate::technique::forcing::tests::stuck_position(crate::technique::forcing::tests::STALLS);
    // an easy puzzle's first position: candidates that see both ends of a strong link
    let easy = parse_puzzle(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    )
    .expect("valid");
    let mut states = vec![
        State::of(&grid()),
        State::settled_of(&stuck),
        State::of(&easy),
    ];
    // and a state one dynamic assumption further
    let start = State::settled_of(&stuck);
    let sol = crate::brute::nine::solve(&stuck.given_values()).expect("unique");
    let right = (stuck.empty_cells().iter())
        .map(|cell| Candidate::new(cell, sol[cell.index()]))
        .next()
        .expect("an empty cell");
    let mut after = start.clone();
    after
        .assume(right, true, Level::Dynamic, &mut NoRecord)
        .expect("the solution's");
    states.push(after);
    let (mut contradictions, mut held) = (0, 0);
    for st in &states {
        let (c, h) = check(st);
        contradictions += c;
        held += h;
    }
    const TOUGH: &str = ".A729.BC.....3.16..B3....D..A.2........5.3..C8..1.9...86..4.............B..92..8D.....E....2.........3..5....B7..4.3...D...71...9B1...A2.......74.6.....1.......5.........G8..34..27.9.1.4....65...C......2A...6....65..C7....A......423.1..859......8.....64.B2";
    let puzzle = crate::text::Puzzle::parse(TOUGH).expect("a 16x16 puzzle");
    let geo = S16::geometry(Layout::new(16).unwrap());
    let g = crate::model::grid::Grid::<S16>::from_value_slice(geo, puzzle.values());
    let (c, h) = check(&State::settled_of(&g));
    assert!(
        contradictions + c > 0 && held + h > 100,
        "{contradictions} {c} {held} {h}"
    );
}

/// `combination` by trying every pair and triple of `masks`: what it must answer.
fn combination_by_every_subset(masks: &[u32], k: u32) -> Option<(u32, u32)> {
    let ok = |m: u32| (2..=k).contains(&m.count_ones());
    let n = masks.len();
    for a in 0..n {
        for b in a + 1..n {
            if k == 2 {
                if ok(masks[a]) && ok(masks[b]) && (masks[a] | masks[b]).count_ones() == 2 {
                    return Some((1 << a | 1 << b, masks[a] | masks[b]));
                }
                continue;
            }
            for c in b + 1..n {
                let u = masks[a] | masks[b] | masks[c];
                if [a, b, c].iter().all(|&i| ok(masks[i])) && u.count_ones() == 3 {
                    return Some((1 << a | 1 << b | 1 << c, u));
                }
            }
        }
    }
    None
}

#[test]
fn combination_finds_the_first_subset_every_subset_would() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut found = [0usize; 2];
    for round in 0..20_000 {
        let n = [4, 6, 9, 16, 25][round % 5];
        // sparse masks, so that pairs and triples exist
        let masks: Vec<u32> = (0..n)
            .map(|_| {
                let bits = rng.random_range(0..5);
                (0..bits).fold(0, |m, _| m | 1 << rng.random_range(0..n.min(6)))
            })
            .collect();
        for k in 2..=3 {
            let want = combination_by_every_subset(&masks, k);
            assert_eq!(combination(&masks, k), want, "{masks:?}, k = {k}");
            found[k as usize - 2] += usize::from(want.is_some());
        }
    }
    assert!(
        found.iter().all(|&f| f > 1000),
        "too few subsets to test: {found:?}"
    );
}

//! Unit tests of the ALS techniques on HoDoKu library cases.

use super::*;
use crate::technique::find_all;
use crate::text::nine::parse_library_line;

/// Runs `t` on a HoDoKu library line: some step has exactly the expected eliminations,
/// and none removes the solution's digit.
fn passes(t: &dyn Technique, line: &str) {
    let case = parse_library_line(line).unwrap();
    let steps = find_all(t, &case.grid).unwrap();
    let mut want = case.eliminations.clone();
    want.sort();
    assert!(
        steps.iter().any(|s| s.eliminations == want),
        "{}: none of {:#?} has {want:?}",
        t.id(),
        steps.iter().map(|s| &s.explanation).collect::<Vec<_>>()
    );
    let solution = crate::brute::nine::solve(case.grid.values()).expect("solvable");
    for s in &steps {
        assert_eq!(s.contradiction(&solution), None, "{}", s.explanation);
    }
}

#[test]
fn als_xz_singly_linked() {
    passes(
        &AlsXz,
        ":0901-1:1:...2..6..67...8....853+6.......+4.6...5..19...2+1.4...79+6.....426....7..8.3.1.+6.29..:719 427 345 545 845 365 579:128::",
    );
}

#[test]
fn als_xz_doubly_linked() {
    passes(
        &AlsXz,
        ":0901-2:13679:....8.......4..+8.....12564.72......6..431....9......8.25.....3869...712........+6.:767 769 495 496 497 499:113 123 313 323 662 713 723 913 923 939::",
    );
}

#[test]
fn als_xy_wing() {
    passes(
        &AlsXyWing,
        ":0902-1:8:9....7.68+72....9+43..4....+7+52+7....4+8+9.6+9+78...28.39..71+6.....5.973.76....1+5...+7...+4:114 514 115 515 123 523 134 135 136 356 173 277 287 193 297:824::",
    );
}

#[test]
fn als_xy_chain_has_chain_data() {
    let line = ":0903-1:7:..7..5..4+5......16+4.....5..3..9....+58.4+5......56378+1+4.+7+4+5+8+32+961+1+8346925+7..91+5+7+4..:212 612 215 318 225 232 235 636 338 339 145 357 258 259:758::";
    passes(&AlsXyChain, line);
    let case = parse_library_line(line).unwrap();
    for s in find_all(&AlsXyChain, &case.grid).unwrap() {
        let chain = &s.chains[0];
        assert_eq!(chain.links.len(), chain.nodes.len() - 1);
        assert!(chain.nodes.len() >= 8, "{}", s.explanation);
        assert!(chain.nodes.iter().all(|n| !n.als.is_empty()));
    }
}

#[test]
fn death_blossom() {
    passes(
        &DeathBlossom,
        ":0904-1:9:8+7+14..6..5+42...7..+93+6+8+57+42+1.28.7.+3.....3.6+2....+3+21.54..1.7..+93.+3.9...8+72.+87..3+1.4:915 919 924 929 641 946 948 958 959 669 475 675 476 584 694:966::",
    );
}

/// The adjacency, built from the sets indexed by digit and first cell, is every pair with a
/// restricted common tested pair by pair, in the same order, at every position of a solve
/// that uses the ALS techniques, and on a 16x16 position.
#[test]
fn adjacency_is_every_pair_with_a_restricted_common() {
    fn check<S: Shape>(grid: &Grid<S>) -> usize {
        let ctx = Context::new(grid);
        let als = ctx.als();
        let adj = Adjacency::build(als);
        let mut links = 0;
        for i in 0..als.len() {
            let want: Vec<(u32, S::Mask)> = (0..als.len())
                .filter(|&j| j != i)
                .map(|j| {
                    let (lo, hi) = (i.min(j), i.max(j));
                    (j as u32, restricted_commons(&als[lo], &als[hi]))
                })
                .filter(|&(_, rc)| !rc.is_zero())
                .collect();
            let got: Vec<(u32, S::Mask)> = adj.of(i).iter().map(|l| (l.to, l.rc)).collect();
            assert_eq!(got, want, "set {i}");
            links += got.len();
        }
        links
    }
    let puzzle = crate::text::Puzzle::parse(
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    )
    .expect("a puzzle");
    let trace = crate::engine::solve_sized(
        &puzzle,
        &crate::engine::pipeline::Pipeline::default_pipeline(),
    );
    let mut grid = puzzle.grid(crate::model::S9::geometry(puzzle.layout()));
    let mut links = 0;
    for step in trace.steps() {
        links += check(&grid);
        step.apply(&mut grid);
    }
    assert!(links > 0);
    let line = concat!(
        "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6",
        ".....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.",
        "D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1"
    );
    let puzzle = crate::text::Puzzle::parse(line).expect("a puzzle");
    let grid = puzzle.grid(crate::model::S16::geometry(puzzle.layout()));
    assert!(check(&grid) > 0);
}

#[test]
fn restricted_commons_see_each_other() {
    let case = parse_library_line(
        ":0901-1:1:...2..6..67...8....853+6.......+4.6...5..19...2+1.4...79+6.....426....7..8.3.1.+6.29..:719 427 345 545 845 365 579:128::",
    )
    .unwrap();
    let ctx = Context::new(&case.grid);
    let als = ctx.als();
    let adj = Adjacency::build(als);
    for (i, a) in als.iter().enumerate() {
        for l in adj.of(i) {
            let b = &als[l.to as usize];
            for x in digits(l.rc) {
                for p in a.cells_of(x) {
                    for q in b.cells_of(x) {
                        assert!(p.sees(q), "{x} {p} {q}");
                    }
                }
            }
            // symmetric
            assert!(
                adj.of(l.to as usize)
                    .iter()
                    .any(|m| m.to as usize == i && m.rc == l.rc)
            );
        }
    }
}

/// At every position of three solves (every third at 16x16), the ALS-XY-Chain search that
/// passes over what the walks rule out finds the same chains, in the same order, as the
/// search through everything; the walks let some positions go unsearched, and at some the
/// search finds chains.
#[test]
fn pruned_xy_chain_search_finds_the_same_chains() {
    fn check<S: Shape>(line: &str, every: usize) -> (usize, usize) {
        let puzzle = crate::text::Puzzle::parse(line).expect("a puzzle");
        let trace = crate::engine::solve_sized(
            &puzzle,
            &crate::engine::pipeline::Pipeline::default_pipeline(),
        );
        let mut grid = puzzle.grid(S::geometry(puzzle.layout()));
        let (mut none, mut found) = (0, 0);
        for (i, step) in trace.steps().enumerate() {
            if i % every == 0 {
                let ctx = Context::new(&grid);
                let key = |(e, f): &(CandSet<S>, FoundChain<S::Mask>)| {
                    (*e, f.len, f.sets, f.rcs[..usize::from(f.len)].to_vec())
                };
                let pruned: Vec<_> = xy_chains(&ctx, true).iter().map(key).collect();
                let all: Vec<_> = xy_chains(&ctx, false).iter().map(key).collect();
                assert_eq!(pruned, all, "before {}", step.explanation);
                let walks = walks::ChainWalks::of(&grid, ctx.als(), ctx.als_adjacency());
                none += walks.none() as usize;
                found += !all.is_empty() as usize;
            }
            step.apply(&mut grid);
        }
        (none, found)
    }
    for line in [
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    ] {
        let (none, found) = check::<crate::model::S9>(line, 1);
        assert!(none > 0 && found > 0, "{line}: {none} none, {found} found");
    }
    let line = concat!(
        "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6",
        ".....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.",
        "D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1"
    );
    let (none, found) = check::<crate::model::S16>(line, 3);
    assert!(none > 0 && found > 0, "16x16: {none} none, {found} found");
}

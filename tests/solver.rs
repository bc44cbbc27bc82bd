//! Checks the bitboard solver against a small, slow, independent reference solver on real
//! puzzle collections, and on random masks of a known solution grid.
//!
//! The collections are read from `$LAPIZ_DATA/puzzles/` or else `../shared/data/puzzles/`
//! relative to the crate root; when absent the corresponding check is skipped.

mod common;

use lapiz::brute::{Solutions, analyze, count_solutions, solve};

const SAMPLE: usize = 300;

/// `SAMPLE` puzzles of a file from line `skip` on, or `None` (with a message) when it is
/// missing.
fn load_from(name: &str, skip: usize) -> Option<Vec<[u8; 81]>> {
    let text = common::read_data(&format!("puzzles/{name}"))?;
    let mut out = Vec::new();
    for line in text.lines().skip(skip) {
        if line.starts_with('#') || line.len() < 81 {
            continue;
        }
        let mut g = [0u8; 81];
        for (v, c) in g.iter_mut().zip(line.bytes()) {
            *v = match c {
                b'1'..=b'9' => c - b'0',
                _ => 0,
            };
        }
        out.push(g);
        if out.len() == SAMPLE {
            break;
        }
    }
    Some(out)
}

/// Reference: plain recursive search over cells in order with row/column/box digit masks,
/// counting up to `limit`. Returns the count and the first solution.
fn reference(values: &[u8; 81], limit: u32) -> (u32, Option<[u8; 81]>) {
    struct R {
        cells: [u8; 81],
        used: [[bool; 10]; 27],
        count: u32,
        limit: u32,
        first: Option<[u8; 81]>,
    }
    fn houses(i: usize) -> [usize; 3] {
        let (r, c) = (i / 9, i % 9);
        [r, 9 + c, 18 + r / 3 * 3 + c / 3]
    }
    fn go(s: &mut R) {
        // Most constrained empty cell.
        let mut best = None;
        let mut best_n = 10;
        for i in 0..81 {
            if s.cells[i] != 0 {
                continue;
            }
            let h = houses(i);
            let n = (1..=9)
                .filter(|&v| h.iter().all(|&k| !s.used[k][v]))
                .count();
            if n < best_n {
                best_n = n;
                best = Some(i);
            }
        }
        let Some(i) = best else {
            s.count += 1;
            if s.first.is_none() {
                s.first = Some(s.cells);
            }
            return;
        };
        let h = houses(i);
        for v in 1..=9usize {
            if s.count >= s.limit {
                return;
            }
            if h.iter().any(|&k| s.used[k][v]) {
                continue;
            }
            s.cells[i] = v as u8;
            for &k in &h {
                s.used[k][v] = true;
            }
            go(s);
            for &k in &h {
                s.used[k][v] = false;
            }
        }
        s.cells[i] = 0;
    }
    let mut s = R {
        cells: *values,
        used: [[false; 10]; 27],
        count: 0,
        limit,
        first: None,
    };
    for (i, &v) in values.iter().enumerate() {
        if v == 0 {
            continue;
        }
        for k in houses(i) {
            if s.used[k][v as usize] {
                return (0, None);
            }
            s.used[k][v as usize] = true;
        }
    }
    go(&mut s);
    (s.count, s.first)
}

/// Every row, column and box holds 1..=9 and the givens are kept.
fn check_solution(givens: &[u8; 81], sol: &[u8; 81]) {
    for i in 0..81 {
        assert!((1..=9).contains(&sol[i]), "cell {i} not a digit");
        assert!(givens[i] == 0 || givens[i] == sol[i], "given {i} changed");
    }
    for k in 0..9 {
        let (mut r, mut c, mut b) = (0u16, 0u16, 0u16);
        for j in 0..9 {
            r |= 1 << sol[9 * k + j];
            c |= 1 << sol[9 * j + k];
            b |= 1 << sol[(k / 3 * 3 + j / 3) * 9 + k % 3 * 3 + j % 3];
        }
        assert_eq!((r, c, b), (0x3fe, 0x3fe, 0x3fe), "house {k} broken");
    }
}

fn check_against_reference(name: &str, expect_multiple: bool) {
    check_against_reference_from(name, 0, expect_multiple);
}

fn check_against_reference_from(name: &str, skip: usize, expect_multiple: bool) {
    let Some(puzzles) = load_from(name, skip) else {
        return;
    };
    for (n, p) in puzzles.iter().enumerate() {
        let (ref_count, ref_first) = reference(p, 2);
        let got = analyze(p);
        match (&got, ref_count) {
            (Solutions::None, 0) | (Solutions::Multiple, 2) => {}
            (Solutions::Unique(sol), 1) => {
                check_solution(p, sol);
                assert_eq!(Some(**sol), ref_first, "{name} #{n}: solution differs");
            }
            _ => panic!("{name} #{n}: analyze gave {got:?}, reference count {ref_count}"),
        }
        assert_eq!(count_solutions(p, 2), ref_count, "{name} #{n}");
        if expect_multiple {
            assert_eq!(got, Solutions::Multiple, "{name} #{n}");
            assert_eq!(count_solutions(p, 2), 2, "{name} #{n}");
        }
        if let Some(s) = solve(p) {
            check_solution(p, &s);
        } else {
            assert_eq!(ref_count, 0, "{name} #{n}: solve found nothing");
        }
    }
}

#[test]
fn seventeen_clue_matches_reference() {
    check_against_reference("17-clue.txt", false);
}

#[test]
fn top1465_matches_reference() {
    check_against_reference("top1465.txt", false);
}

/// Hard puzzles (many guesses each), away from the first 5,000 lines the solver was tuned on.
#[test]
fn hardest_matches_reference() {
    check_against_reference_from("hardest-1905-11plus.txt", 20_000, false);
}

#[test]
fn unbiased_matches_reference() {
    check_against_reference("unbiased-1000.txt", false);
}

#[test]
fn multi_solution_puzzles_are_multiple() {
    check_against_reference("multi-solution-10000.txt", true);
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn random_masks_of_a_solution() {
    let solution: [u8; 81] = std::array::from_fn(|i| {
        b"812753649943682175675491283154237896369845721287169534521974368438526917796318452"[i]
            - b'0'
    });
    check_solution(&[0; 81], &solution);
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    for round in 0..3000 {
        // Keep each cell with a probability between 1/8 and 7/8.
        let keep = 1 + rng.next() % 7;
        let mut g = [0u8; 81];
        for i in 0..81 {
            if rng.next() % 8 < keep {
                g[i] = solution[i];
            }
        }
        let s = solve(&g).expect("a mask of a solution is solvable");
        check_solution(&g, &s);
        let n = count_solutions(&g, 2);
        assert!(n >= 1, "round {round}");
        match analyze(&g) {
            Solutions::Unique(u) => {
                assert_eq!(n, 1, "round {round}");
                assert_eq!(
                    *u, solution,
                    "round {round}: unique but not the source grid"
                );
            }
            Solutions::Multiple => assert_eq!(n, 2, "round {round}"),
            Solutions::None => panic!("round {round}: no solution"),
        }
        // Cross-check the count against the reference on sparser masks now and then.
        if round % 10 == 0 {
            assert_eq!(reference(&g, 2).0, n, "round {round}");
        }
    }
}

//! Tests of the brute-force solver.

use super::*;

/// One step of a xorshift generator: the tests' random grids and words.
fn xorshift(x: &mut u64) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
}

/// A grid of 81 values, each `value(x)` of the generator's next state `x`.
fn random_grid(x: &mut u64, value: impl Fn(u64) -> u8) -> [u8; 81] {
    let mut g = [0u8; 81];
    for v in g.iter_mut() {
        xorshift(x);
        *v = value(*x);
    }
    g
}

fn parse(s: &str) -> [u8; 81] {
    let mut v = [0u8; 81];
    for (i, c) in s.chars().take(81).enumerate() {
        v[i] = c.to_digit(10).unwrap_or(0) as u8;
    }
    v
}

fn valid_solution(givens: &[u8; 81], sol: &[u8; 81]) -> bool {
    for i in 0..81 {
        if !(1..=9).contains(&sol[i]) || (givens[i] != 0 && givens[i] != sol[i]) {
            return false;
        }
    }
    for k in 0..9 {
        let (mut r, mut c, mut b) = (0u16, 0u16, 0u16);
        for j in 0..9 {
            r |= 1 << sol[9 * k + j];
            c |= 1 << sol[9 * j + k];
            b |= 1 << sol[(k / 3 * 3 + j / 3) * 9 + k % 3 * 3 + j % 3];
        }
        if r != 0x3fe || c != 0x3fe || b != 0x3fe {
            return false;
        }
    }
    true
}

const KNOWN: [(&str, &str); 3] = [
    (
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382",
    ),
    (
        // A 17-clue puzzle.
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
        "",
    ),
    (
        // "AI escargot".
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        "162857493534129678789643521475312986913586742628794135356478219241935867897261354",
    ),
];

#[test]
fn known_puzzles() {
    for (p, s) in KNOWN {
        let g = parse(p);
        let Solutions::Unique(sol) = analyze(&g) else {
            panic!("not unique: {p}");
        };
        assert!(valid_solution(&g, &sol), "{p}");
        if !s.is_empty() {
            assert_eq!(*sol, parse(s), "{p}");
        }
        assert_eq!(solve(&g), Some(*sol));
        assert_eq!(count_solutions(&g, 5), 1);
    }
}

#[test]
fn hard_puzzle() {
    let g =
        parse("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..");
    let Solutions::Unique(sol) = analyze(&g) else {
        panic!("not unique");
    };
    assert_eq!(
        *sol,
        parse("812753649943682175675491283154237896369845721287169534521974368438526917796318452")
    );
}

#[test]
fn empty_grid_counts_to_limit() {
    let g = [0u8; 81];
    assert_eq!(count_solutions(&g, 0), 0);
    assert_eq!(count_solutions(&g, 1), 1);
    assert_eq!(count_solutions(&g, 1000), 1000);
    assert_eq!(analyze(&g), Solutions::Multiple);
    let sol = solve(&g).expect("empty grid has solutions");
    assert!(valid_solution(&g, &sol));
}

#[test]
fn clashing_givens_give_zero() {
    // Same digit twice in a row, a column, a box.
    for (a, b) in [(0, 8), (0, 72), (0, 20)] {
        let mut g = [0u8; 81];
        g[a] = 5;
        g[b] = 5;
        assert_eq!(count_solutions(&g, 2), 0);
        assert_eq!(analyze(&g), Solutions::None);
        assert_eq!(solve(&g), None);
    }
    // Values above 9 are rejected.
    let mut g = [0u8; 81];
    g[40] = 10;
    assert_eq!(count_solutions(&g, 2), 0);
    g[40] = 255;
    assert_eq!(analyze(&g), Solutions::None);
}

#[test]
fn unsolvable_without_direct_clash() {
    // Row 0 misses only 9 but column 8 already has a 9.
    let g =
        parse("12345678.........9...............................................................");
    assert_eq!(count_solutions(&g, 2), 0);
    assert_eq!(analyze(&g), Solutions::None);
}

#[test]
fn multiple_solutions() {
    // Swapping two digits in a solved grid where they form a rectangle.
    let mut g = parse(KNOWN[0].1);
    // Clear the four cells of a deadly pattern: find one by brute force.
    let sol = g;
    'outer: for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            if r1 / 3 == r2 / 3 {
                continue;
            }
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    if c1 / 3 != c2 / 3 {
                        continue;
                    }
                    let (a, b) = (sol[9 * r1 + c1], sol[9 * r1 + c2]);
                    if sol[9 * r2 + c1] == b && sol[9 * r2 + c2] == a {
                        for i in [9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2] {
                            g[i] = 0;
                        }
                        break 'outer;
                    }
                }
            }
        }
    }
    assert_eq!(g.iter().filter(|&&v| v == 0).count(), 4);
    assert_eq!(analyze(&g), Solutions::Multiple);
    assert_eq!(count_solutions(&g, 10), 2);
    assert_eq!(count_solutions(&g, 2), 2);
    assert_eq!(count_solutions(&g, 1), 1);
    let s = solve(&g).expect("solvable");
    assert!(valid_solution(&g, &s));
}

/// Counts solutions up to `limit` by plain backtracking, the cell with the fewest candidates
/// first: the reference for [`count_solutions`] on grids with many solutions.
fn reference_count(g: &mut [u8; 81], limit: u32) -> u32 {
    let mut best: Option<(usize, u16)> = None;
    for i in (0..81).filter(|&i| g[i] == 0) {
        let (r, c) = (i / 9, i % 9);
        let mut free = 0x3FEu16;
        for j in 0..9 {
            let b = (r / 3 * 3 + j / 3) * 9 + c / 3 * 3 + j % 3;
            free &= !(1 << g[9 * r + j] | 1 << g[9 * j + c] | 1 << g[b]);
        }
        free &= 0x3FE;
        if best.is_none_or(|(_, m)| free.count_ones() < m.count_ones()) {
            best = Some((i, free));
        }
    }
    let Some((i, mut free)) = best else {
        return 1;
    };
    let mut n = 0;
    while free != 0 && n < limit {
        let v = free.trailing_zeros() as u8;
        free &= free - 1;
        g[i] = v;
        n += reference_count(g, limit - n);
    }
    g[i] = 0;
    n
}

#[test]
fn counts_of_grids_with_many_solutions_match_plain_backtracking() {
    // Known solutions with 40 to 60 random cells emptied: from a few solutions to thousands,
    // so that the search meets stalled boards of four unsolved cells (counted without a
    // guess) inside larger trees, with every limit's cut-off.
    let mut x = 0x0123_4567_89AB_CDEFu64;
    for round in 0..300 {
        let mut g = parse([KNOWN[0].1, KNOWN[2].1][round % 2]);
        xorshift(&mut x);
        let empty = 40 + (x % 21) as usize;
        let mut emptied = 0;
        while emptied < empty {
            xorshift(&mut x);
            let i = (x % 81) as usize;
            if g[i] != 0 {
                g[i] = 0;
                emptied += 1;
            }
        }
        for limit in [1, 2, 3, 7, 100] {
            let expected = reference_count(&mut g.clone(), limit);
            assert_eq!(count_solutions(&g, limit), expected, "limit {limit}: {g:?}");
        }
    }
}

/// Solved grids to look for patterns in: the known solutions, then solutions of random
/// sparse grids.
fn solved_grids() -> Vec<[u8; 81]> {
    let mut grids = vec![parse(KNOWN[0].1), parse(KNOWN[2].1)];
    let mut x = 0xDEAD_BEEF_1234_5678u64;
    while grids.len() < 40 {
        let mut g = [0u8; 81];
        for _ in 0..8 {
            xorshift(&mut x);
            g[(x % 81) as usize] = (x >> 8) as u8 % 9 + 1;
        }
        if let Some(s) = solve(&g) {
            grids.push(s);
        }
    }
    grids
}

#[test]
fn six_cells_left_in_two_rows_or_a_cycle_are_two_solutions() {
    // Two rows of a band and three columns of different stacks whose six values are the same
    // three digits, every column's two different: emptied, they leave a board of six unsolved
    // cells (two rows by three columns) with two solutions. Then three rows and three columns
    // with two cells each, a cycle holding one pair of digits: two solutions where no box
    // holds a single cell of it (a board the propagation then leaves with six cells).
    let (mut rows_found, mut cycles_found) = (0, 0);
    for sol in solved_grids() {
        let at = |r: usize, c: usize| sol[9 * r + c];
        for r1 in 0..9 {
            for r2 in r1 + 1..(r1 / 3 * 3 + 3) {
                for c1 in 0..3 {
                    for c2 in 3..6 {
                        for c3 in 6..9 {
                            let cols = [c1, c2, c3];
                            let set = |r| cols.iter().fold(0u16, |m, &c| m | 1 << at(r, c));
                            if set(r1) != set(r2) || cols.iter().any(|&c| at(r1, c) == at(r2, c)) {
                                continue;
                            }
                            let mut g = sol;
                            for c in cols {
                                g[9 * r1 + c] = 0;
                                g[9 * r2 + c] = 0;
                            }
                            assert_eq!(count_solutions(&g, 10), 2, "{g:?}");
                            assert_eq!(count_solutions(&g, 1), 1);
                            assert!(valid_solution(&g, &solve(&g).expect("solvable")));
                            rows_found += 1;
                        }
                    }
                }
            }
        }
        // A cycle r0c0 r0c1 r1c1 r1c2 r2c2 r2c0 holding a and b alternately (rows in order,
        // columns in every order: every such cycle once).
        for r0 in 0..9 {
            for r1 in r0 + 1..9 {
                for r2 in r1 + 1..9 {
                    for c0 in 0..9 {
                        for c1 in (0..9).filter(|&c| c != c0) {
                            for c2 in (0..9).filter(|&c| c != c0 && c != c1) {
                                let cells =
                                    [(r0, c0), (r0, c1), (r1, c1), (r1, c2), (r2, c2), (r2, c0)];
                                let (a, b) = (at(r0, c0), at(r0, c1));
                                if cells
                                    .iter()
                                    .enumerate()
                                    .any(|(k, &(r, c))| at(r, c) != if k % 2 == 0 { a } else { b })
                                {
                                    continue;
                                }
                                let mut g = sol;
                                for (r, c) in cells {
                                    g[9 * r + c] = 0;
                                }
                                // two solutions unless a box holds one cell of the cycle
                                let n = count_solutions(&g, 10);
                                assert_eq!(n, reference_count(&mut g.clone(), 10), "{g:?}");
                                assert!(valid_solution(&g, &solve(&g).expect("solvable")));
                                cycles_found += (n == 2) as usize;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        rows_found > 0 && cycles_found > 0,
        "{rows_found} {cycles_found}"
    );
}

#[test]
fn solved_grid() {
    let g = parse(KNOWN[2].1);
    assert_eq!(solve(&g), Some(g));
    assert_eq!(analyze(&g), Solutions::Unique(Box::new(g)));
    assert_eq!(count_solutions(&g, 3), 1);
}

impl Board {
    /// The straightforward construction, given by given: the reference for [`Board::new`].
    fn new_reference(values: &[u8; 81]) -> Option<Board> {
        let mut b = Board {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: BAND,
            touched: BAND,
        };
        for (band, cells) in values.chunks_exact(27).enumerate() {
            for (pos, &v) in cells.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                if v > 9 {
                    return None;
                }
                let d = (v - 1) as usize;
                let bit = 1u32 << pos;
                if b.cand[3 * d + band] & bit == 0 {
                    return None;
                }
                // Remove the cell from every digit and the digit from every peer, then give
                // the cell back to its digit: the placement is complete, the cell solved.
                b.unsolved[band] &= !bit;
                for od in 0..9 {
                    b.cand[3 * od + band] &= !bit;
                }
                let col = COLUMN_IN_BAND[pos];
                for ob in 0..3 {
                    b.cand[3 * d + ob] &= !col;
                }
                b.cand[3 * d + band] = b.cand[3 * d + band] & !PEERS_IN_BAND[pos] | bit;
            }
        }
        Some(b)
    }
}

#[test]
fn board_new_matches_the_given_by_given_construction() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut grids: Vec<[u8; 81]> = KNOWN.iter().map(|(p, _)| parse(p)).collect();
    grids.push(parse(KNOWN[0].1));
    for _ in 0..5000 {
        grids.push(random_grid(&mut x, |x| match x & 15 {
            0..=3 => (x >> 8) as u8 % 10,
            4 => (x >> 8) as u8,
            _ => 0,
        }));
    }
    for g in &grids {
        let (a, b) = (Board::new(g), Board::new_reference(g));
        assert_eq!(a.is_some(), b.is_some(), "{g:?}");
        if let (Some(a), Some(b)) = (a, b) {
            assert_eq!(
                (a.cand, a.unsolved, a.dirty, a.touched),
                (b.cand, b.unsolved, b.dirty, b.touched)
            );
        }
    }
}

#[test]
fn cells_by_value_matches_the_portable_version() {
    // Every byte value in every cell (the SSE2 loads overlap in cells 11..16 of a band), then
    // random grids.
    let mut grids = Vec::new();
    for v in 0..=255u8 {
        for cell in 0..81 {
            let mut g = [0u8; 81];
            g[cell] = v;
            g[80 - cell] = v.wrapping_add(1);
            grids.push(g);
        }
    }
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..2000 {
        grids.push(random_grid(&mut x, |x| {
            if x & 7 == 0 {
                (x >> 8) as u8
            } else {
                (x >> 8) as u8 % 10
            }
        }));
    }
    for g in &grids {
        assert_eq!(cells_by_value(g), cells_by_value_portable(g), "{g:?}");
    }
}

/// The candidate word of 0-based digit `d` in `band`.
fn word(b: &Board, d: usize, band: usize) -> u32 {
    b.cand[3 * d + band]
}

#[test]
fn column_pass_box_in_one_column_clears_that_column_in_other_bands() {
    let mut b = Board::new(&[0; 81]).expect("empty grid");
    // Digit 1 in box 1 (band 0) only in column 2 (index 1).
    let col = |c: u32| (1u32 << c) * COPY_ROWS;
    b.cand[0] &= !(col(0) | col(2));
    assert!(b.column_singles());
    assert_eq!(word(&b, 0, 0), BAND & !(col(0) | col(2)));
    assert_eq!(word(&b, 0, 1), BAND & !col(1));
    assert_eq!(word(&b, 0, 2), BAND & !col(1));
    // Other digits are untouched.
    assert_eq!(word(&b, 1, 1), BAND);
}

#[test]
fn column_pass_column_in_one_band_keeps_its_box_to_that_column() {
    let mut b = Board::new(&[0; 81]).expect("empty grid");
    // Digit 1 in column 5 (index 4) only in band 0: box 2 of band 0 keeps column 5 only.
    let col = |c: u32| (1u32 << c) * COPY_ROWS;
    b.cand[1] &= !col(4);
    b.cand[2] &= !col(4);
    assert!(b.column_singles());
    assert_eq!(word(&b, 0, 0), BAND & !(col(3) | col(5)));
    assert_eq!(word(&b, 0, 1), BAND & !col(4));
    assert_eq!(word(&b, 0, 2), BAND & !col(4));
}

#[test]
fn column_pass_finds_column_hidden_single_and_empty_column() {
    let mut b = Board::new(&[0; 81]).expect("empty grid");
    // Digit 1 in column 1 only at r5c1 (band 1, row 1): its row keeps that cell only.
    let col0 = COPY_ROWS;
    b.cand[0] &= !col0;
    b.cand[1] &= !(col0 & !(1 << 9));
    b.cand[2] &= !col0;
    assert!(b.column_singles());
    assert_eq!(word(&b, 0, 1) & (ROW << 9), 1 << 9);
    // No candidate left in a column is a contradiction.
    let mut b = Board::new(&[0; 81]).expect("empty grid");
    for band in 0..3 {
        b.cand[3 * 4 + band] &= !col0;
    }
    assert!(!b.column_singles());
}

#[test]
fn column_pass_skips_untouched_digits() {
    let mut b = Board::new(&[0; 81]).expect("empty grid");
    b.touched = 0;
    let col = |c: u32| (1u32 << c) * COPY_ROWS;
    b.cand[0] &= !(col(0) | col(2));
    assert!(b.column_singles());
    assert_eq!(word(&b, 0, 1), BAND, "digit 1 was not marked as changed");
    b.touched = 1;
    assert!(b.column_singles());
    assert_eq!(word(&b, 0, 1), BAND & !col(1));
}

#[test]
fn pick_prefers_the_bivalue_cell_seeing_most_bivalue_cells_with_its_digits() {
    let mut b = Board::new(&[0; 81]).expect("empty grid");
    // Bivalue cells (digits 1 and 2): r1c1 and r2c5 in band 0, r9c1 and r9c2 in band 2.
    // Every peer holds digits 1 and 2; r9c1 sees r9c2 (row) and r1c1 (column): the most
    // bivalue peers.
    for (band, pos) in [(0, 0), (0, 13), (2, 18), (2, 19)] {
        for d in 2..9 {
            b.cand[3 * d + band] &= !(1 << pos);
        }
    }
    assert_eq!(b.pick(), (2, 18, 0b11));
}

#[test]
fn pick_counts_bivalue_peers_only_when_they_share_a_digit() {
    let mut b = Board::new(&[0; 81]).expect("empty grid");
    let keep = |b: &mut Board, band: usize, pos: u32, digits: [usize; 2]| {
        for d in (0..9).filter(|d| !digits.contains(d)) {
            b.cand[3 * d + band] &= !(1 << pos);
        }
    };
    // r1c1 {1,2} sees r1c2 and r1c3 {3,4}: two bivalue peers, neither holding 1 or 2.
    // r9c8 and r9c9 {1,2} see each other: one bivalue peer, sharing both digits.
    keep(&mut b, 0, 0, [0, 1]);
    keep(&mut b, 0, 1, [2, 3]);
    keep(&mut b, 0, 2, [2, 3]);
    keep(&mut b, 2, 25, [0, 1]);
    keep(&mut b, 2, 26, [0, 1]);
    assert_eq!(b.pick(), (2, 26, 0b11));
}

#[test]
fn mini_rows_by_pext_match_the_tables() {
    // Every 9-bit pattern in each row, then random words; the pext version only where the
    // CPU has BMI2 (as in the search).
    let mut words: Vec<u32> = (0..512).flat_map(|r| [r, r << 9, r << 18]).collect();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..20_000 {
        xorshift(&mut x);
        words.push(x as u32 & BAND);
    }
    for &a in &words {
        let mut expect = 0;
        for row in 0..3 {
            for bx in 0..3 {
                if a & (7 << (9 * row + 3 * bx)) != 0 {
                    expect |= 1 << (3 * row + bx);
                }
            }
        }
        assert_eq!(mini_rows::<false>(a), expect, "{a:#x}");
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            assert_eq!(mini_rows::<true>(a), expect, "{a:#x}");
        }
    }
}

#[test]
fn portable_and_bmi_searches_agree() {
    // The portable search (table lookups) is what CPUs without BMI2 run; here it is run
    // directly and compared with the dispatched one on known and random puzzles.
    let mut grids: Vec<[u8; 81]> = KNOWN.iter().map(|(p, _)| parse(p)).collect();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..300 {
        grids.push(random_grid(&mut x, |x| {
            if x.is_multiple_of(5) {
                (x >> 8) as u8 % 10
            } else {
                0
            }
        }));
    }
    for g in &grids {
        let Some(board) = Board::new(g) else {
            continue;
        };
        let mut portable = Search::new(3, true);
        portable.search(board);
        let mut dispatched = Search::new(3, true);
        dispatched.run(g);
        assert_eq!(portable.count, dispatched.count, "{g:?}");
        assert_eq!(portable.first, dispatched.first, "{g:?}");
        // Both BMI2 builds, with and without `pext`, whichever `run` chose.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
        {
            let mut tables = Search::new(3, true);
            let mut pext = Search::new(3, true);
            // SAFETY: the features `search_bmi` is compiled for were just detected.
            unsafe {
                tables.search_bmi::<false>(board);
                pext.search_bmi::<true>(board);
            }
            assert_eq!(
                (tables.count, tables.first),
                (portable.count, portable.first)
            );
            assert_eq!((pext.count, pext.first), (portable.count, portable.first));
        }
    }
}

#[test]
fn cell_digits_match_digits_at() {
    // Boards met while solving known puzzles and random grids: every cell's digit mask.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut boards: Vec<Board> = KNOWN
        .iter()
        .filter_map(|(p, _)| Board::new(&parse(p)))
        .collect();
    for _ in 0..200 {
        let mut b = Board::new(&[0; 81]).expect("empty grid");
        for w in b.cand.iter_mut() {
            xorshift(&mut x);
            *w = x as u32 & BAND;
        }
        boards.push(b);
    }
    for b in &boards {
        let digits = CellDigits::new(b);
        for band in 0..3 {
            for pos in 0..27 {
                assert_eq!(digits.at(band, pos), b.digits_at(band, pos));
            }
        }
    }
}

#[test]
fn board_copy_is_two_cache_lines() {
    // Each guess copies the board: 27 candidate words, the unsolved cells and two masks,
    // no per-row bookkeeping (a row holding a solved cell is a placed row).
    assert_eq!(std::mem::size_of::<Board>(), 128);
}

#[test]
fn placed_rows_are_not_placed_again() {
    // A solved grid with one cell emptied: the search places the given rows once and the
    // one open cell from its row, column and box; the unsolved mask ends empty.
    let sol = parse(KNOWN[0].1);
    let mut g = sol;
    g[40] = 0;
    let mut b = Board::new(&g).expect("valid");
    assert!(b.propagate::<false>());
    assert!(b.solved());
    let mut out = [0u8; 81];
    b.write_solution(&mut out);
    assert_eq!(out, sol);
}

#[test]
fn never_panics_on_odd_input() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..2000 {
        let g = random_grid(&mut x, |x| if x & 3 == 0 { (x >> 8) as u8 % 10 } else { 0 });
        let n = count_solutions(&g, 3);
        assert!(n <= 3);
        match analyze(&g) {
            Solutions::Unique(s) => {
                assert_eq!(n, 1);
                assert!(valid_solution(&g, &s));
            }
            Solutions::Multiple => assert!(n >= 2),
            Solutions::None => assert_eq!(n, 0),
        }
    }
}

//! Unit tests of the fish finder.

use super::*;

/// The quick test on line masks agrees with the test on cell sets for every choice of two
/// to four base lines, both ways round, with and without fins, for every digit of a 9x9
/// and a 16x16 position.
#[test]
fn basic_fish_test_on_line_masks_is_the_one_on_cells() {
    fn check<S: Shape>(line: &str) -> usize {
        let puzzle = crate::text::Puzzle::parse(line).expect("a puzzle");
        let grid = puzzle.grid(S::geometry(puzzle.layout()));
        let geo = grid.geometry();
        let [rows, cols, _] = kinds::<S>();
        let mut possible = 0;
        let mut found = |_: &FoundFish<S>| ControlFlow::Continue(());
        for digit in 1..=S::N as u8 {
            let cands = grid.digit_cells(digit);
            for (base_kind, cover_allowed) in [(rows, cols), (cols, rows)] {
                let lines: Vec<usize> = base_kind
                    .ones()
                    .filter(|&h| geo.house_at(h).intersects(cands))
                    .collect();
                for size in 2..=4 {
                    for fins_allowed in [false, true] {
                        let s = Search::new(
                            &grid,
                            digit,
                            size,
                            cover_allowed,
                            fins_allowed,
                            &mut found,
                        );
                        // every `size` of the lines, by the bits of a counter
                        for pick in 0u32..1 << lines.len() {
                            if pick.count_ones() as usize != size {
                                continue;
                            }
                            let (mut base, mut cells) = (S::Houses::ZERO, CellSet::EMPTY);
                            for i in ones_u32(pick) {
                                base = base.or(S::Houses::bit(lines[i]));
                                cells |= geo.house_at(lines[i]) & cands;
                            }
                            let quick = basic_fish_possible(&s, base);
                            assert_eq!(
                                quick,
                                basic_fish_possible_on_cells(&s, cells),
                                "digit {digit}, size {size}, fins {fins_allowed}"
                            );
                            possible += quick as usize;
                        }
                    }
                }
            }
        }
        possible
    }
    assert!(
        check::<S9>(
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
        ) > 0
    );
    let line = concat!(
        "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6",
        ".....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.",
        "D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1"
    );
    assert!(check::<crate::model::S16>(line) > 0);
}

fn cells(list: &[(u8, u8)]) -> CellSet {
    list.iter().map(|&(r, c)| Cell::at(r - 1, c - 1)).collect()
}

#[test]
fn houses_are_named_in_words_grouped_by_kind() {
    assert_eq!(houses_words::<S9>(1 << 1 | 1 << 4), "rows r2,r5");
    assert_eq!(houses_words::<S9>(1 << 9), "column c1");
    assert_eq!(
        houses_words::<S9>(1 << 1 | 1 << 7 | 1 << 24),
        "rows r2,r8 and box b7"
    );
}

#[test]
fn a_fish_is_spelled_out_with_its_fins() {
    let fish = |fins: CellSet, endo: CellSet| FoundFish::<S9> {
        digit: 4,
        size: 2,
        base: 1 << 1 | 1 << 4,
        cover: 1 << 14 | 1 << 17,
        base_cells: CellSet::EMPTY,
        cover_cells: CellSet::EMPTY,
        fins,
        endo_fins: endo,
        eliminations: CellSet::EMPTY,
    };
    assert_eq!(
        fish_words(&fish(CellSet::EMPTY, CellSet::EMPTY)),
        "4 in rows r2,r5 lies in columns c6,c9"
    );
    assert_eq!(
        fish_words(&fish(cells(&[(5, 4)]), CellSet::EMPTY)),
        "4 in rows r2,r5 lies in columns c6,c9 except fin r5c4"
    );
    let endo = cells(&[(5, 5)]);
    assert_eq!(
        fish_words(&fish(cells(&[(5, 4), (5, 6)]) | endo, endo)),
        "4 in rows r2,r5 lies in columns c6,c9 except fins r5c4,r5c6 and endo fin r5c5"
    );
}

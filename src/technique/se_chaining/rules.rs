//! The simple rules SE applies on a hypothetical grid once a propagation has nothing left to
//! follow (dynamic (+) chains and nested ones): locked candidates, hidden pairs, naked pairs
//! and X-Wings, in SE's order of search, each with the potentials it rests on (SE's
//! `getRuleParents`: the candidates the propagation removed that the pattern needs).

use super::engine::{Advanced, Board, HOUSE_CELLS, cand};
use crate::geometry::House;

/// One hint of a simple rule: what it removes and the candidates, removed since the
/// propagation started, it rests on.
pub(crate) struct RuleHint {
    pub removals: Vec<u16>,
    pub parents: Vec<u16>,
    pub what: Advanced,
}

/// The simple rules, in the order SE tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Simple {
    Locking,
    HiddenPair,
    NakedPair,
    XWing,
}

impl Simple {
    /// Every simple rule, in SE's order.
    pub const ALL: [Simple; 4] = [
        Simple::Locking,
        Simple::HiddenPair,
        Simple::NakedPair,
        Simple::XWing,
    ];

    /// The rule's hints on `board` (with `save` the grid the propagation started from), in
    /// SE's order; only those that remove something.
    pub fn hints(self, board: &Board, save: &Board, out: &mut Vec<RuleHint>) {
        match self {
            Simple::Locking => locking(board, save, out),
            Simple::HiddenPair => hidden_pairs(board, save, out),
            Simple::NakedPair => naked_pairs(board, save, out),
            Simple::XWing => x_wings(board, save, out),
        }
    }
}

/// Pairs of house indices SE crosses for locked candidates: (box, column), (box, row),
/// (column, box), (row, box), by index within each kind.
fn locking(board: &Board, save: &Board, out: &mut Vec<RuleHint>) {
    const BOX: usize = 18;
    const ROW: usize = 0;
    const COL: usize = 9;
    for (t1, t2) in [(BOX, COL), (BOX, ROW), (COL, BOX), (ROW, BOX)] {
        for i1 in 0..9 {
            for i2 in 0..9 {
                let (h1, h2) = (t1 + i1, t2 + i2);
                let (c1, c2) = (
                    House::from_index(h1 as u8).cells(),
                    House::from_index(h2 as u8).cells(),
                );
                if !c1.intersects(c2) {
                    continue;
                }
                for d in 1..=9u8 {
                    let pos = board.positions(h1, d);
                    if pos.count_ones() <= 1 {
                        continue;
                    }
                    let all_in = (0..9)
                        .filter(|i| pos >> i & 1 != 0)
                        .all(|i| c2.contains(crate::geometry::Cell::new(HOUSE_CELLS[h1][i])));
                    if !all_in {
                        continue;
                    }
                    let removals: Vec<u16> = HOUSE_CELLS[h2]
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| {
                            !c1.contains(crate::geometry::Cell::new(c as u8)) && board.has(c, d)
                        })
                        .map(|c| cand(c, d))
                        .collect();
                    if removals.is_empty() {
                        continue;
                    }
                    let parents = HOUSE_CELLS[h1]
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| {
                            save.has(c, d)
                                && !board.has(c, d)
                                && !c2.contains(crate::geometry::Cell::new(c as u8))
                        })
                        .map(|c| cand(c, d))
                        .collect();
                    out.push(RuleHint {
                        removals,
                        parents,
                        what: Advanced::Locked {
                            digit: d,
                            base: h1 as u8,
                            cover: h2 as u8,
                        },
                    });
                }
            }
        }
    }
}

/// The houses SE scans for subsets, in its order: boxes, columns, rows.
fn subset_houses() -> impl Iterator<Item = usize> {
    (18..27).chain(9..18).chain(0..9)
}

/// Pairs (i, j), i < j < 9, in SE's order (by j, then i).
fn pairs() -> impl Iterator<Item = (usize, usize)> {
    (1..9).flat_map(|j| (0..j).map(move |i| (i, j)))
}

fn hidden_pairs(board: &Board, save: &Board, out: &mut Vec<RuleHint>) {
    for h in subset_houses() {
        if board.empty_count(h) <= 4 {
            continue;
        }
        for (i, j) in pairs() {
            let (a, b) = (i as u8 + 1, j as u8 + 1);
            let (pa, pb) = (board.positions(h, a), board.positions(h, b));
            if pa.count_ones() <= 1 || pb.count_ones() <= 1 || (pa | pb).count_ones() != 2 {
                continue;
            }
            let both = pa | pb;
            let keep: u16 = 1 << (a - 1) | 1 << (b - 1);
            let mut removals = Vec::new();
            for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
                if both >> k & 1 != 0 {
                    let extra = board.cands[c as usize] & !keep;
                    for d in 1..=9u8 {
                        if extra >> (d - 1) & 1 != 0 {
                            removals.push(cand(c as usize, d));
                        }
                    }
                }
            }
            if removals.is_empty() {
                continue;
            }
            let mut parents = Vec::new();
            for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
                if both >> k & 1 == 0 {
                    for d in [a, b] {
                        if save.has(c as usize, d) {
                            parents.push(cand(c as usize, d));
                        }
                    }
                }
            }
            out.push(RuleHint {
                removals,
                parents,
                what: Advanced::HiddenPair {
                    house: h as u8,
                    digits: keep,
                },
            });
        }
    }
}

fn naked_pairs(board: &Board, save: &Board, out: &mut Vec<RuleHint>) {
    for h in subset_houses() {
        if board.empty_count(h) < 4 {
            continue;
        }
        for (i, j) in pairs() {
            let (ca, cb) = (HOUSE_CELLS[h][i] as usize, HOUSE_CELLS[h][j] as usize);
            let (ma, mb) = (board.cands[ca], board.cands[cb]);
            if ma.count_ones() <= 1 || mb.count_ones() <= 1 || (ma | mb).count_ones() != 2 {
                continue;
            }
            let both = ma | mb;
            let mut removals = Vec::new();
            for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
                if k != i && k != j {
                    let hit = board.cands[c as usize] & both;
                    for d in 1..=9u8 {
                        if hit >> (d - 1) & 1 != 0 {
                            removals.push(cand(c as usize, d));
                        }
                    }
                }
            }
            if removals.is_empty() {
                continue;
            }
            let mut parents = Vec::new();
            for c in [ca, cb] {
                let gone = save.cands[c] & !both;
                for d in 1..=9u8 {
                    if gone >> (d - 1) & 1 != 0 {
                        parents.push(cand(c, d));
                    }
                }
            }
            out.push(RuleHint {
                removals,
                parents,
                what: Advanced::NakedPair {
                    house: h as u8,
                    cells: [ca as u8, cb as u8],
                },
            });
        }
    }
}

fn x_wings(board: &Board, save: &Board, out: &mut Vec<RuleHint>) {
    // Base columns covered by rows, then base rows covered by columns.
    for (base_kind, cover_kind) in [(9usize, 0usize), (0, 9)] {
        for (i, j) in pairs() {
            for d in 1..=9u8 {
                if board.value_count(d) + 4 > 9 {
                    continue;
                }
                let (pa, pb) = (
                    board.positions(base_kind + i, d),
                    board.positions(base_kind + j, d),
                );
                if pa.count_ones() <= 1 || pb.count_ones() <= 1 || (pa | pb).count_ones() != 2 {
                    continue;
                }
                let covers = pa | pb;
                let bases: u16 = 1 << i | 1 << j;
                let mut removals = Vec::new();
                for k in 0..9 {
                    if covers >> k & 1 != 0 {
                        let extra = board.positions(cover_kind + k, d) & !bases;
                        for (m, &c) in HOUSE_CELLS[cover_kind + k].iter().enumerate() {
                            if extra >> m & 1 != 0 {
                                removals.push(cand(c as usize, d));
                            }
                        }
                    }
                }
                if removals.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for b in [i, j] {
                    for (m, &c) in HOUSE_CELLS[base_kind + b].iter().enumerate() {
                        let c = c as usize;
                        if covers >> m & 1 == 0 && save.has(c, d) && !board.has(c, d) {
                            parents.push(cand(c, d));
                        }
                    }
                }
                out.push(RuleHint {
                    removals,
                    parents,
                    what: Advanced::XWing {
                        digit: d,
                        bases: [(base_kind + i) as u8, (base_kind + j) as u8],
                    },
                });
            }
        }
    }
}

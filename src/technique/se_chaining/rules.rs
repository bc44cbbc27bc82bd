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

/// The cells of house `h` as a bitset.
#[inline]
fn cells(h: usize) -> u128 {
    House::from_index(h as u8).cells().bits()
}

/// The candidates of `digit` in the cells of `mask`, in cell order.
fn cands_of(mask: u128, digit: u8, out: &mut Vec<u16>) {
    let mut m = mask;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        out.push(cand(c, digit));
    }
}

/// The candidates of `cell` for the digits of `mask` (bit d-1 for digit d), in digit order.
fn digits_of(cell: usize, mask: u16, out: &mut Vec<u16>) {
    for d in 1..=9u8 {
        if mask >> (d - 1) & 1 != 0 {
            out.push(cand(cell, d));
        }
    }
}

/// Locked candidates as SE crosses houses: (box, column), (box, row), (column, box), (row, box),
/// by index within each kind, digits in order.
fn locking(board: &Board, save: &Board, out: &mut Vec<RuleHint>) {
    const BOX: usize = 18;
    const ROW: usize = 0;
    const COL: usize = 9;
    for (t1, t2) in [(BOX, COL), (BOX, ROW), (COL, BOX), (ROW, BOX)] {
        for i1 in 0..9 {
            for i2 in 0..9 {
                let (h1, h2) = (t1 + i1, t2 + i2);
                let (c1, c2) = (cells(h1), cells(h2));
                if c1 & c2 == 0 {
                    continue;
                }
                for d in 1..=9u8 {
                    let di = d as usize - 1;
                    let pos = board.digits[di] & c1;
                    if pos.count_ones() <= 1 || pos & !c2 != 0 {
                        continue;
                    }
                    let gone = board.digits[di] & c2 & !c1;
                    if gone == 0 {
                        continue;
                    }
                    let mut removals = Vec::new();
                    cands_of(gone, d, &mut removals);
                    let mut parents = Vec::new();
                    cands_of(
                        save.digits[di] & !board.digits[di] & c1 & !c2,
                        d,
                        &mut parents,
                    );
                    out.push(RuleHint {
                        removals,
                        parents,
                        what: Advanced::Locked {
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
        let hc = cells(h);
        if (board.empty & hc).count_ones() <= 4 {
            continue;
        }
        for (i, j) in pairs() {
            let (a, b) = (i as u8 + 1, j as u8 + 1);
            let (pa, pb) = (board.digits[i] & hc, board.digits[j] & hc);
            if pa.count_ones() <= 1 || pb.count_ones() <= 1 || (pa | pb).count_ones() != 2 {
                continue;
            }
            let both = pa | pb;
            let keep: u16 = 1 << (a - 1) | 1 << (b - 1);
            let mut removals = Vec::new();
            let mut m = both;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                let extra = board.cands[c] & !keep;
                digits_of(c, extra, &mut removals);
            }
            if removals.is_empty() {
                continue;
            }
            let mut parents = Vec::new();
            let mut m = hc & !both;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                for d in [a, b] {
                    if save.has(c, d) {
                        parents.push(cand(c, d));
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
        let hc = cells(h);
        if (board.empty & hc).count_ones() < 4 {
            continue;
        }
        for (i, j) in pairs() {
            let (ca, cb) = (HOUSE_CELLS[h][i] as usize, HOUSE_CELLS[h][j] as usize);
            let (ma, mb) = (board.cands[ca], board.cands[cb]);
            if ma.count_ones() <= 1 || mb.count_ones() <= 1 || (ma | mb).count_ones() != 2 {
                continue;
            }
            let both = ma | mb;
            let others = hc & !(1u128 << ca) & !(1u128 << cb);
            let mut removals = Vec::new();
            let mut m = others;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                let hit = board.cands[c] & both;
                digits_of(c, hit, &mut removals);
            }
            if removals.is_empty() {
                continue;
            }
            let mut parents = Vec::new();
            for c in [ca, cb] {
                let gone = save.cands[c] & !both;
                digits_of(c, gone, &mut parents);
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
                let di = d as usize - 1;
                if board.value_counts[di] as u32 + 4 > 9 {
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
                let (base_cells, mut cover_cells) =
                    (cells(base_kind + i) | cells(base_kind + j), 0);
                for k in 0..9 {
                    if covers >> k & 1 != 0 {
                        cover_cells |= cells(cover_kind + k);
                    }
                }
                let gone = board.digits[di] & cover_cells & !base_cells;
                if gone == 0 {
                    continue;
                }
                let mut removals = Vec::new();
                cands_of(gone, d, &mut removals);
                let mut parents = Vec::new();
                cands_of(
                    save.digits[di] & !board.digits[di] & base_cells & !cover_cells,
                    d,
                    &mut parents,
                );
                out.push(RuleHint {
                    removals,
                    parents,
                    what: Advanced::XWing {
                        bases: [(base_kind + i) as u8, (base_kind + j) as u8],
                    },
                });
            }
        }
    }
}

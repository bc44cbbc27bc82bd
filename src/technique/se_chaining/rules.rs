//! The simple rules SE applies on a hypothetical grid once a propagation has nothing left to
//! follow (dynamic (+) chains and nested ones): locked candidates, hidden pairs, naked pairs
//! and X-Wings, in SE's order of search, each with the potentials it rests on (SE's
//! `getRuleParents`: the candidates the propagation removed that the pattern needs).

use super::engine::{Advanced, Board, HOUSE_CELLS, cand};
use crate::model::cell::House;

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
    /// SE's order; only those that remove something. Patterns none of whose candidates
    /// `changed` are skipped.
    pub fn hints(self, board: &Board, save: &Board, changed: &Changed, out: &mut Vec<RuleHint>) {
        match self {
            Simple::Locking => locking(board, save, out),
            Simple::HiddenPair => hidden_pairs(board, save, changed, out),
            Simple::NakedPair => naked_pairs(board, save, changed, out),
            Simple::XWing => x_wings(board, save, changed, out),
        }
    }
}

/// Where a grid lost candidates since a larger grid on which no simple rule removes anything
/// (or everywhere, when there is none). Candidates only go, so a pattern none of whose
/// candidates changed still removes nothing: the rules look only at the others.
pub(crate) struct Changed {
    /// Per digit (0-based), the cells that lost it.
    digits: [u128; 9],
    /// The cells that lost any.
    cells: u128,
}

impl Changed {
    /// Every candidate (no clean grid known).
    pub const ALL: Changed = Changed {
        digits: [!0; 9],
        cells: !0,
    };

    /// What `board` lost since `clean` (the digits' cells of a grid it is part of).
    pub fn since(clean: &[u128; 9], board: &Board) -> Changed {
        let mut digits = [0u128; 9];
        let mut cells = 0;
        for (d, lost) in digits.iter_mut().enumerate() {
            *lost = clean[d] & !board.digits[d];
            cells |= *lost;
        }
        Changed { digits, cells }
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

/// The (base, cover) house pairs locked candidates cross, in SE's order: (box, column),
/// (box, row), (column, box), (row, box), by index within each kind; only pairs that meet.
const LOCKING_PAIRS: [(u8, u8); 108] = {
    const BOX: u8 = 18;
    const ROW: u8 = 0;
    const COL: u8 = 9;
    let mut out = [(0u8, 0u8); 108];
    let kinds = [(BOX, COL), (BOX, ROW), (COL, BOX), (ROW, BOX)];
    let mut n = 0;
    let mut k = 0;
    while k < 4 {
        let (t1, t2) = kinds[k];
        let mut i1 = 0;
        while i1 < 9 {
            let mut i2 = 0;
            while i2 < 9 {
                let meet = match k {
                    0 => i2 / 3 == i1 % 3,
                    1 => i2 / 3 == i1 / 3,
                    2 => i1 / 3 == i2 % 3,
                    _ => i1 / 3 == i2 / 3,
                };
                if meet {
                    out[n] = (t1 + i1, t2 + i2);
                    n += 1;
                }
                i2 += 1;
            }
            i1 += 1;
        }
        k += 1;
    }
    out
};

/// The digits of three cells: those in any, and those in two or more.
#[inline]
fn segment(board: &Board, cells: [usize; 3]) -> (u16, u16) {
    let [a, b, c] = cells.map(|i| board.cands[i]);
    (a | b | c, a & b | a & c | b & c)
}

/// Locked candidates as SE crosses houses ([`LOCKING_PAIRS`]), digits in order. A box and a
/// line meet in three cells (a segment): a digit in two or more of them, in no other cell of
/// the base, and in another cell of the cover, is locked. Worked out for all digits at once
/// from the segments' digits.
fn locking(board: &Board, save: &Board, out: &mut Vec<RuleHint>) {
    // Row segments by row * 3 + stack, column segments by column * 3 + band.
    let row_seg: [(u16, u16); 27] = std::array::from_fn(|i| {
        let (r, k) = (i / 3, i % 3);
        segment(board, [0, 1, 2].map(|j| r * 9 + 3 * k + j))
    });
    let col_seg: [(u16, u16); 27] = std::array::from_fn(|i| {
        let (c, band) = (i / 3, i % 3);
        segment(board, [0, 1, 2].map(|j| (3 * band + j) * 9 + c))
    });
    // The digits of the other two segments of a house, beside segment `at` of `segs`.
    let others = |segs: [usize; 3], at: usize, of: &[(u16, u16); 27]| -> u16 {
        segs.iter()
            .filter(|&&s| s != at)
            .fold(0, |m, &s| m | of[s].0)
    };
    for &(h1, h2) in &LOCKING_PAIRS {
        let (h1, h2) = (h1 as usize, h2 as usize);
        let (bx, line) = if h1 >= 18 {
            (h1 - 18, h2)
        } else {
            (h2 - 18, h1)
        };
        let (band, stack) = (bx / 3, bx % 3);
        // The segment, the rest of the box, the rest of the line.
        let (seg, box_rest, line_rest) = if line < 9 {
            let r = line;
            let at = r * 3 + stack;
            let in_box = [0, 1, 2].map(|i| (3 * band + i) * 3 + stack);
            let in_line = [0, 1, 2].map(|k| r * 3 + k);
            (
                row_seg[at],
                others(in_box, at, &row_seg),
                others(in_line, at, &row_seg),
            )
        } else {
            let c = line - 9;
            let at = c * 3 + band;
            let in_box = [0, 1, 2].map(|i| (3 * stack + i) * 3 + band);
            let in_line = [0, 1, 2].map(|b| c * 3 + b);
            (
                col_seg[at],
                others(in_box, at, &col_seg),
                others(in_line, at, &col_seg),
            )
        };
        let (base_rest, cover_rest) = if h1 >= 18 {
            (box_rest, line_rest)
        } else {
            (line_rest, box_rest)
        };
        let locked = seg.1 & !base_rest & cover_rest;
        if locked == 0 {
            continue;
        }
        let (c1, c2) = (cells(h1), cells(h2));
        for d in 1..=9u8 {
            if locked >> (d - 1) & 1 == 0 {
                continue;
            }
            let di = d as usize - 1;
            let mut removals = Vec::new();
            cands_of(board.digits[di] & c2 & !c1, d, &mut removals);
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

/// The houses SE scans for subsets, in its order: boxes, columns, rows.
fn subset_houses() -> impl Iterator<Item = usize> {
    (18..27).chain(9..18).chain(0..9)
}

/// Pairs (i, j), i < j < 9, in SE's order (by j, then i).
fn pairs() -> impl Iterator<Item = (usize, usize)> {
    (1..9).flat_map(|j| (0..j).map(move |i| (i, j)))
}

fn hidden_pairs(board: &Board, save: &Board, changed: &Changed, out: &mut Vec<RuleHint>) {
    for h in subset_houses() {
        let hc = cells(h);
        if (board.empty & hc).count_ones() <= 4 {
            continue;
        }
        // A hidden pair is two digits with the same two places.
        let mut two = 0u16;
        for d in 0..9 {
            two |= (((board.digits[d] & hc).count_ones() == 2) as u16) << d;
        }
        if two.count_ones() < 2 {
            continue;
        }
        for (i, j) in pairs() {
            if two >> i & two >> j & 1 == 0 || (changed.digits[i] | changed.digits[j]) & hc == 0 {
                continue;
            }
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

fn naked_pairs(board: &Board, save: &Board, changed: &Changed, out: &mut Vec<RuleHint>) {
    for h in subset_houses() {
        let hc = cells(h);
        if (board.empty & hc).count_ones() < 4 {
            continue;
        }
        // A naked pair is two cells with the same two values.
        let mut two = 0u16;
        for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
            two |= ((board.cands[c as usize].count_ones() == 2) as u16) << k;
        }
        if two.count_ones() < 2 {
            continue;
        }
        for (i, j) in pairs() {
            if two >> i & two >> j & 1 == 0 {
                continue;
            }
            let (ca, cb) = (HOUSE_CELLS[h][i] as usize, HOUSE_CELLS[h][j] as usize);
            if changed.cells & (1u128 << ca | 1u128 << cb) == 0 {
                continue;
            }
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

fn x_wings(board: &Board, save: &Board, changed: &Changed, out: &mut Vec<RuleHint>) {
    // Base columns covered by rows, then base rows covered by columns.
    for (base_kind, cover_kind) in [(9usize, 0usize), (0, 9)] {
        // Per base line, the digits with two places there (an X-Wing's bases), of those
        // placed at most five times.
        let mut open = 0u16;
        for (di, &n) in board.value_counts.iter().enumerate() {
            open |= ((n as u32 + 4 <= 9) as u16) << di;
        }
        let mut two = [0u16; 9];
        for (k, t) in two.iter_mut().enumerate() {
            let line = cells(base_kind + k);
            let mut m = open;
            while m != 0 {
                let di = m.trailing_zeros() as usize;
                m &= m - 1;
                *t |= (((board.digits[di] & line).count_ones() == 2) as u16) << di;
            }
        }
        for (i, j) in pairs() {
            let both = two[i] & two[j];
            if both == 0 {
                continue;
            }
            for d in 1..=9u8 {
                let di = d as usize - 1;
                if both >> di & 1 == 0
                    || changed.digits[di] & (cells(base_kind + i) | cells(base_kind + j)) == 0
                {
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

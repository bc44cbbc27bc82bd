//! [`ForcingNet`]: the proof of a forcing chain or net, kept as data in a [`Step`](crate::Step).
//!
//! A forcing net is a tree, not a line: each [`NetBranch`] starts from one assumption and lists
//! the implications it needs, each with its reason and the earlier implications it rests on,
//! until it reaches the conclusion the branches share or a contradiction. A renderer can draw it;
//! [`ForcingNet::write_text`] shows it as short indented branches.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use crate::geometry::{Cell, House};
use crate::grid::Candidate;

/// What the branches of a net prove together.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ForcingKind {
    /// One assumption leads to a contradiction, so its opposite holds.
    Contradiction,
    /// A candidate true and the same candidate false lead to the same conclusion.
    Double,
    /// Every candidate of a cell leads to the same conclusion.
    Cell(Cell),
    /// Every place for a digit in a house leads to the same conclusion.
    House(u8, House),
    /// A Kraken fish on the digit: every fin (and, for type 2, every base candidate of one
    /// cover house) leads to the same conclusion, which the fish gives when no fin is true.
    Fish(u8),
}

/// Why an implication of a branch holds.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Reason {
    /// The branch's assumption.
    Assumption,
    /// False: it shares a cell or a house with a true candidate (its parent).
    Peer,
    /// True: the last candidate left in its cell.
    LastInCell,
    /// True: the last place left for its digit in this house.
    LastInHouse(House),
    /// False: the digit is locked in the intersection of the first house with the second.
    Locked(House, House),
    /// False: a naked subset of these cells in this house holds the digit.
    NakedSubset(House, Vec<Cell>),
    /// False: a hidden subset of these digits in this house fills the cell.
    HiddenSubset(House, Vec<u8>),
    /// False: a fish on the digit with these base lines covers it.
    Fish(Vec<House>),
    /// False: assuming it true leads to a contradiction one level down (the nested branch).
    Nested(Box<NetBranch>),
}

/// One implication of a branch: a candidate made true or false, why, and the implications
/// (indices into the branch's list) it rests on.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Implication {
    /// The candidate.
    pub candidate: Candidate,
    /// Whether it is true (placed) or false (eliminated).
    pub on: bool,
    /// Why.
    pub reason: Reason,
    /// Indices of the earlier implications this one rests on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<u16>,
}

/// How a branch ends.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum BranchEnd {
    /// Its last implication is the conclusion the branches share.
    Conclusion,
    /// A cell is left without a candidate.
    EmptyCell(Cell),
    /// A digit is left without a place in a house.
    NoPlace(u8, House),
    /// A candidate is both true and false.
    Both(Candidate),
}

/// One branch of a net: an assumption and what follows from it. `implications[0]` is the
/// assumption; the last one is the conclusion unless the branch ends in a contradiction.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct NetBranch {
    /// The implications in the order they were found (parents come first).
    pub implications: Vec<Implication>,
    /// How the branch ends.
    pub end: BranchEnd,
    /// For a contradiction, the implications that meet in it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end_parents: Vec<u16>,
}

/// The proof of a forcing step: its kind and its branches.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ForcingNet {
    /// What the branches prove together.
    pub kind: ForcingKind,
    /// One branch per assumption.
    pub branches: Vec<NetBranch>,
}

/// `4r1c2` as `r1c2=4` (true) or `r1c2<>4` (false).
pub(crate) fn literal(candidate: Candidate, on: bool) -> String {
    let op = if on { "=" } else { "<>" };
    format!("{}{op}{}", candidate.cell, candidate.digit)
}

impl NetBranch {
    /// The branch's assumption.
    pub fn assumption(&self) -> Option<(Candidate, bool)> {
        self.implications.first().map(|i| (i.candidate, i.on))
    }

    /// Number of implications, nested branches included (what the difficulty's length bonus
    /// counts).
    pub fn size(&self) -> usize {
        self.implications
            .iter()
            .map(|i| match &i.reason {
                Reason::Nested(inner) => 1 + inner.size(),
                _ => 1,
            })
            .sum()
    }

    /// Writes the branch as indented lines, one implication per line; candidates removed by a
    /// true peer are left out (they follow from the line that made the peer true), except a
    /// conclusion.
    pub fn write_text(&self, out: &mut String, indent: usize) {
        let pad = " ".repeat(indent);
        for (k, imp) in self.implications.iter().enumerate() {
            let lit = literal(imp.candidate, imp.on);
            let parent = |j: usize| {
                imp.parents
                    .get(j)
                    .and_then(|&p| self.implications.get(p as usize))
                    .map(|p| literal(p.candidate, p.on))
                    .unwrap_or_default()
            };
            let why = match &imp.reason {
                Reason::Assumption if k == 0 => {
                    let _ = writeln!(out, "{pad}assume {lit}");
                    continue;
                }
                Reason::Assumption => "assumed".to_string(),
                // A candidate removed by a true peer goes without saying, unless it is what
                // the branch concludes.
                Reason::Peer
                    if k + 1 < self.implications.len() || self.end != BranchEnd::Conclusion =>
                {
                    continue;
                }
                Reason::Peer => format!("sees {}", parent(0)),
                Reason::LastInCell => format!("last candidate of {}", imp.candidate.cell),
                Reason::LastInHouse(h) => {
                    format!("last place for {} in {h}", imp.candidate.digit)
                }
                Reason::Locked(a, b) => {
                    format!("{} locked in {a} and {b}", imp.candidate.digit)
                }
                Reason::NakedSubset(h, cells) => {
                    let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
                    format!("naked subset {} in {h}", cells.join(","))
                }
                Reason::HiddenSubset(h, digits) => {
                    let d: String = digits.iter().map(|d| (b'0' + d) as char).collect();
                    format!("hidden subset {d} in {h}")
                }
                Reason::Fish(lines) => {
                    let l: Vec<String> = lines.iter().map(|h| h.to_string()).collect();
                    format!("fish on {} in {}", imp.candidate.digit, l.join(","))
                }
                Reason::Nested(inner) => {
                    let _ = writeln!(
                        out,
                        "{pad}{lit} ({} leads to a contradiction:",
                        literal(imp.candidate, true)
                    );
                    inner.write_text(out, indent + 4);
                    let _ = writeln!(out, "{pad})");
                    continue;
                }
            };
            let _ = writeln!(out, "{pad}{lit} ({why})");
        }
        let end = match self.end {
            BranchEnd::Conclusion => return,
            BranchEnd::EmptyCell(c) => format!("{c} has no candidate left"),
            BranchEnd::NoPlace(d, h) => format!("no place left for {d} in {h}"),
            BranchEnd::Both(c) => format!("{c} would be both true and false"),
        };
        let _ = writeln!(out, "{pad}contradiction: {end}");
    }
}

impl ForcingNet {
    /// Number of implications over every branch, nested ones included.
    pub fn size(&self) -> usize {
        self.branches.iter().map(NetBranch::size).sum()
    }

    /// Number of implications over every branch, a nested proof counting as one (what the
    /// difficulty's length bonus counts: a nested step is already rated by its level).
    pub fn length(&self) -> usize {
        self.branches.iter().map(|b| b.implications.len()).sum()
    }

    /// Writes the net as short indented branches, one implication per line.
    pub fn write_text(&self, out: &mut String, indent: usize) {
        for b in &self.branches {
            b.write_text(out, indent);
        }
    }
}

impl fmt::Display for ForcingNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_text(&mut s, 0);
        f.write_str(&s)
    }
}

//! [`ForcingNet`]: the proof of a forcing chain or net, kept as data in a [`Step`](crate::Step).
//!
//! A forcing net is a tree, not a line: each [`NetBranch`] starts from one assumption and lists
//! the implications it needs, each with its reason and the earlier implications it rests on,
//! until it reaches the conclusion the branches share or a contradiction. A renderer can draw it;
//! [`ForcingNet::write_text`] shows it as short indented branches.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use crate::model::Sym;
use crate::model::cell::{Cell, House, digits_compact};
use crate::model::grid::Candidate;

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
    format!("{}{op}{}", candidate.cell, Sym(candidate.digit))
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

    /// Writes the branch as indented lines: `assume …`, then one numbered line per implication
    /// with its reason and the implications it rests on in words (`4. r6c7=4 (last place for 4
    /// in r6: r6c9 sees r2c9 #1)`, `#1` naming line 1), then how it ends. A candidate removed
    /// by a true peer gets no line of its own (the line it serves says why it went), except a
    /// conclusion; a nested branch is indented under its line.
    pub fn write_text(&self, out: &mut String, indent: usize) {
        for line in self.proof_lines() {
            let pad = " ".repeat(indent + 4 * line.depth);
            let _ = writeln!(out, "{pad}{}", line.text);
        }
    }

    /// The branch's proof as lines for people: `assume …`, then one numbered line per
    /// implication with its reason and its parents in words (`4. r6c7=4 (last place for 4 in
    /// r6: r6c9 sees r2c9 #1)`, `#1` naming line 1), then how it ends. A candidate removed by a
    /// true peer gets no line of its own (the line it serves says why it went), except a
    /// conclusion. A nested branch's lines follow its implication's, one level deeper.
    pub(crate) fn proof_lines(&self) -> Vec<ProofLine> {
        let mut out = Vec::new();
        self.push_lines(&mut out, 0, None);
        out
    }

    /// Whether implication `k` gets a line of its own.
    fn shown(&self, k: usize) -> bool {
        let Some(imp) = self.implications.get(k) else {
            return false;
        };
        let conclusion = k + 1 == self.implications.len() && self.end == BranchEnd::Conclusion;
        k == 0 || imp.reason != Reason::Peer || conclusion
    }

    /// [`NetBranch::proof_lines`] at `depth`; `owner`, for a nested branch, is the implication
    /// of the branch above that it proves (its lines stand for that one on a drawing).
    fn push_lines(&self, out: &mut Vec<ProofLine>, depth: usize, owner: Option<u16>) {
        let mut numbers = vec![None; self.implications.len()];
        let mut n = 0;
        for (k, number) in numbers.iter_mut().enumerate().skip(1) {
            if self.shown(k) {
                n += 1;
                *number = Some(n);
            }
        }
        let words = Words {
            branch: self,
            numbers: &numbers,
        };
        let line = |text: String, imps: Vec<u16>, at: Option<Candidate>| ProofLine {
            depth,
            text,
            imps: owner.map_or(imps, |o| vec![o]),
            at,
        };
        for (k, imp) in self.implications.iter().enumerate() {
            let lit = literal(imp.candidate, imp.on);
            if k == 0 {
                out.push(line(format!("assume {lit}"), vec![0], Some(imp.candidate)));
                continue;
            }
            let Some(number) = numbers[k] else { continue };
            let ctx = match imp.reason {
                Reason::LastInHouse(_) => Ctx::House,
                Reason::LastInCell => Ctx::Cell,
                _ => Ctx::Any,
            };
            let parents = words.list(&imp.parents, ctx);
            let with = |why: String| match parents.is_empty() {
                true => why,
                false => format!("{why}: {parents}"),
            };
            let why = match &imp.reason {
                Reason::Assumption => "assumed".to_string(),
                Reason::Peer => match imp.parents.first() {
                    Some(&p) => words.peer(imp.candidate, usize::from(p), Ctx::Peer),
                    None => "sees a true peer".to_string(),
                },
                Reason::LastInCell => with(format!("last candidate of {}", imp.candidate.cell)),
                Reason::LastInHouse(h) => with(format!(
                    "last place for {} in {h}",
                    Sym(imp.candidate.digit)
                )),
                Reason::Locked(a, b) => with(format!(
                    "{} locked in {a} and {b}",
                    Sym(imp.candidate.digit)
                )),
                Reason::NakedSubset(h, cells) => {
                    let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
                    with(format!("naked subset {} in {h}", cells.join(",")))
                }
                Reason::HiddenSubset(h, digits) => {
                    let mask = digits.iter().fold(0u32, |m, &d| m | 1 << (d - 1));
                    with(format!("hidden subset {} in {h}", digits_compact(mask)))
                }
                Reason::Fish(lines) => {
                    let l: Vec<String> = lines.iter().map(|h| h.to_string()).collect();
                    with(format!(
                        "fish on {} in {}",
                        Sym(imp.candidate.digit),
                        l.join(",")
                    ))
                }
                Reason::Nested(inner) => {
                    let text = format!(
                        "{number}. {lit} ({} leads to a contradiction:",
                        literal(imp.candidate, true)
                    );
                    let k16 = k as u16;
                    out.push(line(text, vec![k16], Some(imp.candidate)));
                    inner.push_lines(out, depth + 1, Some(owner.unwrap_or(k16)));
                    out.push(line(")".to_string(), vec![k16], Some(imp.candidate)));
                    continue;
                }
            };
            let mut imps = vec![k as u16];
            imps.extend(
                imp.parents
                    .iter()
                    .filter(|&&p| words.hidden(usize::from(p))),
            );
            out.push(line(
                format!("{number}. {lit} ({why})"),
                imps,
                Some(imp.candidate),
            ));
        }
        let (end, ctx, at) = match self.end {
            BranchEnd::Conclusion => return,
            BranchEnd::EmptyCell(c) => (format!("{c} has no candidate left"), Ctx::Cell, None),
            BranchEnd::NoPlace(d, h) => (
                format!("no place left for {} in {h}", Sym(d)),
                Ctx::House,
                None,
            ),
            BranchEnd::Both(c) => (
                format!("{c} would be both true and false"),
                Ctx::Any,
                Some(c),
            ),
        };
        let parents = words.list(&self.end_parents, ctx);
        let text = match parents.is_empty() {
            true => format!("contradiction: {end}"),
            false => format!("contradiction: {end}: {parents}"),
        };
        let imps = self
            .end_parents
            .iter()
            .copied()
            .filter(|&p| words.hidden(usize::from(p)))
            .collect();
        out.push(line(text, imps, at));
    }
}

/// One line of a branch's proof, for the text trace and the page.
pub(crate) struct ProofLine {
    /// 0 for the branch's own lines, 1 for a nested branch's, and so on.
    pub(crate) depth: usize,
    /// The words, numbered (`3. r4c4=3 (…)`), without indentation.
    pub(crate) text: String,
    /// The implications of the top branch this line stands for: its own and those of the
    /// peer eliminations it tells of (on the page, the arrows into them light up with it).
    pub(crate) imps: Vec<u16>,
    /// The candidate the line is about, if one.
    pub(crate) at: Option<Candidate>,
}

/// What a list of parents is about: the places of one digit in a house, the candidates of one
/// cell, or anything.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    House,
    Cell,
    Peer,
    Any,
}

/// Parents in words, with the numbers of the lines they have.
struct Words<'a> {
    branch: &'a NetBranch,
    numbers: &'a [Option<usize>],
}

impl Words<'_> {
    /// ` #3` for an implication with line 3, else nothing.
    fn tag(&self, k: usize) -> String {
        self.numbers
            .get(k)
            .copied()
            .flatten()
            .map(|n| format!(" #{n}"))
            .unwrap_or_default()
    }

    /// Whether implication `k` is a peer elimination without a line of its own.
    fn hidden(&self, k: usize) -> bool {
        k > 0
            && self.numbers.get(k).is_some_and(Option::is_none)
            && self
                .branch
                .implications
                .get(k)
                .is_some_and(|i| i.reason == Reason::Peer)
    }

    /// Why `candidate` is false, its true peer being implication `p`: `r2c6 is 5 #1` (the same
    /// cell), `r9c6 sees r2c6` (a house; the digit is the list's), `3 sees r4c2` (a cell's
    /// list), or with the candidate named.
    fn peer(&self, candidate: Candidate, p: usize, ctx: Ctx) -> String {
        let Some(q) = self.branch.implications.get(p) else {
            return literal(candidate, false);
        };
        let tag = self.tag(p);
        let (cell, digit) = (candidate.cell, Sym(candidate.digit));
        if q.candidate.cell == cell {
            let is = format!("{cell} is {}{tag}", Sym(q.candidate.digit));
            return match ctx {
                Ctx::House | Ctx::Peer => is,
                Ctx::Cell => format!("{digit}: {is}"),
                Ctx::Any => format!("{} as {is}", literal(candidate, false)),
            };
        }
        let seen = q.candidate.cell;
        match ctx {
            Ctx::House => format!("{cell} sees {seen}{tag}"),
            Ctx::Cell => format!("{digit} sees {seen}{tag}"),
            Ctx::Peer => format!("sees {}{tag}", literal(q.candidate, q.on)),
            Ctx::Any => format!("{} as it sees {seen}{tag}", literal(candidate, false)),
        }
    }

    /// The parents in words, separated by commas.
    fn list(&self, parents: &[u16], ctx: Ctx) -> String {
        let words: Vec<String> = parents
            .iter()
            .map(|&p| usize::from(p))
            .filter_map(|p| {
                let imp = self.branch.implications.get(p)?;
                Some(if self.hidden(p) {
                    let q = imp.parents.first().map_or(0, |&q| usize::from(q));
                    self.peer(imp.candidate, q, ctx)
                } else {
                    format!("{}{}", literal(imp.candidate, imp.on), self.tag(p))
                })
            })
            .collect();
        words.join(", ")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pipeline::Pipeline;
    use crate::engine::trace::{Entry, Trace};
    use crate::solve_puzzle;
    use crate::step::Step;

    /// Every reason, kind and end, as the RON trace writes them (what docs/traces.md shows),
    /// read back the same.
    #[test]
    fn the_ron_schema_of_a_net_reads_back() {
        let c = |s: &str| s.parse::<Candidate>().unwrap();
        let cell = |s: &str| c(&format!("1{s}")).cell;
        let house = |s: &str| s.parse::<House>().unwrap();
        let imp = |cand: &str, on: bool, reason: Reason, parents: Vec<u16>| Implication {
            candidate: c(cand),
            on,
            reason,
            parents,
        };
        let inner = NetBranch {
            implications: vec![imp("1r1c3", true, Reason::Assumption, vec![])],
            end: BranchEnd::EmptyCell(cell("r2c2")),
            end_parents: vec![0],
        };
        let reasons = vec![
            imp("5r2c6", true, Reason::Assumption, vec![]),
            imp("4r2c6", false, Reason::Peer, vec![0]),
            imp("4r2c9", true, Reason::LastInHouse(house("r2")), vec![1]),
            imp("7r1c1", true, Reason::LastInCell, vec![1]),
            imp(
                "4r3c7",
                false,
                Reason::Locked(house("b1"), house("r3")),
                vec![1],
            ),
            imp(
                "7r7c2",
                false,
                Reason::NakedSubset(house("b7"), vec![cell("r8c3"), cell("r9c2")]),
                vec![1],
            ),
            imp(
                "1r5c3",
                false,
                Reason::HiddenSubset(house("c3"), vec![5, 9]),
                vec![1],
            ),
            imp(
                "1r4c2",
                false,
                Reason::Fish(vec![house("c3"), house("c4")]),
                vec![1],
            ),
            imp("1r1c3", false, Reason::Nested(Box::new(inner)), vec![]),
        ];
        let branch = NetBranch {
            implications: reasons,
            end: BranchEnd::NoPlace(3, house("c7")),
            end_parents: vec![2],
        };
        let mut trace: Trace = solve_puzzle(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            &Pipeline::default_pipeline(),
        );
        let kinds = [
            ForcingKind::Contradiction,
            ForcingKind::Double,
            ForcingKind::Cell(cell("r4c2")),
            ForcingKind::House(9, house("r4")),
            ForcingKind::Fish(4),
        ];
        for (k, kind) in kinds.into_iter().enumerate() {
            let step = Step::new("dynamic-forcing-chain", 8.5)
                .eliminate(cell("r2c6"), 5)
                .net(ForcingNet {
                    kind,
                    branches: vec![branch.clone()],
                });
            trace.entries.insert(k, Entry::Step(step));
        }
        let ron = trace.to_ron();
        for written in [
            "kind: Contradiction,",
            "kind: Double,",
            "kind: Cell(\"r4c2\"),",
            "kind: House(9, \"r4\"),",
            "kind: Fish(4),",
            "reason: Assumption,",
            "reason: Peer,\n          parents: [0],",
            "reason: LastInHouse(\"r2\"),",
            "reason: LastInCell,",
            "reason: Locked(\"b1\", \"r3\"),",
            "reason: NakedSubset(\"b7\", [\"r8c3\", \"r9c2\"]),",
            "reason: HiddenSubset(\"c3\", [5, 9]),",
            "reason: Fish([\"c3\", \"c4\"]),",
            "reason: Nested(\n            implications: [Implication(",
            "end: EmptyCell(\"r2c2\"),",
            "end: NoPlace(3, \"c7\"),\n        end_parents: [2],",
        ] {
            assert!(ron.contains(written), "{written}\n{ron}");
        }
        assert_eq!(Trace::from_ron(&ron).unwrap(), trace);
    }
}

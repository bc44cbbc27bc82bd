//! [`Step`]: one deduction, with what it places or eliminates and why.

pub mod net;
pub(crate) mod words;

#[doc(no_inline)]
pub use net::{BranchEnd, ForcingKind, ForcingNet, Implication, NetBranch, Reason};

use serde::{Deserialize, Serialize};

use crate::model::cell::{Cell, House};
use crate::model::grid::{Candidate, Grid};

/// What a highlighted candidate does in a step, so a renderer can colour it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Role {
    /// The candidates that make the pattern (a single, the digits of a subset, a locked set).
    Pattern,
    /// Base candidates of a fish or of a locked-candidates intersection.
    Base,
    /// Cover candidates of a fish.
    Cover,
    /// Fin of a fish.
    Fin,
    /// Pivot of a wing.
    Pivot,
    /// Pincer of a wing.
    Pincer,
    /// A strong or weak link of a chain.
    Link,
    /// First colour of a colouring.
    ColorA,
    /// Second colour of a colouring.
    ColorB,
}

/// The one table of roles, in code order: each role's code is its index (the plugin ABI's
/// `LP_ROLE_*` in `lapiz_plugin.h`, the plugin host's wire byte), with its name (scripts'
/// `role` argument, the page's CSS class) and its words in the page's legend. A test checks the
/// C header and the plugin API crate against it.
const ROLES: [(Role, &str, &str); 9] = [
    (Role::Pattern, "pattern", "pattern"),
    (Role::Base, "base", "base"),
    (Role::Cover, "cover", "cover"),
    (Role::Fin, "fin", "fin"),
    (Role::Pivot, "pivot", "pivot"),
    (Role::Pincer, "pincer", "pincer"),
    (Role::Link, "link", "link"),
    (Role::ColorA, "color-a", "colour A"),
    (Role::ColorB, "color-b", "colour B"),
];

impl Role {
    /// Every role, in code order.
    pub const ALL: [Role; 9] = {
        let mut all = [Role::Pattern; 9];
        let mut i = 0;
        while i < ROLES.len() {
            all[i] = ROLES[i].0;
            i += 1;
        }
        all
    };

    /// Its code: the plugin ABI's `LP_ROLE_*` and the plugin host's wire byte.
    pub fn code(self) -> u8 {
        Role::ALL.iter().position(|&r| r == self).unwrap_or(0) as u8
    }

    /// The role of a code, `None` for a code that is none.
    pub fn from_code(code: u8) -> Option<Role> {
        Role::ALL.get(usize::from(code)).copied()
    }

    /// Its name: `pattern` ... `color-a`, `color-b` (scripts' `role` argument, the page's CSS
    /// class).
    pub fn name(self) -> &'static str {
        ROLES[usize::from(self.code())].1
    }

    /// Its words in the page's legend: `pattern` ... `colour A`, `colour B`.
    pub fn words(self) -> &'static str {
        ROLES[usize::from(self.code())].2
    }

    /// The role with this name, case-insensitive, ignoring `-`, `_` and spaces and reading
    /// `colour` as `color` (`ColorA`, `color-a`, `colour_a`).
    pub fn from_name(name: &str) -> Option<Role> {
        let key = |n: &str| -> String {
            n.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase()
                .replace("colour", "color")
        };
        let wanted = key(name);
        Role::ALL.into_iter().find(|r| key(r.name()) == wanted)
    }
}

/// A group of candidates playing one role in a step. Serialized as a pair, e.g.
/// `(Pattern, ["6r2c2"])`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(from = "(Role, Vec<Candidate>)", into = "(Role, Vec<Candidate>)")]
pub struct Highlight {
    /// What these candidates do.
    pub role: Role,
    /// The candidates.
    pub candidates: Vec<Candidate>,
}

impl From<(Role, Vec<Candidate>)> for Highlight {
    fn from((role, candidates): (Role, Vec<Candidate>)) -> Highlight {
        Highlight { role, candidates }
    }
}

impl From<Highlight> for (Role, Vec<Candidate>) {
    fn from(h: Highlight) -> Self {
        (h.role, h.candidates)
    }
}

/// How two consecutive nodes of a [`Chain`] are linked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum LinkType {
    /// The two nodes are not both false: the first off turns the second on.
    Strong,
    /// The two nodes are not both true: the first on turns the second off.
    Weak,
}

impl LinkType {
    /// The link an alternating chain follows out of a node in this state: weak from a true
    /// node (it turns the next off), strong from a false one (it turns the next on).
    pub fn out_of(on: bool) -> LinkType {
        if on { LinkType::Weak } else { LinkType::Strong }
    }
}

/// One node of a [`Chain`]: a digit in one cell (a candidate), in two or three cells of a
/// box-line intersection (a group node), or in the cells of an almost locked set holding it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ChainNode {
    /// The digit.
    pub digit: u8,
    /// The cells where the digit is meant (one for a candidate).
    pub cells: Vec<Cell>,
    /// Whether the chain makes the node true (on) or false (off) at this point.
    pub on: bool,
    /// For an ALS node, every cell of the almost locked set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub als: Vec<Cell>,
}

/// A chain or loop of alternating inference, kept as data so a renderer can draw it: the nodes
/// in order, and the link between each node and the next (`links.len() == nodes.len() - 1`).
/// A loop repeats its first node at the end.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Chain {
    /// The nodes in order.
    pub nodes: Vec<ChainNode>,
    /// `links[i]` joins `nodes[i]` and `nodes[i + 1]`.
    pub links: Vec<LinkType>,
}

/// One deduction: placements or eliminations, the candidates and houses that justify it, and a
/// one-line explanation in the usual notation.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Step {
    /// Id of the technique that found it, e.g. `naked-pair`.
    pub technique: String,
    /// Difficulty of this step on Sudoku Explainer's scale (a technique may rate its steps
    /// differently, e.g. hidden singles in boxes and in lines).
    pub difficulty: f32,
    /// Digits placed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placements: Vec<Candidate>,
    /// Candidates removed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminations: Vec<Candidate>,
    /// The houses the step works in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub houses: Vec<House>,
    /// The candidates that justify the step, by role.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub highlights: Vec<Highlight>,
    /// The chains that prove the step, for chain techniques.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chains: Vec<Chain>,
    /// The proof of a forcing chain or net, for forcing techniques.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub net: Option<Box<crate::step::net::ForcingNet>>,
    /// E.g. `Naked Pair: 1/6 in r1 (r1c2,r1c9) => r1c4,r1c5,r1c6<>1,6`.
    pub explanation: String,
}

impl Step {
    /// An empty step of `technique` at `difficulty`; fill it with the builder methods.
    pub fn new(technique: &str, difficulty: f32) -> Step {
        Step {
            technique: technique.to_string(),
            difficulty,
            placements: Vec::new(),
            eliminations: Vec::new(),
            houses: Vec::new(),
            highlights: Vec::new(),
            chains: Vec::new(),
            net: None,
            explanation: String::new(),
        }
    }

    /// Adds a placement.
    pub fn place(mut self, cell: Cell, digit: u8) -> Step {
        self.placements.push(Candidate::new(cell, digit));
        self
    }

    /// Adds an elimination.
    pub fn eliminate(mut self, cell: Cell, digit: u8) -> Step {
        self.eliminations.push(Candidate::new(cell, digit));
        self
    }

    /// Adds a house the step works in.
    pub fn house(mut self, house: House) -> Step {
        self.houses.push(house);
        self
    }

    /// Adds highlighted candidates with a role.
    pub fn highlight(
        mut self,
        role: Role,
        candidates: impl IntoIterator<Item = Candidate>,
    ) -> Step {
        self.highlights.push(Highlight {
            role,
            candidates: candidates.into_iter().collect(),
        });
        self
    }

    /// Adds placements, in order.
    pub fn placements(mut self, candidates: impl IntoIterator<Item = Candidate>) -> Step {
        self.placements.extend(candidates);
        self
    }

    /// Adds eliminations, in order.
    pub fn eliminations(mut self, candidates: impl IntoIterator<Item = Candidate>) -> Step {
        self.eliminations.extend(candidates);
        self
    }

    /// Adds houses the step works in, in order.
    pub fn houses(mut self, houses: impl IntoIterator<Item = House>) -> Step {
        self.houses.extend(houses);
        self
    }

    /// Adds a chain that proves the step.
    pub fn chain(mut self, chain: Chain) -> Step {
        self.chains.push(chain);
        self
    }

    /// Sets the forcing net that proves the step.
    pub fn net(mut self, net: crate::step::net::ForcingNet) -> Step {
        self.net = Some(Box::new(net));
        self
    }

    /// Sets the explanation.
    pub fn explain(mut self, text: impl Into<String>) -> Step {
        self.explanation = text.into();
        self
    }

    /// Credits the step to another technique at another difficulty (a technique that builds
    /// on another's steps, e.g. a direct pattern on a subset).
    pub fn credit(mut self, technique: &str, difficulty: f32) -> Step {
        self.technique = technique.to_string();
        self.difficulty = difficulty;
        self
    }

    /// Whether the step changes nothing.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty() && self.eliminations.is_empty()
    }

    /// The first placement or elimination that contradicts `solution` (81 values), if any:
    /// a placement of a wrong digit, or the elimination of the solution's digit.
    pub fn contradiction(&self, solution: &[u8; 81]) -> Option<Candidate> {
        self.contradiction_in(solution, 9)
    }

    /// [`Step::contradiction`] on a board `n` wide: `solution` holds its `n * n` values row by
    /// row. A placement or elimination off the board counts as a contradiction.
    pub fn contradiction_in(&self, solution: &[u8], n: usize) -> Option<Candidate> {
        let value = |c: Cell| {
            let on_board = usize::from(c.row().max(c.col())) < n;
            on_board.then(|| solution[c.index_in(n)])
        };
        let wrong_place = self
            .placements
            .iter()
            .find(|p| value(p.cell) != Some(p.digit));
        let wrong_elim = || {
            self.eliminations
                .iter()
                .find(|e| value(e.cell).is_none_or(|v| v == e.digit))
        };
        wrong_place.or_else(wrong_elim).copied()
    }

    /// Drops the eliminations and highlights of candidates `grid` does not have (what a script
    /// or plugin names loosely, e.g. every cell of a cover line). `false` when that left a step
    /// that had eliminations with nothing to change, to be dropped too.
    pub(crate) fn keep_candidates_of<S: crate::model::Shape>(&mut self, grid: &Grid<S>) -> bool {
        let had = !self.eliminations.is_empty();
        self.eliminations
            .retain(|e| grid.has_candidate(e.cell, e.digit));
        for h in &mut self.highlights {
            h.candidates.retain(|c| grid.has_candidate(c.cell, c.digit));
        }
        self.highlights.retain(|h| !h.candidates.is_empty());
        !(had && self.is_empty())
    }

    /// Applies the step to `grid`: places, then eliminates.
    pub fn apply<S: crate::model::Shape>(&self, grid: &mut Grid<S>) {
        for p in &self.placements {
            if grid.value(p.cell) == 0 {
                grid.set_value(p.cell, p.digit);
            }
        }
        for e in &self.eliminations {
            grid.eliminate(e.cell, e.digit);
        }
    }

    /// The step as a hint's nudge shows it on a board of `layout`: its houses (else the boxes
    /// of the cells its pattern and placements are in) and, as its explanation, the technique's
    /// `name` and where to look: `Look for a Hidden Pair in r7.`, `Look for an X-Wing on digit
    /// 4.` No candidate, placement, elimination or chain: the nudge gives none away.
    pub fn nudge(&self, name: &str, layout: crate::model::Layout) -> Step {
        let article = if name.starts_with(['A', 'E', 'I', 'O', 'X']) {
            "an"
        } else {
            "a"
        };
        let (houses, digit) = self.where_to_look(layout);
        let mut text = format!("Look for {article} {name}");
        if let Some(d) = digit {
            text.push_str(&format!(" on digit {}", crate::model::Sym(d)));
        }
        if !houses.is_empty() {
            let names: Vec<String> = houses.iter().map(House::to_string).collect();
            text.push_str(&format!(" in {}", names.join(", ")));
        }
        text.push('.');
        Step::new(&self.technique, self.difficulty)
            .houses(houses)
            .explain(text)
    }

    /// Where a nudge says to look: the step's houses, else the boxes (of `layout`) of the cells
    /// it works on; and its digit when every candidate it names has the same one.
    fn where_to_look(&self, layout: crate::model::Layout) -> (Vec<House>, Option<u8>) {
        let mut houses = self.houses.clone();
        let pattern = self.highlights.iter().flat_map(|h| h.candidates.iter());
        let mut digits = pattern
            .clone()
            .chain(&self.placements)
            .chain(&self.eliminations)
            .map(|c| c.digit);
        let first = digits.next();
        let digit = first.filter(|&d| digits.all(|e| e == d));
        if houses.is_empty() {
            for c in pattern.chain(&self.placements) {
                let (row, col) = (usize::from(c.cell.row()), usize::from(c.cell.col()));
                let b = House::boxed(layout.box_of(row, col) as u8);
                if !houses.contains(&b) {
                    houses.push(b);
                }
            }
        }
        (houses, digit)
    }
}

/// Formats candidates grouped the usual way: `r1c4,r1c5<>1,6` when all cells lose the same
/// digits, otherwise one group per digit, e.g. `r1c4<>1, r2c5<>6`.
pub(crate) fn eliminations_text(elims: &[Candidate]) -> String {
    use crate::model::cell::digits_text;
    // digits 1 to 25: a mask wide enough for the largest board
    let bit = |d: u8| 1u32 << (d - 1);
    let mut cells: Vec<(Cell, u32)> = Vec::new();
    for e in elims {
        match cells.iter_mut().find(|(c, _)| *c == e.cell) {
            Some((_, m)) => *m |= bit(e.digit),
            None => cells.push((e.cell, bit(e.digit))),
        }
    }
    cells.sort_by_key(|(c, _)| *c);
    // group cells with identical digit masks, keeping first-appearance order of masks
    let mut groups: Vec<(u32, Vec<Cell>)> = Vec::new();
    for (c, m) in cells {
        match groups.iter_mut().find(|(gm, _)| *gm == m) {
            Some((_, cs)) => cs.push(c),
            None => groups.push((m, vec![c])),
        }
    }
    groups
        .iter()
        .map(|(m, cs)| {
            let names: Vec<String> = cs.iter().map(Cell::to_string).collect();
            format!("{}<>{}", names.join(","), digits_text(*m, ","))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eliminations_of_digits_up_to_twenty_five_are_written_as_they_are() {
        let elims = [
            Candidate::new(Cell::at(20, 18), 22),
            Candidate::new(Cell::at(20, 18), 17),
            Candidate::new(Cell::at(22, 18), 22),
            Candidate::new(Cell::at(0, 0), 5),
        ];
        assert_eq!(
            eliminations_text(&elims),
            "r1c1<>5, r21c19<>17,22, r23c19<>22"
        );
    }

    #[test]
    fn elimination_text_groups_cells() {
        let e = |r, c, d| Candidate::new(Cell::at(r, c), d);
        let elims = [e(0, 3, 1), e(0, 3, 6), e(0, 4, 1), e(0, 4, 6), e(1, 0, 2)];
        assert_eq!(eliminations_text(&elims), "r1c4,r1c5<>1,6, r2c1<>2");
    }

    #[test]
    fn the_builder_sets_every_field() {
        use crate::step::net::{ForcingKind, ForcingNet};
        let cand = |i, d| Candidate::new(Cell::new(i), d);
        let chain = Chain {
            nodes: Vec::new(),
            links: Vec::new(),
        };
        let net = ForcingNet {
            kind: ForcingKind::Contradiction,
            branches: Vec::new(),
        };
        let built = Step::new("t", 1.0)
            .place(Cell::new(0), 1)
            .placements([cand(1, 2), cand(2, 3)])
            .eliminate(Cell::new(3), 4)
            .eliminations([cand(4, 5), cand(5, 6)])
            .house(House::row(0))
            .houses([House::col(1), House::boxed(2)])
            .highlight(Role::Pattern, [cand(6, 7)])
            .chain(chain.clone())
            .net(net.clone())
            .explain("why")
            .credit("u", 2.5);
        let literal = Step {
            technique: "u".to_string(),
            difficulty: 2.5,
            placements: vec![cand(0, 1), cand(1, 2), cand(2, 3)],
            eliminations: vec![cand(3, 4), cand(4, 5), cand(5, 6)],
            houses: vec![House::row(0), House::col(1), House::boxed(2)],
            highlights: vec![Highlight {
                role: Role::Pattern,
                candidates: vec![cand(6, 7)],
            }],
            chains: vec![chain],
            net: Some(Box::new(net)),
            explanation: "why".to_string(),
        };
        assert_eq!(built, literal);
    }

    #[test]
    fn contradiction_finds_removed_solution_digit() {
        let mut solution = [1u8; 81];
        solution[5] = 3;
        let step = Step::new("t", 1.0)
            .eliminate(Cell::new(4), 3)
            .eliminate(Cell::new(5), 3);
        assert_eq!(
            step.contradiction(&solution),
            Some(Candidate::new(Cell::new(5), 3))
        );
    }
}

//! A step's chains in words, for people: one line per link saying what follows from what and
//! which house or cell the link lives in, then why the step's result follows.
//!
//! The step's first line keeps the compact Eureka-like notation (`r5c4 =4= r3c4 -4- r3c7 =4=
//! r6c7`); these lines spell it out under it in the text trace and on the HTML page:
//!
//! ```text
//! if r5c4 is not 4, r3c4 is 4 (the only other place for 4 in c4)
//! so r3c7 is not 4 (it sees r3c4 in r3)
//! so r6c7 is 4 (the only other place for 4 in c7)
//! so r5c4 is 4 or r6c7 is 4 (one end of the chain is true) => r5c9,r6c6<>4
//! ```
//!
//! Everything comes from the step's [`Chain`] data (nodes, on/off states, link kinds), so it
//! works for every chain technique, built-in, scripted or plugin. With the grid the step was
//! found in, strong links name the house where the digit has only those places and ALS nodes
//! name their digits; without it, the words name the houses the link's cells share.

use std::fmt::Write as _;

use crate::model::cell::{Cell, House, digit_mask, digits_compact, digits_text};
use crate::model::cellset::CellSet;
use crate::model::grid::Grid;
use crate::model::{Bits, Geometry, Layout, Shape, Sym};
use crate::step::{Chain, ChainNode, LinkType, Step, eliminations_text};

/// Cells as a list, e.g. `r3c4,r3c5`.
fn cells_list(cells: &[Cell]) -> String {
    let names: Vec<String> = cells.iter().map(Cell::to_string).collect();
    names.join(",")
}

/// The cells of a node as a set (its ALS cells for an ALS node are not included).
fn cell_set<S: Shape>(cells: &[Cell]) -> CellSet<S> {
    cells.iter().copied().collect()
}

/// The ALS of a node with its cells and, when the grid is known, its digits:
/// `the ALS r7c1,r7c8,r7c9 {1236}`.
fn als_name<S: Shape>(node: &ChainNode, grid: Option<&Grid<S>>) -> String {
    let cells = cells_list(&node.als);
    match grid {
        Some(g) => format!(
            "the ALS {cells} {{{}}}",
            digits_compact(g.candidates_of(cell_set(&node.als)))
        ),
        None => format!("the ALS {cells}"),
    }
}

/// Whether two nodes are the same ALS.
fn same_als(a: &ChainNode, b: &ChainNode) -> bool {
    !a.als.is_empty() && a.als == b.als
}

/// Whether two nodes are one cell (not an ALS) with different digits.
fn same_cell(a: &ChainNode, b: &ChainNode) -> bool {
    a.als.is_empty() && b.als.is_empty() && a.cells.len() == 1 && a.cells == b.cells
}

/// A node in a state, in words: `r3c4 is 4`, `4 is not in r3c4,r3c5`, `the ALS … holds 3`.
/// `it` stands for the ALS when the sentence already named it.
fn state_words<S: Shape>(node: &ChainNode, on: bool, grid: Option<&Grid<S>>, it: bool) -> String {
    let d = node.digit;
    let ds = Sym(d);
    if !node.als.is_empty() {
        let name = if it {
            "it".to_string()
        } else {
            als_name(node, grid)
        };
        return if on {
            format!("{name} holds {ds}")
        } else {
            format!("{name} has no {ds}")
        };
    }
    match (node.cells.as_slice(), on) {
        ([cell], true) => format!("{cell} is {ds}"),
        ([cell], false) => format!("{cell} is not {ds}"),
        (cells, true) => format!("{ds} is in {}", cells_list(cells)),
        (cells, false) => format!("{ds} is not in {}", cells_list(cells)),
    }
}

/// The houses holding every cell of `cells`, rows then columns then boxes.
fn common_houses<S: Shape>(geo: &Geometry<S>, cells: CellSet<S>) -> Vec<House> {
    geo.houses()
        .filter(|&h| !cells.is_empty() && cells.is_subset(geo.house(h)))
        .collect()
}

/// Why the link from `a` to `b` holds, in brackets.
fn link_reason<S: Shape>(
    a: &ChainNode,
    b: &ChainNode,
    link: LinkType,
    grid: Option<&Grid<S>>,
    geo: &Geometry<S>,
) -> String {
    let d = a.digit;
    let ds = Sym(d);
    match link {
        LinkType::Strong if same_als(a, b) && a.digit != b.digit => match grid {
            Some(g) => {
                let rest = g.candidates_of(cell_set(&a.als)).and_not(digit_mask(d));
                format!(
                    "(without {ds}, its {} cells must hold exactly {})",
                    a.als.len(),
                    digits_text(rest, ",")
                )
            }
            None => format!("(without {ds}, the almost locked set is locked)"),
        },
        // an ALS taking a cell (or the other way round): see `chains::graph::als_takes_cell`
        LinkType::Strong if !a.als.is_empty() && b.als.is_empty() && b.cells.len() == 1 => {
            let (cell, xs) = (b.cells[0], Sym(b.digit));
            match grid {
                Some(g) => {
                    let rest = g.candidates_of(cell_set(&a.als)).and_not(digit_mask(d));
                    format!(
                        "(without {ds}, its {} cells must hold exactly {}, which leaves {cell} only {xs})",
                        a.als.len(),
                        digits_text(rest, ",")
                    )
                }
                None => format!("(without {ds}, the almost locked set leaves {cell} only {xs})"),
            }
        }
        LinkType::Strong if a.als.is_empty() && !b.als.is_empty() && a.cells.len() == 1 => {
            let cell = a.cells[0];
            let es = Sym(b.digit);
            match grid {
                Some(g) => {
                    let others = g.candidates(cell).and_not(digit_mask(d));
                    format!(
                        "(without {ds}, {cell} holds one of {}, which the ALS then lacks, so it holds {es})",
                        digits_text(others, ",")
                    )
                }
                None => {
                    format!("(without {ds}, {cell} takes a digit from the ALS, so it holds {es})")
                }
            }
        }
        LinkType::Strong if same_cell(a, b) && a.digit != b.digit => {
            let cell = a.cells[0];
            let two = digit_mask::<S::Mask>(a.digit).or(digit_mask(b.digit));
            match grid {
                Some(g) if g.candidates(cell) == two => {
                    format!("(the only two candidates of {cell})")
                }
                _ => format!("(a strong link in {cell})"),
            }
        }
        LinkType::Strong if a.digit == b.digit && a.als.is_empty() && b.als.is_empty() => {
            let both = cell_set(&a.cells) | cell_set(&b.cells);
            let houses = common_houses(geo, both);
            let conjugate = grid.and_then(|g| {
                houses.iter().copied().find(|h| {
                    let places = g.digit_cells_in(d, *h);
                    !places.is_empty() && places.is_subset(both)
                })
            });
            let other = if b.cells.len() == 1 {
                "place"
            } else {
                "places"
            };
            match (conjugate, houses.first()) {
                (Some(h), _) => format!("(the only other {other} for {ds} in {h})"),
                (None, Some(h)) => format!("(a strong link on {ds} in {h})"),
                (None, None) => format!("(a strong link on {ds})"),
            }
        }
        LinkType::Strong => "(a strong link)".to_string(),
        LinkType::Weak if same_cell(a, b) && a.digit != b.digit => {
            "(one digit per cell)".to_string()
        }
        LinkType::Weak if a.digit == b.digit => {
            let it = if b.cells.len() == 1 {
                "it sees"
            } else {
                "they see"
            };
            match (a.als.is_empty(), b.als.is_empty()) {
                (false, false) => {
                    format!("(every {ds} of one ALS sees every {ds} of the other)")
                }
                (false, true) => format!("({it} every {ds} of the ALS)"),
                (true, false) => format!("(every {ds} of the ALS sees {})", cells_list(&a.cells)),
                (true, true) => {
                    let both = cell_set(&a.cells) | cell_set(&b.cells);
                    match common_houses(geo, both).first() {
                        Some(h) => format!("({it} {} in {h})", cells_list(&a.cells)),
                        None => "(a weak link)".to_string(),
                    }
                }
            }
        }
        LinkType::Weak => "(a weak link)".to_string(),
    }
}

/// The step's result: its placements and its eliminations, e.g. `r1c2<>4`.
fn result_text(step: &Step) -> String {
    let mut parts: Vec<String> = step
        .placements
        .iter()
        .map(|p| format!("{}={}", p.cell, Sym(p.digit)))
        .collect();
    if !step.eliminations.is_empty() {
        parts.push(eliminations_text(&step.eliminations));
    }
    parts.join(", ")
}

/// Whether two nodes stand for the same digit in the same place.
fn same_node(a: &ChainNode, b: &ChainNode) -> bool {
    a.digit == b.digit && a.cells == b.cells && a.als == b.als
}

/// One chain in words: a line per link, then a line saying why `result` follows.
pub fn chain_lines<S: Shape>(chain: &Chain, result: &str, grid: Option<&Grid<S>>) -> Vec<String> {
    // without the grid, the houses of the size's usual boxes (the words of 9x9 traces)
    let geo = match grid {
        Some(g) => g.geometry(),
        None => S::geometry(Layout::new(S::N as u8).expect("a shape's size is a board size")),
    };
    let mut lines = Vec::new();
    let nodes = &chain.nodes;
    for (i, &link) in chain.links.iter().enumerate() {
        let (Some(a), Some(b)) = (nodes.get(i), nodes.get(i + 1)) else {
            break;
        };
        let then = state_words(b, b.on, grid, same_als(a, b));
        let why = link_reason(a, b, link, grid, geo);
        if i == 0 {
            lines.push(format!(
                "if {}, {then} {why}",
                state_words(a, a.on, grid, false)
            ));
        } else {
            lines.push(format!("so {then} {why}"));
        }
    }
    let (Some(first), Some(last)) = (nodes.first(), nodes.last()) else {
        return lines;
    };
    if nodes.len() < 2 {
        return lines;
    }
    let words = |n: &ChainNode, on: bool| state_words(n, on, grid, false);
    let why = if same_node(first, last) && first.on == last.on {
        "the loop closes: each weak link of it has exactly one true end, so what sees both ends \
         of one goes"
            .to_string()
    } else if same_node(first, last) {
        format!(
            "if {}, then {}: a contradiction",
            words(first, first.on),
            words(last, last.on)
        )
    } else if !first.on && last.on {
        format!(
            "{} or {} (one end of the chain is true)",
            words(first, true),
            words(last, true)
        )
    } else if first.on && !last.on {
        format!(
            "{} and {} are not both true",
            words(first, true),
            words(last, true)
        )
    } else {
        String::new()
    };
    if why.is_empty() {
        lines.push(format!("=> {result}"));
    } else {
        lines.push(format!("so {why} => {result}"));
    }
    lines
}

/// Every chain of a step in words (see [`chain_lines`]); chains after the first are headed
/// `chain 2:` and so on. `grid` is the grid the step was found in, when known. Empty when the
/// step has no chain.
pub fn step_chain_lines<S: Shape>(step: &Step, grid: Option<&Grid<S>>) -> Vec<String> {
    let result = result_text(step);
    let many = step.chains.len() > 1;
    let mut lines = Vec::new();
    for (k, chain) in step.chains.iter().enumerate() {
        if many {
            lines.push(format!("chain {}:", k + 1));
        }
        lines.extend(chain_lines(chain, &result, grid));
    }
    lines
}

/// Writes [`step_chain_lines`] as lines indented by `indent` spaces.
pub fn write_text<S: Shape>(step: &Step, grid: Option<&Grid<S>>, out: &mut String, indent: usize) {
    let pad = " ".repeat(indent);
    for line in step_chain_lines(step, grid) {
        let _ = writeln!(out, "{pad}{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cell::digit_bit;

    fn node(digit: u8, cells: &[(u8, u8)], on: bool) -> ChainNode {
        ChainNode {
            digit,
            cells: cells.iter().map(|&(r, c)| Cell::at(r - 1, c - 1)).collect(),
            on,
            als: Vec::new(),
        }
    }

    /// `r5c4 =4= r3c4 -4- r3c7 =4= r6c7 => r6c6<>4`.
    fn aic() -> Step {
        Step::new("aic", 6.6)
            .eliminate(Cell::at(5, 5), 4)
            .chain(Chain {
                nodes: vec![
                    node(4, &[(5, 4)], false),
                    node(4, &[(3, 4)], true),
                    node(4, &[(3, 7)], false),
                    node(4, &[(6, 7)], true),
                ],
                links: vec![LinkType::Strong, LinkType::Weak, LinkType::Strong],
            })
    }

    #[test]
    fn an_aic_is_spelled_out_link_by_link_without_a_grid() {
        assert_eq!(
            step_chain_lines(&aic(), None::<&Grid>),
            [
                "if r5c4 is not 4, r3c4 is 4 (a strong link on 4 in c4)",
                "so r3c7 is not 4 (it sees r3c4 in r3)",
                "so r6c7 is 4 (a strong link on 4 in c7)",
                "so r5c4 is 4 or r6c7 is 4 (one end of the chain is true) => r6c6<>4",
            ]
        );
    }

    #[test]
    fn with_the_grid_a_strong_link_names_its_house_and_an_als_its_digits() {
        // 4 only in r3c4 and r5c4 of c4; r3c4 holds only 4 and 7
        let mut grid = Grid::empty();
        for r in 0..9 {
            if r != 2 && r != 4 {
                grid.eliminate(Cell::at(r, 3), 4);
            }
        }
        grid.set_candidates(Cell::at(2, 3), digit_bit(4) | digit_bit(7));
        let lines = step_chain_lines(&aic(), Some(&grid));
        assert_eq!(
            lines[0],
            "if r5c4 is not 4, r3c4 is 4 (the only other place for 4 in c4)"
        );
        // c7 still has 4 everywhere: no house makes the link strong, its house is named
        assert_eq!(lines[2], "so r6c7 is 4 (a strong link on 4 in c7)");

        let bivalue = Chain {
            nodes: vec![node(4, &[(3, 4)], false), node(7, &[(3, 4)], true)],
            links: vec![LinkType::Strong],
        };
        assert_eq!(
            chain_lines(&bivalue, "x", Some(&grid))[0],
            "if r3c4 is not 4, r3c4 is 7 (the only two candidates of r3c4)"
        );

        let als = |digit, on| ChainNode {
            als: vec![Cell::at(2, 3), Cell::at(2, 4)],
            ..node(digit, &[(3, 4)], on)
        };
        grid.set_candidates(Cell::at(2, 4), digit_bit(4) | digit_bit(5));
        let chain = Chain {
            nodes: vec![als(5, false), als(4, true), node(4, &[(3, 9)], false)],
            links: vec![LinkType::Strong, LinkType::Weak],
        };
        assert_eq!(
            chain_lines(&chain, "r3c9<>4", Some(&grid)),
            [
                "if the ALS r3c4,r3c5 {457} has no 5, it holds 4 (without 5, its 2 cells must \
                 hold exactly 4,7)",
                "so r3c9 is not 4 (it sees every 4 of the ALS)",
                "=> r3c9<>4",
            ]
        );
    }

    #[test]
    fn an_als_taking_a_cell_says_which_digits_it_takes() {
        // the ALS r3c4,r3c5 {457}; r3c9 holds 5, 7 and 9
        let mut grid = Grid::empty();
        grid.set_candidates(Cell::at(2, 3), digit_bit(4) | digit_bit(7));
        grid.set_candidates(Cell::at(2, 4), digit_bit(4) | digit_bit(5));
        grid.set_candidates(Cell::at(2, 8), digit_bit(5) | digit_bit(7) | digit_bit(9));
        let als = |digit, on| ChainNode {
            als: vec![Cell::at(2, 3), Cell::at(2, 4)],
            ..node(digit, &[(3, 4), (3, 5)], on)
        };
        let taking = Chain {
            nodes: vec![als(4, false), node(9, &[(3, 9)], true)],
            links: vec![LinkType::Strong],
        };
        assert_eq!(
            chain_lines(&taking, "x", Some(&grid))[0],
            "if the ALS r3c4,r3c5 {457} has no 4, r3c9 is 9 (without 4, its 2 cells must hold \
             exactly 5,7, which leaves r3c9 only 9)"
        );
        let taken = Chain {
            nodes: vec![node(9, &[(3, 9)], false), als(4, true)],
            links: vec![LinkType::Strong],
        };
        assert_eq!(
            chain_lines(&taken, "x", Some(&grid))[0],
            "if r3c9 is not 9, the ALS r3c4,r3c5 {457} holds 4 (without 9, r3c9 holds one of \
             5,7, which the ALS then lacks, so it holds 4)"
        );
        assert_eq!(
            chain_lines(&taking, "x", None::<&Grid>)[0],
            "if the ALS r3c4,r3c5 has no 4, r3c9 is 9 (without 4, the almost locked set leaves \
             r3c9 only 9)"
        );
    }

    #[test]
    fn a_loop_and_a_contradiction_say_why_the_result_follows() {
        let mut lp = aic().chains.remove(0);
        lp.nodes.push(node(4, &[(5, 4)], false));
        lp.links.push(LinkType::Weak);
        let last = chain_lines(&lp, "r5c9<>4", None::<&Grid>).pop().unwrap();
        assert!(last.starts_with("so the loop closes"), "{last}");

        let mut contradiction = aic().chains.remove(0);
        contradiction.nodes.push(node(4, &[(5, 4)], true));
        contradiction.links.push(LinkType::Strong);
        assert_eq!(
            chain_lines(&contradiction, "r5c4=4", None::<&Grid>)
                .pop()
                .unwrap(),
            "so if r5c4 is not 4, then r5c4 is 4: a contradiction => r5c4=4"
        );
    }
}

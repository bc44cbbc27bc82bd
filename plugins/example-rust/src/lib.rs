//! An example lapiz plugin written in Rust: Remote Pairs and BUG+1, exported through the C ABI
//! with one line ([`lapiz_plugin_api::export_plugin!`]). Both run on every size, 4x4 to 25x25
//! (ABI version 3): they answer `runs_on` and search the [`Board`] they are given, with its
//! own geometry.
//!
//! Build it with `cargo build --release -p example-rust`, then try it:
//! `lapiz solve PUZZLE --plugin target/release/liblapiz_example_rust.so` or test it against
//! HoDoKu's library with `lapiz reglib reglib-1.4-dev.txt --plugin …`.

use lapiz_plugin_api::{Board, Error, Output, PluginTechnique, Role, Step};

lapiz_plugin_api::export_plugin!("example-rust", [RemotePairs, BugPlusOne]);

/// The digits of a candidate mask, ascending.
fn digits(mask: u32) -> impl Iterator<Item = u8> {
    (1..=32u8).filter(move |d| mask & (1 << (d - 1)) != 0)
}

/// `1/2` for a mask of 1 and 2.
fn digits_text(mask: u32, sep: &str) -> String {
    digits(mask)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// `r1c8,r2c8<>1,2`: cells losing the same digits.
fn elimination_text(board: &Board<'_>, cells: &[u16], mask: u32) -> String {
    let names: Vec<String> = cells.iter().map(|&c| board.cell_name(c)).collect();
    format!("{}<>{}", names.join(","), digits_text(mask, ","))
}

/// Remote Pairs: a chain of at least four bivalue cells with the same two digits, each seeing
/// the next. The cells alternate between the two digits, so the two ends of a chain with an
/// even number of cells hold both digits: a cell seeing both ends holds neither.
pub struct RemotePairs;

/// The longest chain searched, in cells.
const MAX_CELLS: usize = 24;

impl PluginTechnique for RemotePairs {
    fn id(&self) -> &str {
        "remote-pairs-rs"
    }
    fn name(&self) -> &str {
        "Remote Pair (Rust plugin)"
    }
    fn difficulty(&self) -> f32 {
        4.3
    }
    fn codes(&self) -> &str {
        "0703"
    }
    fn runs_on(&self, _n: usize) -> bool {
        true
    }
    fn find_sized(&self, grid: &Board<'_>, out: &mut Output<'_>) -> Result<(), Error> {
        let mut seen_masks: Vec<u32> = Vec::new();
        for first in grid.empty_cells() {
            let mask = grid.candidates(first);
            if mask.count_ones() != 2 || seen_masks.contains(&mask) {
                continue;
            }
            seen_masks.push(mask);
            let group: Vec<u16> = grid
                .empty_cells()
                .filter(|&c| grid.candidates(c) == mask)
                .collect();
            if group.len() < 4 {
                continue;
            }
            let mut chain = Chain {
                grid,
                mask,
                group: &group,
                path: Vec::with_capacity(MAX_CELLS),
            };
            for &start in &group {
                chain.extend(start, out)?;
            }
        }
        Ok(())
    }
}

/// The depth-first search over chains of one digit pair.
struct Chain<'a, 'g> {
    grid: &'a Board<'g>,
    mask: u32,
    group: &'a [u16],
    path: Vec<u16>,
}

impl Chain<'_, '_> {
    fn extend(&mut self, cell: u16, out: &mut Output<'_>) -> Result<(), Error> {
        self.path.push(cell);
        let len = self.path.len();
        // report each chain once, from its smaller end
        if len >= 4 && len.is_multiple_of(2) && self.path[0] < cell {
            self.report(out)?;
        }
        if len < MAX_CELLS {
            for i in 0..self.group.len() {
                let next = self.group[i];
                if self.grid.sees(cell, next) && !self.path.contains(&next) {
                    self.extend(next, out)?;
                }
            }
        }
        self.path.pop();
        Ok(())
    }

    fn report(&self, out: &mut Output<'_>) -> Result<(), Error> {
        let (start, end) = (self.path[0], self.path[self.path.len() - 1]);
        let mut step = Step::new(String::new());
        let mut losing = Vec::new();
        for cell in self.grid.empty_cells() {
            if self.path.contains(&cell)
                || !self.grid.sees(cell, start)
                || !self.grid.sees(cell, end)
            {
                continue;
            }
            let common = self.grid.candidates(cell) & self.mask;
            if common != 0 {
                losing.push(cell);
                for d in digits(common) {
                    step = step.eliminate(cell, d);
                }
            }
        }
        if losing.is_empty() {
            return Ok(());
        }
        for (i, &cell) in self.path.iter().enumerate() {
            let role = if i % 2 == 0 {
                Role::ColorA
            } else {
                Role::ColorB
            };
            for d in digits(self.mask) {
                step = step.highlight(cell, d, role);
            }
        }
        let names: Vec<String> = self.path.iter().map(|&c| self.grid.cell_name(c)).collect();
        step.explanation = format!(
            "Remote Pair: {} {} => {}",
            digits_text(self.mask, "/"),
            names.join("-"),
            elimination_text(self.grid, &losing, self.mask)
        );
        out.emit(&step.rated(remote_pair_difficulty(self.path.len())))
    }
}

/// Sudoku Explainer's rating of a remote pair of `cells` cells, an XY-chain of `2 cells - 1`
/// links: 4.1 plus 0.1 each time the length passes 4, 6, 8, 12, 16, 24, …
fn remote_pair_difficulty(cells: usize) -> f32 {
    let links = 2 * cells - 1;
    let (mut bonus, mut ceiling, mut odd) = (0u32, 4usize, false);
    while links > ceiling {
        bonus += 1;
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    (41 + bonus) as f32 / 10.0
}

/// BUG+1: every unsolved cell but one is bivalue and the last has three candidates. If every
/// digit then has exactly two places in each of its houses, except one digit of the
/// three-candidate cell that has three in that cell's houses, that digit is the cell's value
/// (without it the grid would be a deadly pattern): the cell's other candidates go.
pub struct BugPlusOne;

impl PluginTechnique for BugPlusOne {
    fn id(&self) -> &str {
        "bug-plus-1-rs"
    }
    fn name(&self) -> &str {
        "BUG+1 (Rust plugin)"
    }
    fn difficulty(&self) -> f32 {
        5.6
    }
    fn codes(&self) -> &str {
        "0610"
    }
    fn needs_uniqueness(&self) -> bool {
        true
    }
    fn runs_on(&self, _n: usize) -> bool {
        true
    }
    fn find_sized(&self, grid: &Board<'_>, out: &mut Output<'_>) -> Result<(), Error> {
        let mut triple = None;
        for cell in grid.empty_cells() {
            match grid.candidates(cell).count_ones() {
                2 => {}
                3 if triple.is_none() => triple = Some(cell),
                _ => return Ok(()),
            }
        }
        let Some(cell) = triple else { return Ok(()) };
        let mask = grid.candidates(cell);
        let own = grid.houses_of(cell);
        for x in digits(mask) {
            let balanced = (0..grid.house_count()).all(|h| {
                (1..=grid.n() as u8).all(|d| {
                    let mut n = grid.digit_cells_in(d, h).count();
                    if d == x && own.contains(&h) {
                        n -= 1;
                    }
                    n == 0 || n == 2
                })
            });
            if !balanced {
                continue;
            }
            let others = mask & !(1 << (x - 1));
            let mut step = Step::new(format!(
                "BUG+1: {} is {x} (every other cell bivalue) => {}",
                grid.cell_name(cell),
                elimination_text(grid, &[cell], others)
            ))
            .highlight(cell, x, Role::Pattern);
            for d in digits(others) {
                step = step.eliminate(cell, d);
            }
            out.emit(&step)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_follow_the_chain_length() {
        assert_eq!(remote_pair_difficulty(4), 4.3);
        assert_eq!(remote_pair_difficulty(6), 4.4);
        assert_eq!(remote_pair_difficulty(8), 4.5);
    }
}

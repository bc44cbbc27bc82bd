//! The position's shared [`Context`] for scripts: what the engine already knows about the
//! position a script searches (bivalue cells, strong links, almost locked sets), so a script
//! asks for them instead of rebuilding them in loops, and built at most once per position for
//! every technique that needs them, built-in or scripted.
//!
//! While a script's `find` runs, this thread holds a pointer to the position's context (set by
//! [`PositionGuard`]); the helpers registered here read it when the grid they are called on is
//! that position, and otherwise build a context of their own for the call.

use std::any::TypeId;
use std::cell::Cell as StdCell;

use rhai::{Array, Dynamic, Engine};

use crate::model::Shape;
use crate::model::cell::Cell;
use crate::model::cellset::CellSet;
use crate::model::grid::Grid;
use crate::technique::context::{Als, Context};

use super::api::{Res, digit_in, digits_array, mask_int};
use super::searched::{BoardGuard, cell_on};

thread_local! {
    /// The context of the position the script running on this thread searches (null when
    /// none), and the shape of its grid.
    static POSITION: StdCell<(*const (), Option<TypeId>)> =
        const { StdCell::new((std::ptr::null(), None)) };
}

/// Makes a context this thread's current position (and its layout the current board) while
/// it lives, and restores the previous ones when dropped (also when a script call unwinds).
pub(crate) struct PositionGuard {
    prev: (*const (), Option<TypeId>),
    _board: BoardGuard,
}

impl PositionGuard {
    /// `ctx` is the current position until the guard is dropped; the guard must not outlive
    /// `ctx` (it is always a local of the function that borrows `ctx`).
    pub(crate) fn enter<S: Shape>(ctx: &Context<'_, S>) -> PositionGuard {
        let ptr = (ctx as *const Context<'_, S>).cast::<()>();
        let board = BoardGuard::enter(ctx.grid().geometry().layout());
        PositionGuard {
            prev: POSITION.with(|p| p.replace((ptr, Some(TypeId::of::<S>())))),
            _board: board,
        }
    }
}

impl Drop for PositionGuard {
    fn drop(&mut self) {
        POSITION.with(|p| p.set(self.prev));
    }
}

/// Runs `f` on the current position's context when `grid` is that position, else on a context
/// built for `grid` alone.
fn with_context<S: Shape, R>(grid: &Grid<S>, f: impl FnOnce(&Context<'_, S>) -> R) -> R {
    let (ptr, shape) = POSITION.with(StdCell::get);
    if !ptr.is_null() && shape == Some(TypeId::of::<S>()) {
        // SAFETY: the pointer was set by a `PositionGuard` on this thread, which lives in the
        // function that borrows the context and runs the script call; the script (and so this
        // helper) returns before the guard is dropped, so the context is alive here. Its shape
        // is `S` (checked above), and it is only read through a shared reference, as the
        // context is borrowed.
        let ctx = unsafe { &*ptr.cast::<Context<'_, S>>() };
        if ctx.grid() == grid {
            return f(ctx);
        }
    }
    f(&Context::new(grid))
}

/// Registers the context helpers for grids of shape `S`: `grid.bivalue()`,
/// `grid.strong_links(d)`, `grid.partners(cell, d)`, `grid.als()` and the `Als` type.
pub(crate) fn register<S: Shape>(engine: &mut Engine) {
    engine.register_fn("bivalue", |g: &mut Grid<S>| {
        with_context(g, |ctx| ctx.bivalue_cells())
    });
    engine.register_fn("strong_links", |g: &mut Grid<S>, d: i64| -> Res<Array> {
        let d = digit_in(d, S::N)?;
        Ok(with_context(g, |ctx| {
            ctx.strong_links_of(d)
                .iter()
                .map(|l| Dynamic::from(l.cells::<S>()))
                .collect()
        }))
    });
    engine.register_fn(
        "partners",
        |g: &mut Grid<S>, c: Cell, d: i64| -> Res<CellSet<S>> {
            let d = digit_in(d, S::N)?;
            if !cell_on(c, S::N) {
                return Err(format!("{c} is not a cell of a {n}x{n} board", n = S::N).into());
            }
            Ok(with_context(g, |ctx| partners(ctx, c, d)))
        },
    );
    engine.register_fn("als", |g: &mut Grid<S>| -> Array {
        with_context(g, |ctx| {
            ctx.als().iter().copied().map(Dynamic::from).collect()
        })
    });

    engine.register_type_with_name::<Als<S>>("Als");
    engine.register_fn("to_string", |a: &mut Als<S>| a.describe());
    engine.register_fn("to_debug", |a: &mut Als<S>| a.describe());
    engine.register_get("cells", |a: &mut Als<S>| a.cells);
    engine.register_fn("cells", |a: &mut Als<S>| a.cells);
    engine.register_get("mask", |a: &mut Als<S>| mask_int(a.digits));
    engine.register_fn("mask", |a: &mut Als<S>| mask_int(a.digits));
    engine.register_get("digits", |a: &mut Als<S>| digits_array(a.digits));
    engine.register_fn("digits", |a: &mut Als<S>| digits_array(a.digits));
    engine.register_get("len", |a: &mut Als<S>| a.cells.len() as i64);
    engine.register_fn("len", |a: &mut Als<S>| a.cells.len() as i64);
    engine.register_get("house", |a: &mut Als<S>| house_of(a.cells));
    engine.register_fn("house", |a: &mut Als<S>| house_of(a.cells));
    engine.register_fn("cells_of", |a: &mut Als<S>, d: i64| -> Res<CellSet<S>> {
        Ok(a.cells_of(digit_in(d, S::N)?))
    });
    engine.register_fn("seen_by", |a: &mut Als<S>, d: i64| -> Res<CellSet<S>> {
        Ok(a.seen_by(digit_in(d, S::N)?))
    });
    engine.register_fn("has", |a: &mut Als<S>, d: i64| -> Res<bool> {
        Ok(a.has(digit_in(d, S::N)?))
    });
    engine.register_fn("==", |a: &mut Als<S>, b: Als<S>| a.cells == b.cells);
    engine.register_fn("!=", |a: &mut Als<S>, b: Als<S>| a.cells != b.cells);
}

/// The cells joined to `cell`'s `digit` by a strong link: in each house of `cell` where the
/// digit has exactly two places, the other one.
fn partners<S: Shape>(ctx: &Context<'_, S>, cell: Cell, digit: u8) -> CellSet<S> {
    let grid = ctx.grid();
    if !grid.digit_cells(digit).contains(cell) {
        return CellSet::EMPTY;
    }
    grid.geometry()
        .houses_of(cell)
        .into_iter()
        .map(|h| grid.digit_cells_in(digit, h))
        .filter(|s| s.len() == 2)
        .fold(CellSet::EMPTY, |acc, s| acc | s)
        - CellSet::single(cell)
}

/// The first house (row, column, box) holding every cell of a set, as the script sees it:
/// `()` when none does (an ALS always lies in one house).
fn house_of<S: Shape>(cells: CellSet<S>) -> Dynamic {
    let geo = super::searched::geo::<S>();
    geo.houses()
        .find(|&h| cells.is_subset(geo.house(h)))
        .map_or(Dynamic::UNIT, Dynamic::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cell::digits;
    use crate::text::nine::parse_puzzle;

    /// The basic techniques get stuck on this one.
    const STUCK: &str =
        "........2.......39..7..1..........53......6....1.92........87.....5.4....39......";

    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn the_current_position_is_used_only_for_its_own_grid() {
        let grid = parse_puzzle(PUZZLE).unwrap();
        let ctx = Context::new(&grid);
        let _guard = PositionGuard::enter(&ctx);
        let here = with_context(&grid, |c| std::ptr::eq(c, &ctx));
        assert!(here, "the guarded context serves its grid");
        let mut other = grid.clone();
        let c = other.empty_cells().first().unwrap();
        let d = digits(other.candidates(c)).next().unwrap();
        other.eliminate(c, d);
        let elsewhere = with_context(&other, |c| std::ptr::eq(c, &ctx));
        assert!(!elsewhere, "another grid gets a context of its own");
    }

    #[test]
    fn the_guard_restores_the_previous_position() {
        let grid = parse_puzzle(PUZZLE).unwrap();
        let outer = Context::new(&grid);
        let _a = PositionGuard::enter(&outer);
        {
            let inner = Context::new(&grid);
            let _b = PositionGuard::enter(&inner);
            assert!(with_context(&grid, |c| std::ptr::eq(c, &inner)));
        }
        assert!(with_context(&grid, |c| std::ptr::eq(c, &outer)));
    }

    #[test]
    fn partners_are_the_other_ends_of_the_strong_links() {
        let grid = parse_puzzle(PUZZLE).unwrap();
        let ctx = Context::new(&grid);
        for link in ctx.strong_links() {
            assert!(partners(&ctx, link.a, link.digit).contains(link.b));
            assert!(partners(&ctx, link.b, link.digit).contains(link.a));
        }
        for c in grid.empty_cells() {
            for d in 1..=9 {
                let want: CellSet = ctx
                    .strong_links_of(d)
                    .iter()
                    .filter_map(|l| l.other(c))
                    .collect();
                assert_eq!(partners(&ctx, c, d), want, "{c} {d}");
            }
        }
    }

    /// The position's context as a script reads it: bivalue cells, strong links, strong-link
    /// partners and almost locked sets, the same as the engine's own.
    #[test]
    fn scripts_read_the_position_context() {
        let grid = parse_puzzle(STUCK).unwrap();
        let ctx = Context::new(&grid);
        let host = crate::script::ScriptHost::shared();
        let mut scope = rhai::Scope::new();
        scope.push("grid", grid.clone());
        let mut eval = |e: &str| {
            host.engine()
                .eval_with_scope::<String>(&mut scope, &format!("`${{{e}}}`"))
                .unwrap_or_else(|err| panic!("{e}: {err}"))
        };
        assert_eq!(eval("grid.bivalue()"), ctx.bivalue_cells().to_string());
        for d in 1..=9u8 {
            let links: Vec<String> = ctx
                .strong_links_of(d)
                .iter()
                .map(|l| l.cells::<crate::model::S9>().to_string())
                .collect();
            let script = eval(&format!("grid.strong_links({d}).map(|l| `${{l}}`)"));
            assert_eq!(script, format!("{links:?}"), "strong links of {d}");
        }
        let c = grid.empty_cells().first().unwrap();
        for d in 1..=9u8 {
            let want: CellSet = ctx
                .strong_links_of(d)
                .iter()
                .filter_map(|l| l.other(c))
                .collect();
            let got = eval(&format!("grid.partners(cell(\"{c}\"), {d})"));
            assert_eq!(got, want.to_string(), "partners of {d}{c}");
        }
        let als = ctx.als();
        assert!(!als.is_empty());
        assert_eq!(eval("grid.als().len()"), als.len().to_string());
        let last = als.last().unwrap();
        let d = digits(last.digits).next().unwrap();
        assert_eq!(eval("grid.als()[-1].cells"), last.cells.to_string());
        assert_eq!(eval("grid.als()[-1].mask"), last.digits.to_string());
        assert_eq!(eval("grid.als()[-1].len"), last.cells.len().to_string());
        assert_eq!(eval("grid.als()[-1]"), last.describe());
        assert_eq!(
            eval(&format!("grid.als()[-1].cells_of({d})")),
            last.cells_of(d).to_string()
        );
        assert_eq!(
            eval(&format!("grid.als()[-1].seen_by({d})")),
            last.seen_by(d).to_string()
        );
        assert_eq!(eval(&format!("grid.als()[-1].has({d})")), "true");
        assert!(eval("grid.als()[-1].house").starts_with(['r', 'c', 'b']));
        let e = host
            .engine()
            .eval_with_scope::<rhai::Dynamic>(&mut scope, "grid.partners(cell(\"r1c1\"), 10)")
            .unwrap_err()
            .to_string();
        assert!(e.contains("digit 10 is not 1..9"), "{e}");
    }
}

//! Unit tests of the script API on boards of every size.
use rhai::Scope;

use super::*;
use crate::model::Layout;
use crate::script::context::PositionGuard;
use crate::technique::context::Context;
use crate::text::Puzzle;

/// A generated 16x16 puzzle (4x4 boxes).
const SIXTEEN: &str = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";

const NINE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The grid of `line` on `layout`.
fn grid_of<S: Shape>(line: &str, layout: Layout) -> Grid<S> {
    let p = Puzzle::parse(line).unwrap();
    Grid::from_value_slice(S::geometry(layout), p.values())
}

/// Evaluates each expression as a string, with `grid` in scope and its position current
/// (as during a search), and returns the results.
fn eval_on<S: Shape>(grid: &Grid<S>, exprs: &[&str]) -> Vec<Result<String, String>> {
    let ctx = Context::new(grid);
    let _position = PositionGuard::enter(&ctx);
    let host = crate::script::ScriptHost::shared();
    let mut scope = Scope::new();
    scope.push("grid", grid.clone());
    exprs
        .iter()
        .map(|e| {
            host.engine()
                .eval_with_scope::<String>(&mut scope, &format!("`${{{e}}}`"))
                .map_err(|err| err.to_string())
        })
        .collect()
}

fn ok<S: Shape>(grid: &Grid<S>, expr: &str) -> String {
    eval_on(grid, &[expr])
        .remove(0)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn fails<S: Shape>(grid: &Grid<S>, expr: &str) -> String {
    match eval_on(grid, &[expr]).remove(0) {
        Ok(v) => panic!("{expr} gave {v}, expected an error"),
        Err(e) => e,
    }
}

#[test]
fn the_shape_comes_from_the_board_being_searched() {
    let g16 = grid_of::<S16>(SIXTEEN, Layout::new(16).unwrap());
    for (expr, want) in [
        ("grid.size", "16"),
        ("size()", "16"),
        ("grid.box_rows", "4"),
        ("box_cols()", "4"),
        ("grid.house_count", "48"),
        ("house_count()", "48"),
        ("grid.digits.len()", "16"),
        ("digits()[-1]", "16"),
        ("all_digits()", "65535"),
        ("rows().len()", "16"),
        ("grid.cols[15]", "c16"),
        ("boxes()[15]", "b16"),
        ("houses(\"line\").len()", "32"),
        ("grid.houses(\"box\").len()", "16"),
        ("all_cells().len", "256"),
        ("grid.all_cells.len", "256"),
        ("cell(12, 16)", "r12c16"),
        ("cell(\"r12c16\").box", "12"),
        ("cell(12, 16).index", "191"),
        ("cell(12, 16).peers.len", "39"),
        ("grid.peers(cell(1, 1)).len", "39"),
        ("cell(12, 16).houses", "[r12, c16, b12]"),
        ("house(\"b16\").cells.len", "16"),
        ("house(\"c16\").index", "31"),
        ("grid.house_cells(house(\"r16\")).first", "r16c1"),
        ("cells_of([house(\"r1\"), house(\"c1\")]).len", "31"),
        ("(cell(1, 1) | cell(16, 16)).len", "2"),
        ("cellset([\"r16c16\", cell(1, 2)]).len", "2"),
        ("complement(0)", "65535"),
        ("mask([16, 1])", "32769"),
        ("digits(32769)", "[1, 16]"),
        ("bit(16)", "32768"),
        ("mask_len(65535)", "16"),
        ("grid.cells(16).len > 0", "true"),
        ("grid.cells_by_house(16, \"row\").len()", "16"),
    ] {
        assert_eq!(ok(&g16, expr), want, "{expr}");
    }
    // what a script reads of the grid is the engine's own
    let c = g16.empty_cells().first().unwrap();
    assert_eq!(
        ok(&g16, &format!("grid.candidates(cell(\"{c}\"))")),
        format!("{:?}", digits(g16.candidates(c)).collect::<Vec<_>>())
    );
    assert_eq!(
        ok(&g16, "grid.bivalue()"),
        Context::new(&g16).bivalue_cells().to_string()
    );
    assert!(fails(&g16, "cell(17, 1)").contains("row and column are 1..16"));
    assert!(fails(&g16, "grid.cells(17)").contains("digit 17 is not 1..16"));
    assert!(fails(&g16, "bit(0)").contains("digit 0 is not 1..16"));
    assert!(fails(&g16, "digits(65536)").contains("0..=65535"));
}

#[test]
fn boxes_take_the_layouts_shape() {
    // 6x6 with boxes of three rows and two columns
    let line = "..61.5...36.5..4...3.....65.........";
    let tall = Layout::with_box(6, 3, 2).unwrap();
    let g = grid_of::<S6>(line, tall);
    assert_eq!(ok(&g, "grid.box_rows"), "3");
    assert_eq!(ok(&g, "box_cols()"), "2");
    // r1c3 is in the second box of the first band (boxes two cells wide)
    assert_eq!(ok(&g, "cell(1, 3).box"), "2");
    assert_eq!(
        ok(&g, "house(\"b1\").cells"),
        "r1c1,r1c2,r2c1,r2c2,r3c1,r3c2"
    );
    assert_eq!(ok(&g, "cell(1, 1).peers.len"), "12");
    let wide = grid_of::<S6>(line, Layout::new(6).unwrap());
    assert_eq!(ok(&wide, "cell(1, 3).box"), "1");
    assert_eq!(
        ok(&wide, "house(\"b1\").cells"),
        "r1c1,r1c2,r1c3,r2c1,r2c2,r2c3"
    );
}

#[test]
fn cells_off_the_board_are_errors_not_panics() {
    let g9 = grid_of::<S9>(NINE, Layout::NINE);
    assert!(fails(&g9, "cell(\"r12c16\")").contains("not a cell of a 9x9 board"));
    assert!(fails(&g9, "cell(10, 1)").contains("row and column are 1..9"));
    assert!(fails(&g9, "house(\"r10\")").contains("not a house of a 9x9 board"));
    assert!(fails(&g9, "grid.cells(10)").contains("digit 10 is not 1..9"));
    assert!(fails(&g9, "digits(512)").contains("0..=511"));
    let g6 = grid_of::<S6>(
        "..61.5...36.5..4...3.....65.........",
        Layout::new(6).unwrap(),
    );
    for expr in [
        "cell(\"r7c1\")",
        "cellset([\"r1c7\"])",
        "house(\"b7\")",
        "step().eliminate(cell(1, 1), 7)",
        "step().house(\"r9\")",
    ] {
        fails(&g6, expr);
    }
    // a 9x9 cell met on a 6x6 board (kept from elsewhere) is refused by the helpers
    let mut scope = Scope::new();
    scope.push("grid", g6.clone());
    let host = crate::script::ScriptHost::shared();
    let ctx = Context::new(&g6);
    let _position = PositionGuard::enter(&ctx);
    scope.push("far", Cell::at(8, 8));
    for expr in ["far.peers", "grid.candidates(far)", "grid.all_cells | far"] {
        let r = host.engine().eval_with_scope::<Dynamic>(&mut scope, expr);
        let e = r.expect_err(expr).to_string();
        assert!(
            e.contains("r9c9 is not a cell of a 6x6 board"),
            "{expr}: {e}"
        );
    }
}

#[test]
fn nine_by_nine_reads_as_before() {
    let g9 = grid_of::<S9>(NINE, Layout::NINE);
    // the board's helpers outside a search are 9x9's too
    let host = crate::script::ScriptHost::shared();
    let plain = |e: &str| {
        host.engine()
            .eval::<String>(&format!("`${{{e}}}`"))
            .unwrap_or_else(|err| panic!("{e}: {err}"))
    };
    for (expr, want) in [
        ("size()", "9"),
        ("rows().len()", "9"),
        ("cell(5, 5).box", "5"),
        ("cell(9, 9).index", "80"),
        ("house(\"b9\").index", "26"),
        (
            "house(\"b5\").cells",
            "r4c4,r4c5,r4c6,r5c4,r5c5,r5c6,r6c4,r6c5,r6c6",
        ),
        ("cell(1, 1).peers.len", "20"),
        ("complement(1)", "510"),
        ("all_cells().len", "81"),
    ] {
        assert_eq!(plain(expr), want, "{expr}");
        assert_eq!(ok(&g9, expr), want, "{expr} on a position");
    }
    assert_eq!(ok(&g9, "grid"), g9.to_line());
    assert_eq!(ok(&g9, "grid.size"), "9");
    assert_eq!(ok(&g9, "grid.digits"), "[1, 2, 3, 4, 5, 6, 7, 8, 9]");
}

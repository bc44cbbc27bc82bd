//! The cost of each script operation: `cargo bench --bench script_ops`.
//!
//! Each line runs one API call (or language construct) in a script loop on a real position and
//! prints its cost in ns per call, the cost of the bare loop step subtracted. These are the
//! figures docs/scripting.md quotes, so a script author can tell what a loop will cost.

use std::time::Instant;

use lapiz::Grid;
use lapiz::script::{Limits, ScriptHost};
use lapiz::text::parse_line;
use rhai::{Dynamic, Scope};

/// A position from the middle of a solve (many candidates left).
const POSITION: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// Iterations per measurement.
const N: i64 = 200_000;

/// The operations measured: a label and the loop body (the setup defines `s`, `t`, `c`, `h`,
/// `m`, `k`, `d`, `a` and `grid`).
const OPS: &[(&str, &str)] = &[
    ("bare loop step", ""),
    ("assign an integer", "k = 1;"),
    ("integer add", "k += 1;"),
    ("k = k + 1", "k = k + 1;"),
    ("if on an integer", "if k == 3 { k = 0; }"),
    ("grid.cells(d)", "grid.cells(d);"),
    ("grid.cells_in(d, h)", "grid.cells_in(d, h);"),
    ("grid.mask(c)", "grid.mask(c);"),
    ("grid.has(c, d)", "grid.has(c, d);"),
    ("grid.candidates(c)", "grid.candidates(c);"),
    ("grid.bivalue()", "grid.bivalue();"),
    ("boxes()", "boxes();"),
    ("houses(\"line\")", "houses(\"line\");"),
    ("h.cells", "h.cells;"),
    ("c.peers", "c.peers;"),
    ("s & t", "s & t;"),
    ("s | t", "s | t;"),
    ("s - t", "s - t;"),
    ("let u = s & t", "let u = s & t;"),
    ("s.len", "s.len;"),
    ("s.is_empty", "s.is_empty;"),
    ("s.contains(c)", "s.contains(c);"),
    ("s.intersects(t)", "s.intersects(t);"),
    ("s == t", "s == t;"),
    ("s.first", "s.first;"),
    ("for x in s {} (per cell)", "for x in s {}"),
    ("for x in a {} (9 houses)", "for x in a {}"),
    ("mask_len(m)", "mask_len(m);"),
    ("m & 6", "m & 6;"),
    ("call a script fn", "f(k);"),
];

fn main() {
    let host = ScriptHost::new(Limits {
        max_operations: 0,
        ..Limits::default()
    });
    let engine = host.engine();
    let grid: Grid = parse_line(POSITION).expect("valid position");
    let cells_in_s = grid.digit_cells(3).len() as f64;
    let mut base = 0.0;
    println!("{:<28} {:>10}", "operation", "ns/call");
    for (label, body) in OPS {
        let script = format!(
            "fn f(x) {{ x }}\n\
             fn run(grid, n) {{\n\
               let s = grid.cells(3); let t = grid.cells(5); let c = cell(\"r2c2\");\n\
               let h = house(\"b1\"); let m = grid.mask(c); let k = 0; let d = 3;\n\
               let a = boxes();\n\
               for i in 0..n {{ {body} }}\n\
             }}"
        );
        let ast = engine.compile(&script).expect("the op scripts compile");
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let mut scope = Scope::new();
            let start = Instant::now();
            let _ = engine
                .call_fn::<Dynamic>(&mut scope, &ast, "run", (grid.clone(), N))
                .expect("the op scripts run");
            best = best.min(start.elapsed().as_secs_f64() * 1e9 / N as f64);
        }
        if body.is_empty() {
            base = best;
            println!("{label:<28} {best:>10.1}");
        } else {
            let mut cost = best - base;
            if label.contains("per cell") {
                cost /= cells_in_s;
            }
            println!("{label:<28} {cost:>10.1}");
        }
    }
}

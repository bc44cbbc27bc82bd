//! Every grid size (4x4 to 25x25): reading every format, the brute force, the generator (its
//! puzzles checked unique and minimal by an independent exact-cover solver written here), the
//! commands that take every size, and bad input.

mod common;

use common::cli::{run_lapiz, run_lapiz_stdin, text};
use common::temp_file;
use lapiz::Grid;
use lapiz::Pipeline;
use lapiz::engine::{Entry, Outcome};
use lapiz::model::{Alphabet, Layout, S6, S8, S12, S16, Shape};
use lapiz::puzzle::generate::{Clues, GenerateOptions, Symmetry};
use lapiz::text::Puzzle;

/// The puzzle `lapiz generate` makes of `seed` (first index, 1-9A-Z symbols, no symmetry).
fn made(layout: Layout, clues: Clues, seed: u64) -> Puzzle {
    pair(
        layout,
        &GenerateOptions {
            clues,
            ..Default::default()
        },
        seed,
        0,
    )
    .0
}

/// Puzzle `index` of `seed` on `layout` with `options` and its solution.
fn pair(layout: Layout, options: &GenerateOptions, seed: u64, index: u64) -> (Puzzle, Puzzle) {
    let made = Puzzle::generate(
        layout,
        Alphabet::Standard,
        options,
        &Pipeline::default_pipeline(),
        seed,
        index,
    );
    let made = made.unwrap_or_else(|e| panic!("{layout} seed {seed}: {e}"));
    (made.puzzle, made.solution)
}

/// A minimal exact-cover solver (Knuth's Algorithm X on plain vectors, no dancing links), as
/// independent of lapiz's brute force as can be: counts the solutions of a puzzle, up to
/// `limit`. Columns: each cell filled, each digit once in each row, column and box.
fn exact_cover_count(layout: Layout, values: &[u8], limit: usize) -> usize {
    let n = layout.n();
    let columns = 4 * n * n;
    // rows of the cover matrix: (cell, digit) -> its four columns
    let row_of = |cell: usize, d: usize| -> [usize; 4] {
        let (r, c) = (cell / n, cell % n);
        let b = layout.box_of(r, c);
        [
            cell,
            n * n + r * n + d,
            2 * n * n + c * n + d,
            3 * n * n + b * n + d,
        ]
    };
    let mut rows: Vec<[usize; 4]> = Vec::new();
    for (cell, &v) in values.iter().enumerate().take(n * n) {
        for d in 0..n {
            if v == 0 || usize::from(v) == d + 1 {
                rows.push(row_of(cell, d));
            }
        }
    }
    let mut by_column: Vec<Vec<usize>> = vec![Vec::new(); columns];
    for (i, r) in rows.iter().enumerate() {
        for &c in r {
            by_column[c].push(i);
        }
    }
    fn search(
        rows: &[[usize; 4]],
        by_column: &[Vec<usize>],
        covered: &mut Vec<bool>,
        dead: &mut Vec<u32>,
        found: &mut usize,
        limit: usize,
    ) {
        // the uncovered column with the fewest live rows
        let mut best: Option<(usize, usize)> = None;
        for (c, list) in by_column.iter().enumerate() {
            if covered[c] {
                continue;
            }
            let live = list.iter().filter(|&&r| dead[r] == 0).count();
            if best.is_none_or(|(_, k)| live < k) {
                best = Some((c, live));
            }
        }
        let Some((column, live)) = best else {
            *found += 1;
            return;
        };
        if live == 0 {
            return;
        }
        let candidates: Vec<usize> = by_column[column]
            .iter()
            .copied()
            .filter(|&r| dead[r] == 0)
            .collect();
        for r in candidates {
            // choose row r: cover its columns, kill the rows that share one
            let mut killed = Vec::new();
            for &c in &rows[r] {
                covered[c] = true;
                for &other in &by_column[c] {
                    dead[other] += 1;
                    killed.push(other);
                }
            }
            search(rows, by_column, covered, dead, found, limit);
            for &c in &rows[r] {
                covered[c] = false;
            }
            for k in killed {
                dead[k] -= 1;
            }
            if *found >= limit {
                return;
            }
        }
    }
    let mut covered = vec![false; columns];
    let mut dead = vec![0u32; rows.len()];
    let mut found = 0;
    search(
        &rows,
        &by_column,
        &mut covered,
        &mut dead,
        &mut found,
        limit,
    );
    found
}

#[test]
fn the_exact_cover_check_counts_right() {
    let empty4 = Layout::new(4).unwrap();
    assert_eq!(exact_cover_count(empty4, &[0; 16], 1000), 288);
    let p = Puzzle::parse("3.1...2.2....4..").unwrap();
    assert_eq!(exact_cover_count(p.layout(), p.values(), 10), 1);
    let clash = Puzzle::parse("33..............").unwrap();
    assert_eq!(exact_cover_count(clash.layout(), clash.values(), 10), 0);
    assert_eq!(clash.count_solutions(10), 0);
}

#[test]
fn generated_puzzles_of_small_sizes_are_unique_and_minimal_by_an_independent_check() {
    for (n, boxes, count) in [
        (4, None, 10),
        (6, None, 6),
        (6, Some((3, 2)), 4),
        (8, None, 3),
        (8, Some((4, 2)), 2),
    ] {
        let layout = match boxes {
            Some((r, c)) => Layout::with_box(n, r, c).unwrap(),
            None => Layout::new(n).unwrap(),
        };
        for i in 0..count {
            let (p, s) = pair(layout, &GenerateOptions::default(), 11, i);
            assert_eq!(exact_cover_count(layout, p.values(), 2), 1, "{layout} {p}");
            assert_eq!(p.solution().unwrap(), s);
            // minimal: each clue taken away leaves several solutions
            for cell in (0..layout.cells()).filter(|&c| p.values()[c] != 0) {
                let mut fewer = p.values().to_vec();
                fewer[cell] = 0;
                assert!(
                    exact_cover_count(layout, &fewer, 2) > 1,
                    "{layout} {p}: clue {cell} is not needed"
                );
            }
            assert!(p.is_minimal(Symmetry::None));
        }
    }
}

#[test]
fn generated_puzzles_of_large_sizes_are_unique_and_minimal() {
    // 12x12 both ways and 16x16: unique by the independent check, minimal by the brute force
    for (n, boxes) in [(12, None), (12, Some((4, 3))), (16, None)] {
        let layout = match boxes {
            Some((r, c)) => Layout::with_box(n, r, c).unwrap(),
            None => Layout::new(n).unwrap(),
        };
        let (p, s) = pair(
            layout,
            &GenerateOptions {
                symmetry: Symmetry::Rot180,
                ..Default::default()
            },
            5,
            0,
        );
        if n == 12 {
            assert_eq!(exact_cover_count(layout, p.values(), 2), 1, "{layout} {p}");
        }
        assert_eq!(p.solution().unwrap(), s);
        assert!(p.is_minimal(Symmetry::Rot180), "{layout} {p}");
        let v = p.values();
        let cells = layout.cells();
        assert!(
            (0..cells).all(|i| (v[i] == 0) == (v[cells - 1 - i] == 0)),
            "not half-turn symmetric: {p}"
        );
    }
}

#[test]
fn a_twenty_five_by_twenty_five_puzzle_is_made_and_solved() {
    let layout = Layout::new(25).unwrap();
    let (p, s) = pair(
        layout,
        &GenerateOptions {
            clues: Clues::AtMost(400),
            ..Default::default()
        },
        3,
        0,
    );
    assert!(p.clues() <= 400);
    assert_eq!(p.solution().unwrap(), s);
    let line = p.to_line();
    assert_eq!(line.len(), 625);
    assert!(line.contains('P') && !line.contains('Q'));
    // read back in every alphabet it can be written in
    for alphabet in [Alphabet::Standard, Alphabet::Letters, Alphabet::Numbers] {
        let text = p.in_alphabet(alphabet).to_line();
        let back = Puzzle::parse_with(&text, Some(alphabet), None).unwrap();
        assert_eq!(back.values(), p.values(), "{alphabet}");
    }
    let (steps, after) = p.solve_by_singles();
    assert!(!steps.is_empty());
    for (a, b) in after.values().iter().zip(s.values()) {
        assert!(*a == 0 || a == b);
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzles() {
    let layout = Layout::new(16).unwrap();
    let a = pair(layout, &GenerateOptions::default(), 9, 4);
    let b = pair(layout, &GenerateOptions::default(), 9, 4);
    assert_eq!(a, b);
    let c = pair(layout, &GenerateOptions::default(), 9, 5);
    assert_ne!(a.0, c.0);
    // and from the command line, on any number of threads
    let six = |before: &[&str], after: &[&str]| {
        let mut args = before.to_vec();
        args.extend(["generate", "--size", "6", "--count", "8", "--seed", "4"]);
        args.extend(after);
        run_lapiz(&args)
    };
    let one = six(&["--threads", "1"], &[]);
    let two = six(&["--threads", "2"], &[]);
    assert!(one.0 && two.0, "{}", one.2);
    assert_eq!(one.1, two.1);
    assert_eq!(one.1.lines().count(), 8);
    // `--attempts` counts on every size: no 6x6 puzzle with 5 clues has one solution
    let (ok, _, err) = run_lapiz(&["generate", "--size", "6", "--clues", "5", "--attempts", "3"]);
    assert!(!ok && err.contains("in 3 attempts"), "{err}");
    // fewer clues than any 4x4 puzzle with one solution has: refused at once
    let (ok, _, err) = run_lapiz(&["generate", "--size", "4", "--clues", "2", "--attempts", "3"]);
    assert!(!ok && err.contains("fewer than 4"), "{err}");
    let (ok, _, err) = run_lapiz(&["generate", "--size", "6", "--attempts", "0"]);
    assert!(!ok && err.contains("0 attempts"), "{err}");
    // a limit that is not reached changes nothing
    let (ok, few, _) = six(&[], &["--attempts", "5"]);
    assert!(ok);
    assert_eq!(few, one.1);
    for line in one.1.lines() {
        assert_eq!(Puzzle::parse(line).unwrap().count_solutions(2), 1, "{line}");
    }
}

#[test]
fn the_four_sixteen_by_sixteen_files_read_alike() {
    let (Some(zero), Some(numbers), Some(first), Some(tough)) = (
        common::read_data("puzzles/16x16/grid-a-0f.txt"),
        common::read_data("puzzles/16x16/grid-a-1-16.txt"),
        common::read_data("puzzles/16x16/grid-b-1g.txt"),
        common::read_data("puzzles/16x16/tough-206.txt"),
    ) else {
        return;
    };
    let a = Puzzle::parse(&zero).unwrap();
    assert_eq!(a.alphabet(), Alphabet::ZeroFirst);
    let b = Puzzle::parse(&numbers).unwrap();
    assert_eq!(b.alphabet(), Alphabet::Numbers);
    // the same puzzle: the same solution, the 0-9A-F grid's clues among them
    assert_eq!(
        a.solution().unwrap().values(),
        b.solution().unwrap().values()
    );
    assert!(
        b.values()
            .iter()
            .zip(a.values())
            .all(|(&x, &y)| x == 0 || x == y)
    );
    let c = Puzzle::parse(&first).unwrap();
    let first_line = tough.lines().find(|l| !l.starts_with('#')).unwrap();
    assert_eq!(c, Puzzle::parse(first_line).unwrap());
    // every one of tarek's puzzles has one solution: the first 30 here (all by `lapiz count`,
    // see docs/performance.md)
    for line in tough.lines().filter(|l| !l.starts_with('#')).take(30) {
        let p = Puzzle::parse(line).unwrap();
        assert_eq!((p.layout().n(), p.count_solutions(2)), (16, 1), "{line}");
    }
    // the command line reads the grid files as one puzzle each, in their own symbols
    for (file, start) in [
        ("grid-a-0f.txt", ".5..6..E"),
        ("grid-a-1-16.txt", ". 5 . . 6"),
        ("grid-b-1g.txt", ".A729.BC"),
    ] {
        let path = common::data_file(&format!("puzzles/16x16/{file}")).unwrap();
        let (ok, out, err) = run_lapiz(&["count", "--file", path.to_str().unwrap()]);
        assert!(ok, "{file}: {err}");
        assert!(out.starts_with(start), "{file}: {out}");
        assert!(
            out.ends_with("puzzles: 1, unique: 1, none: 0, multiple: 0\n"),
            "{file}: {out}"
        );
    }
}

#[test]
fn every_size_is_counted_from_a_file_with_grids_and_lines_mixed() {
    let mut file = String::from("# one puzzle of each size, some spread over lines\n");
    for (k, &n) in Layout::SIZES.iter().enumerate() {
        let layout = Layout::new(n).unwrap();
        let clues = if n == 25 {
            Clues::AtMost(450)
        } else {
            Clues::Minimal
        };
        let (p, _) = pair(
            layout,
            &GenerateOptions {
                clues,
                ..Default::default()
            },
            21,
            k as u64,
        );
        if k % 2 == 0 {
            file.push_str(&p.to_line());
            file.push('\n');
        } else {
            file.push_str(&p.to_grid());
            file.push_str("\n\n");
        }
    }
    let path = temp_file("sizes", "mixed.txt", &file);
    let (ok, out, err) = run_lapiz(&["count", "--file", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.ends_with("puzzles: 7, unique: 7, none: 0, multiple: 0\n"),
        "{out}"
    );
    let lengths: Vec<usize> = out
        .lines()
        .take(7)
        .map(|l| l.split('\t').next().unwrap().len())
        .collect();
    assert_eq!(lengths, [16, 36, 64, 81, 144, 256, 625]);
    // its own output reads back: a puzzle line of any size followed by more fields (the
    // count) is the puzzle
    let counted: String = out.lines().take(7).map(|l| format!("{l}\n")).collect();
    let again = temp_file("sizes", "counted.txt", &counted);
    let (ok, back, err) = run_lapiz(&["count", "--file", again.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(back, out);
}

#[test]
fn solve_and_candidates_take_every_size() {
    let six = "..3.2..1....4..........6.4..1.3.....";
    let p = Puzzle::parse(six).unwrap();
    let line = if p.count_solutions(2) == 1 {
        six.to_string()
    } else {
        made(p.layout(), Clues::Minimal, 1).to_line()
    };
    let (ok, out, err) = run_lapiz(&["solve", &line]);
    assert!(ok, "{err}");
    assert!(out.contains("6x6 (2x3 boxes)"), "{out}");
    assert!(out.contains("Single"), "{out}");
    assert!(
        out.contains("Solved in") || out.contains("Stuck after"),
        "{out}"
    );
    let (ok, out, _) = run_lapiz(&["candidates", &line]);
    assert!(ok);
    assert_eq!(out.lines().count(), 6 + 2, "{out}");
    // tall boxes asked for
    let (ok, out, err) = run_lapiz(&["candidates", "--box", "3x2", &line]);
    assert!(ok, "{err}");
    assert!(out.lines().nth(1).unwrap().contains('|'), "{out}");
    // a RON trace of another size reads back, its cells and solution of that size
    let (ok, out, err) = run_lapiz(&["solve", "--format", "ron", &line]);
    assert!(ok, "{err}");
    let trace = lapiz::engine::Trace::from_ron(&out).unwrap();
    assert_eq!(trace.solution.as_deref().map(str::len), Some(36), "{out}");
    assert_eq!(trace.summary.rejected, 0);
    // and the HTML page draws it (tests/sized_views.rs checks the page itself)
    let (ok, out, err) = run_lapiz(&["solve", "--format", "html", &line]);
    assert!(ok && out.starts_with("<!DOCTYPE html>"), "{err}");
}

#[test]
fn bad_input_is_named() {
    let cases: [(&str, &str); 5] = [
        (&".".repeat(100), "100 cells"),
        (
            &format!("{}H1{}", ".".repeat(17), ".".repeat(237)),
            "`H` at line 1, column 18",
        ),
        (
            &format!("{}\n{}Z{}", "*".repeat(16), "*".repeat(10), "*".repeat(229)),
            "`Z` at line 2, column 11",
        ),
        (&".".repeat(15), "15 cells"),
        ("", "empty"),
    ];
    for (input, want) in cases {
        let out = run_lapiz_stdin(&["candidates", input], None);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{input}: {err}");
        assert!(err.contains(want), "{input}: {err}");
    }
    // a box shape that does not fit, an alphabet that does not exist
    let line = ".".repeat(144);
    let (ok, _, err) = run_lapiz(&["candidates", "--box", "3x3", &line]);
    assert!(!ok && err.contains("3x3 boxes do not fit size 12"), "{err}");
    let (ok, _, err) = run_lapiz(&["count", "--file", "-", "--symbols", "roman"]);
    assert!(!ok && err.contains("not an alphabet"), "{err}");
    // a multi-solution or contradictory puzzle of another size
    let (ok, _, err) = run_lapiz(&["solve", &".".repeat(256)]);
    assert!(!ok && err.contains("more than one solution"), "{err}");
    // a batch keeps every line: a grid cut short is reported, the next puzzle still counted
    let file = format!(
        "{}\n.A729.BC.....3.1\n6..B3....D..A.2.\n",
        made(Layout::new(4).unwrap(), Clues::Minimal, 1)
    );
    let path = temp_file("sizes", "cut.txt", &file);
    let (ok, out, err) = run_lapiz(&["count", "--file", path.to_str().unwrap()]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("\terror") && out.contains("puzzles: 1, unique: 1"),
        "{out}"
    );
    assert!(err.contains(":2:") || err.contains("line 2"), "{err}");
}

#[test]
fn the_generic_brute_force_agrees_with_the_nine_by_nine_one() {
    let Some(puzzles) = common::puzzles("17-clue.txt", 150) else {
        return;
    };
    let Some(multi) = common::puzzles("multi-solution-10000.txt", 150) else {
        return;
    };
    for line in puzzles.iter().chain(&multi) {
        let values = lapiz::text::line_values(line).unwrap();
        let p = Puzzle::parse(line).unwrap();
        assert_eq!(
            p.count_solutions(3),
            lapiz::brute::count_solutions(&values, 3),
            "{line}"
        );
    }
}

#[test]
fn a_grid_cut_short_by_another_puzzle_loses_neither() {
    // two rows of a 16x16 grid, then a whole 6x6 puzzle line, then a line of six junk
    // characters (six is a size, but these are no 6x6 row). A 4x4 line of 1-4 would read as the
    // grid's next row (docs/sizes.md).
    let six = made(Layout::new(6).unwrap(), Clues::Minimal, 2).to_line();
    let file = format!(".A729.BC.....3.1\n6..B3....D..A.2.\n{six}\nbad500\n{six}\n");
    let path = temp_file("sizes", "interrupted.txt", &file);
    let (ok, out, _) = run_lapiz(&["count", "--file", path.to_str().unwrap()]);
    assert!(!ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].ends_with("\terror") && lines[0].contains(".A729.BC"),
        "{out}"
    );
    assert!(
        lines[1].starts_with(&six) && lines[1].ends_with("\t1"),
        "{out}"
    );
    assert_eq!(lines[2], "bad500\terror");
    assert!(lines[3].starts_with(&six), "{out}");
    assert_eq!(lines[4], "puzzles: 2, unique: 2, none: 0, multiple: 0");
}

#[test]
fn solve_file_takes_every_size() {
    let six = made(Layout::new(6).unwrap(), Clues::Minimal, 8).to_line();
    let nine = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let many = ".".repeat(256);
    let path = temp_file("sizes", "solve.txt", format!("{six}\n{nine}\n{many}\n"));
    let (_, out, err) = run_lapiz(&["solve", "--file", path.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with(&format!("{six}\t")), "{out}{err}");
    assert!(
        lines[0].contains("\tsolved\t") || lines[0].contains("\tstuck\t"),
        "{out}"
    );
    assert!(
        lines[1].starts_with(nine) && lines[1].contains("\tsolved\t"),
        "{out}"
    );
    assert!(
        lines[2].contains("\tinvalid\t0\t") && lines[2].contains("more than one solution"),
        "{out}"
    );
    // RON for every size: one trace per line
    let (_, out, err) = run_lapiz(&["solve", "--file", path.to_str().unwrap(), "--format", "ron"]);
    assert_eq!(out.matches("outcome").count(), 3, "{out}{err}");
    assert!(out.contains(&format!("puzzle: \"{six}\"")), "{out}");
}

/// Every size through the pipeline: each step the engine applies is checked against the
/// solution by the engine; here each is checked again, and none may be rejected or fail.
#[test]
fn every_size_solves_through_the_pipeline_with_every_step_verified() {
    let pipeline = lapiz::Pipeline::default_pipeline();
    for (n, puzzles) in [(4, 20), (6, 20), (8, 20), (12, 4), (16, 2)] {
        let layout = Layout::new(n).unwrap();
        let mut solved = 0;
        for seed in 0..puzzles {
            let p = made(layout, Clues::Minimal, seed);
            let t = p.solve(&pipeline);
            assert_eq!(t.summary.rejected, 0, "{}", p.to_line());
            let failed = t.entries.iter().any(|e| matches!(e, Entry::Failed { .. }));
            assert!(!failed, "{}: {:?}", p.to_line(), t.entries);
            let solution = p.solution().unwrap();
            assert_eq!(t.solution.as_deref(), Some(solution.to_line().as_str()));
            for step in t.steps() {
                assert!(step.contradiction_in(solution.values(), n.into()).is_none());
            }
            solved += usize::from(t.outcome == Outcome::Solved);
        }
        // the small sizes are solved by the techniques that run on every size
        if n <= 6 {
            assert_eq!(solved, puzzles as usize, "{n}x{n}");
        }
    }
}

/// The techniques that run on every size, over real positions of several sizes (generated
/// puzzles and tarek's tough 16x16 ones along their solves): every step each finds agrees
/// with the solution.
#[test]
fn the_techniques_of_every_size_are_sound_on_real_positions() {
    let mut puzzles: Vec<Puzzle> = [6u8, 8, 12, 16]
        .iter()
        .flat_map(|&n| (0..3).map(move |seed| made(Layout::new(n).unwrap(), Clues::Minimal, seed)))
        .collect();
    match common::data_file("puzzles/16x16/tough-206.txt") {
        Some(path) => {
            let text = std::fs::read_to_string(path).unwrap();
            let lines = text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
            puzzles.extend(lines.step_by(20).map(|l| Puzzle::parse(l).unwrap()));
        }
        None => eprintln!("skipping tarek's 16x16 puzzles: the shared data is absent"),
    }
    let techniques: Vec<_> = lapiz::technique::builtins()
        .into_iter()
        .filter(|t| t.runs_on(16))
        .collect();
    assert!(techniques.len() >= 22, "{}", techniques.len());
    let mut found = std::collections::BTreeMap::new();
    for p in &puzzles {
        match p.layout().n() {
            6 => sound::<S6>(p, &techniques, &mut found),
            8 => sound::<S8>(p, &techniques, &mut found),
            12 => sound::<S12>(p, &techniques, &mut found),
            _ => sound::<S16>(p, &techniques, &mut found),
        };
    }
    let steps: usize = found.values().sum();
    assert!(steps > 1000, "only {steps} steps checked");
    eprintln!("steps checked per technique: {found:?}");
    // the families the hard positions need were met, not only the easy ones
    for id in [
        "aic",
        "grouped-aic",
        "als-xz",
        "als-aic",
        "3d-medusa",
        "multi-colors-1",
        "unique-rectangle-1",
        "hidden-rectangle",
        "sue-de-coq",
        "forcing-chain",
        "dynamic-forcing-chain",
        "nested-forcing-chain",
        "kraken-fish-type-1",
    ] {
        assert!(
            found.get(id).is_some_and(|&k| k > 0),
            "no {id} step checked: {found:?}"
        );
    }
}

/// Whether the soundness test runs technique `id` on `n`x`n` boards: every one that runs there,
/// but Franken and mutant fish and nested forcing chains only up to 8x8, where listing every
/// one they find takes milliseconds (on 12x12 a finned mutant whale takes 40 s a position;
/// on 16x16 the nested chains' steps are checked by the solves of `tests/sized_traces.rs` and
/// of every tough puzzle, each step verified).
fn checked_on(id: &str, n: usize) -> bool {
    let runs = lapiz::technique::builtins()
        .into_iter()
        .any(|t| t.id() == id && t.runs_on(n));
    runs && (n <= 8 || !(id.contains("franken") || id.contains("mutant") || id.contains("nested")))
}

/// The most positions of one solve the soundness test searches (spread evenly over it).
const POSITIONS_PER_SOLVE: usize = 16;
/// The most steps of one technique the soundness test checks at one position.
const STEPS_PER_POSITION: usize = 12;

/// Checks the steps of every technique (up to [`STEPS_PER_POSITION`] each) at up to
/// [`POSITIONS_PER_SOLVE`] positions spread over `p`'s solve; counts them per technique in
/// `found`.
fn sound<S: Shape>(
    p: &Puzzle,
    techniques: &[Box<dyn lapiz::Technique>],
    found: &mut std::collections::BTreeMap<String, usize>,
) {
    let n = S::N;
    let solution = p.solution().unwrap();
    let trace = p.solve(&Pipeline::default_pipeline());
    let mut grid = Grid::from_value_slice(S::geometry(p.layout()), p.values());
    let positions: Vec<&lapiz::Step> = trace.steps().collect();
    let every = positions.len().div_ceil(POSITIONS_PER_SOLVE).max(1);
    for i in 0..=positions.len() {
        if i % every == 0 {
            let ctx = lapiz::Context::new(&grid);
            let sample = i / every;
            for t in techniques.iter().filter(|t| checked_on(t.id(), n)) {
                // a forcing search follows every assumption of the position: those are
                // checked at every fourth sampled position
                if !sample.is_multiple_of(4)
                    && (t.id().contains("forcing") || t.id().contains("kraken"))
                {
                    continue;
                }
                let mut here = 0;
                t.find_sized(ctx.sized(), &mut |step| {
                    assert!(
                        step.contradiction_in(solution.values(), n).is_none(),
                        "{} on {}: {}",
                        t.id(),
                        p.to_line(),
                        step.explanation
                    );
                    *found.entry(t.id().to_string()).or_default() += 1;
                    here += 1;
                    if here < STEPS_PER_POSITION {
                        std::ops::ControlFlow::Continue(())
                    } else {
                        std::ops::ControlFlow::Break(())
                    }
                })
                .unwrap();
            }
        }
        if let Some(step) = positions.get(i) {
            step.apply(&mut grid);
        }
    }
}

#[test]
fn canonical_takes_every_size_and_ignores_the_transforms() {
    // A generated puzzle of each layout, and the same puzzle with bands swapped, its rows
    // and columns mirrored inside bands and stacks and its digits shifted: one form for both,
    // another form for the puzzle with a clue taken away.
    for (n, r, c) in [
        (4, 2, 2),
        (6, 3, 2),
        (8, 2, 4),
        (12, 3, 4),
        (16, 4, 4),
        (25, 5, 5),
    ] {
        let layout = Layout::with_box(n, r, c).unwrap();
        let clues = if n == 25 {
            Clues::AtMost(400)
        } else {
            Clues::Minimal
        };
        let p = made(layout, clues, 3);
        let (n, r, c) = (usize::from(n), usize::from(r), usize::from(c));
        let v = p.values();
        let moved: Vec<u8> = (0..n * n)
            .map(|i| {
                let (row, col) = (i / n, i % n);
                let row = ((row / r + 1) % (n / r)) * r + (r - 1 - row % r);
                let col = (col / c) * c + (c - 1 - col % c);
                match v[row * n + col] {
                    0 => 0,
                    d => d % n as u8 + 1,
                }
            })
            .collect();
        let q = Puzzle::from_values(layout, Alphabet::Standard, moved).unwrap();
        assert_ne!(p, q);
        let mut fewer = v.to_vec();
        *fewer.iter_mut().find(|d| **d != 0).unwrap() = 0;
        let fewer = Puzzle::from_values(layout, Alphabet::Standard, fewer).unwrap();
        let boxes = format!("{r}x{c}");
        let form = |text: &str| {
            let (ok, out, err) = run_lapiz(&["canonical", "--box", &boxes, text]);
            assert!(ok, "{err}");
            out
        };
        let a = form(&p.to_line());
        assert_eq!(a.trim().len(), n * n);
        assert_eq!(a, form(&q.to_line()), "{layout}");
        assert_ne!(a, form(&fewer.to_line()), "{layout}");
        // the form is a puzzle of the same layout with one solution
        let back = Puzzle::parse_with(a.trim(), None, Some((r as u8, c as u8))).unwrap();
        assert_eq!((back.clues(), back.count_solutions(2)), (p.clues(), 1));
    }
    // a file of every form: the 16x16 grid file is the first of tarek's puzzles, and the
    // third of them is the first again, transformed
    let (Some(grid), Some(tough)) = (
        common::data_file("puzzles/16x16/grid-b-1g.txt"),
        common::read_data("puzzles/16x16/tough-206.txt"),
    ) else {
        return;
    };
    let (ok, from_grid, err) = run_lapiz(&["canonical", "--file", grid.to_str().unwrap()]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = tough.lines().filter(|l| !l.starts_with('#')).collect();
    let first = run_lapiz(&["canonical", lines[0]]).1;
    assert_eq!(from_grid, first);
    assert_ne!(lines[0], lines[2]);
    assert_eq!(run_lapiz(&["canonical", lines[2]]).1, first);
    assert_ne!(run_lapiz(&["canonical", lines[1]]).1, first);
}

#[test]
fn techniques_lists_each_size_with_what_is_left_out_and_why() {
    let rows = |out: &str| -> Vec<String> {
        out.lines()
            .skip(1)
            .filter(|l| !l.starts_with("Left out"))
            .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
            .collect()
    };
    let (ok, all, err) = run_lapiz(&["techniques"]);
    assert!(ok, "{err}");
    let all = rows(&all);
    assert!(
        all.iter().any(|id| id == "naked-quintuple") && all.iter().any(|id| id == "sue-de-coq")
    );
    // 9x9: everything but the subsets too large for a nine-cell house
    let (ok, nine, err) = run_lapiz(&["techniques", "--size", "9"]);
    assert!(ok, "{err}");
    assert!(!nine.contains("9x9 only"), "{nine}");
    let left = nine.lines().last().unwrap();
    assert!(
        left.starts_with(
            "Left out on 9x9 boards (their pattern needs larger houses): naked-quintuple"
        ),
        "{left}"
    );
    assert!(!rows(&nine).iter().any(|id| id == "naked-quintuple"));
    assert_eq!(
        rows(&nine).len() + left.matches(", ").count() + 1,
        all.len()
    );
    // 16x16: subsets up to octuples run, the larger ones are named
    let (ok, sixteen, err) = run_lapiz(&["techniques", "--size", "16"]);
    assert!(ok, "{err}");
    assert!(rows(&sixteen).iter().any(|id| id == "hidden-octuple"));
    assert!(
        sixteen.contains(
            "Left out on 16x16 boards (their pattern needs larger houses): naked-nonuple"
        )
    );
    // every technique of the default pipeline is generic: none is 9x9 only
    assert!(!sixteen.contains("9x9 only"), "{sixteen}");
    // SE's own techniques run on 9x9 alone; a swordfish needs houses of six or more
    let (ok, se, err) = run_lapiz(&["techniques", "--pipeline", "se", "--size", "16"]);
    assert!(ok, "{err}");
    assert!(
        se.contains("Left out on 16x16 boards (they run on 9x9 only): direct-pointing"),
        "{se}"
    );
    let (ok, four, err) = run_lapiz(&["techniques", "--size", "4"]);
    assert!(ok, "{err}");
    assert!(
        four.contains("Left out on 4x4 boards (their pattern needs larger houses): swordfish"),
        "{four}"
    );
    let (ok, _, err) = run_lapiz(&["techniques", "--size", "10"]);
    assert!(!ok && err.contains("10"), "{err}");
}

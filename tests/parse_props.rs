//! Property tests and bad-input tests for the parsers.
//!
//! The standard: bad input (malformed strings, contradictory grids, no or many solutions) gets a
//! clear error naming what and where, never a panic.

use std::path::PathBuf;

use lapiz::engine::check_puzzle;
use lapiz::model::digit_bit;
use lapiz::text::{
    format_candidate_line, format_grid_library_line, format_pencil_marks, parse_library_line,
    parse_line, parse_pencil_marks, parse_puzzle,
};
use lapiz::{Cell, Grid, ParseError, PuzzleError};
use proptest::prelude::*;
use proptest::test_runner::Config;

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// A permutation of 0, 1, 2.
fn perm3() -> impl Strategy<Value = Vec<usize>> {
    Just(vec![0usize, 1, 2]).prop_shuffle()
}

/// A validity-preserving transformation of grids: digits relabelled, bands, stacks, rows within
/// bands and columns within stacks permuted, maybe transposed.
#[derive(Clone, Debug)]
struct Symmetry {
    labels: Vec<u8>,
    bands: Vec<usize>,
    stacks: Vec<usize>,
    rows_in: [Vec<usize>; 3],
    cols_in: [Vec<usize>; 3],
    transpose: bool,
}

impl Symmetry {
    /// The transformed grid (0 stays 0, digit `d` becomes `labels[d - 1]`).
    fn apply(&self, values: &[u8; 81]) -> [u8; 81] {
        let row_of = |r: usize| self.bands[r / 3] * 3 + self.rows_in[r / 3][r % 3];
        let col_of = |c: usize| self.stacks[c / 3] * 3 + self.cols_in[c / 3][c % 3];
        let mut out = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (sr, sc) = (row_of(r), col_of(c));
                let (sr, sc) = if self.transpose { (sc, sr) } else { (sr, sc) };
                out[r * 9 + c] = match values[sr * 9 + sc] {
                    0 => 0,
                    v => self.labels[v as usize - 1],
                };
            }
        }
        out
    }
}

fn symmetry() -> impl Strategy<Value = Symmetry> {
    (
        Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        perm3(),
        perm3(),
        [perm3(), perm3(), perm3()],
        [perm3(), perm3(), perm3()],
        any::<bool>(),
    )
        .prop_map(
            |(labels, bands, stacks, rows_in, cols_in, transpose)| Symmetry {
                labels,
                bands,
                stacks,
                rows_in,
                cols_in,
                transpose,
            },
        )
}

/// A valid solved grid: a fixed pattern grid under a random [`Symmetry`].
fn solved_grid() -> impl Strategy<Value = [u8; 81]> {
    symmetry().prop_map(|sym| {
        let mut base = [0u8; 81];
        for (i, v) in base.iter_mut().enumerate() {
            let (r, c) = (i / 9, i % 9);
            *v = ((r * 3 + r / 3 + c) % 9 + 1) as u8;
        }
        sym.apply(&base)
    })
}

/// An 18-clue puzzle with a unique solution.
const KNOWN_UNIQUE: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// A puzzle with a unique solution: [`KNOWN_UNIQUE`] under a random [`Symmetry`].
fn unique_puzzle() -> impl Strategy<Value = [u8; 81]> {
    symmetry().prop_map(|sym| sym.apply(parse_line(KNOWN_UNIQUE).unwrap().values()))
}

/// What a cell of a generated grid holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Empty,
    Given,
    Placed,
}

/// A grid derived from a solution: some cells given, some placed, the rest empty with some of
/// their candidates that are not the solution's removed.
#[derive(Clone, Debug)]
struct Spec {
    solution: [u8; 81],
    kinds: Vec<Kind>,
    /// Per cell, candidates to try to remove (the solution's digit is always kept).
    removals: Vec<u16>,
}

impl Spec {
    fn grid(&self) -> Grid {
        let mut g = Grid::from_values(&self.givens());
        for i in 0..81 {
            if self.kinds[i] == Kind::Placed {
                g.set_value(Cell::new(i as u8), self.solution[i]);
            }
        }
        for i in 0..81 {
            if self.kinds[i] != Kind::Empty {
                continue;
            }
            let keep = digit_bit(self.solution[i]);
            for d in 1..=9u8 {
                if self.removals[i] & digit_bit(d) & !keep != 0 {
                    g.eliminate(Cell::new(i as u8), d);
                }
            }
        }
        g
    }

    /// The givens only, as 81 values.
    fn givens(&self) -> [u8; 81] {
        let mut v = self.solution;
        for (v, k) in v.iter_mut().zip(&self.kinds) {
            if *k != Kind::Given {
                *v = 0;
            }
        }
        v
    }
}

/// Random removal masks: each digit removed with a probability chosen per test case.
fn removals() -> impl Strategy<Value = Vec<u16>> {
    (0u32..=100).prop_flat_map(|pct| {
        prop::collection::vec(prop::collection::vec(0u32..100, 9), 81).prop_map(move |rolls| {
            rolls
                .iter()
                .map(|cell| {
                    (0..9)
                        .filter(|&d| cell[d] < pct)
                        .fold(0u16, |m, d| m | (1 << d))
                })
                .collect()
        })
    })
}

/// Random cell kinds: the share of filled cells and of placed among them chosen per case.
fn kinds() -> impl Strategy<Value = Vec<Kind>> {
    (0u32..=100, 0u32..=100).prop_flat_map(|(filled, placed)| {
        prop::collection::vec((0u32..100, 0u32..100), 81).prop_map(move |rolls| {
            rolls
                .iter()
                .map(|&(a, b)| match (a < filled, b < placed) {
                    (false, _) => Kind::Empty,
                    (true, false) => Kind::Given,
                    (true, true) => Kind::Placed,
                })
                .collect()
        })
    })
}

fn spec() -> impl Strategy<Value = Spec> {
    (solved_grid(), kinds(), removals()).prop_map(|(solution, kinds, removals)| Spec {
        solution,
        kinds,
        removals,
    })
}

/// Like [`spec`], but without placed (non-given) digits.
fn givens_only_spec() -> impl Strategy<Value = Spec> {
    spec().prop_map(|mut s| {
        for k in &mut s.kinds {
            if *k == Kind::Placed {
                *k = Kind::Given;
            }
        }
        s
    })
}

/// Places every naked single until none is left, so that every empty cell has at least two
/// candidates (a pencil-mark grid cannot tell a one-candidate cell from a value).
fn without_naked_singles(mut g: Grid) -> Grid {
    loop {
        let single = Cell::all().find(|&c| g.value(c) == 0 && g.candidates(c).count_ones() == 1);
        match single {
            Some(c) => {
                let d = g.candidates(c).trailing_zeros() as u8 + 1;
                g.set_value(c, d);
            }
            None => return g,
        }
    }
}

/// A string biased towards the characters the parsers care about.
fn puzzle_ish_string(max_len: usize) -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        8 => prop::char::range('0', '9'),
        3 => Just('.'),
        1 => Just('|'),
        1 => Just('-'),
        1 => Just('+'),
        1 => Just(':'),
        1 => Just('\n'),
        2 => Just(' '),
        1 => Just('\''),
        1 => any::<char>(),
    ];
    prop::collection::vec(ch, 0..max_len).prop_map(|v| v.into_iter().collect())
}

/// A string shaped roughly like a library line: `:` then fields of digits, dots, `+`, spaces.
fn library_ish_string() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        10 => prop::char::range('0', '9'),
        4 => Just('.'),
        2 => Just('+'),
        2 => Just(' '),
        1 => Just('-'),
        1 => Just('x'),
        1 => any::<char>(),
    ];
    let field = prop::collection::vec(ch, 0..100).prop_map(|v| v.into_iter().collect::<String>());
    prop::collection::vec(field, 0..9).prop_map(|fields| format!(":{}", fields.join(":")))
}

/// Calls every parser on `text`; none may panic, and every error must say something.
fn parse_everything(text: &str) {
    for result in [
        parse_puzzle(text),
        parse_line(text),
        parse_pencil_marks(text),
        parse_library_line(text).map(|c| c.grid),
    ] {
        match result {
            Ok(g) => {
                // whatever was read must be usable
                let _ = g.to_line();
                let _ = format_pencil_marks(&g);
                let _ = format_grid_library_line(&g);
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

/// Characters that `parse_line` neither reads as a cell nor ignores.
fn bad_line_char() -> impl Strategy<Value = char> {
    any::<char>().prop_filter("must be a bad character", |&c| {
        !(c.is_ascii_digit() || c.is_whitespace() || matches!(c, '.' | '*' | '_' | '|' | '-' | '+'))
    })
}

fn values_line(values: &[u8; 81]) -> String {
    values
        .iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect()
}

/// The values of a grid as a pasted multi-line grid with frames.
fn pasted_grid(values: &[u8; 81], empty: char) -> String {
    let mut out = String::new();
    for r in 0..9 {
        if r == 3 || r == 6 {
            out.push_str("------+-------+------\n");
        }
        for c in 0..9 {
            if c == 3 || c == 6 {
                out.push_str("| ");
            }
            let v = values[r * 9 + c];
            out.push(if v == 0 { empty } else { (b'0' + v) as char });
            out.push(' ');
        }
        out.push('\n');
    }
    out
}

fn assert_same_values_and_candidates(back: &Grid, g: &Grid) -> Result<(), TestCaseError> {
    for c in Cell::all() {
        prop_assert_eq!(back.value(c), g.value(c), "value of {}", c);
        prop_assert_eq!(back.candidates(c), g.candidates(c), "candidates of {}", c);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Never panic
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(Config::with_cases(5000))]

    #[test]
    fn arbitrary_unicode_never_panics(text in any::<String>()) {
        parse_everything(&text);
    }

    #[test]
    fn puzzle_like_strings_never_panic(text in puzzle_ish_string(400)) {
        parse_everything(&text);
        // the same with a leading ':' reaches the library parser through parse_puzzle
        parse_everything(&format!(":{text}"));
    }

    #[test]
    fn library_like_strings_never_panic(text in library_ish_string()) {
        parse_everything(&text);
    }

    /// Real puzzle texts with random damage: characters replaced, inserted or deleted.
    #[test]
    fn damaged_puzzle_texts_never_panic(
        s in spec(),
        form in 0u8..3,
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<char>()), 1..6),
    ) {
        let g = s.grid();
        let text = match form {
            0 => g.to_line(),
            1 => format_pencil_marks(&g),
            _ => format_grid_library_line(&g),
        };
        let mut chars: Vec<char> = text.chars().collect();
        for (at, op, ch) in edits {
            let i = at.index(chars.len() + 1);
            match op {
                0 if i < chars.len() => chars[i] = ch,
                1 if i < chars.len() => {
                    chars.remove(i);
                }
                _ => chars.insert(i, ch),
            }
        }
        let damaged: String = chars.into_iter().collect();
        parse_everything(&damaged);
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(Config::with_cases(2000))]

    #[test]
    fn solved_grids_are_valid(solution in solved_grid()) {
        let g = Grid::from_values(&solution);
        prop_assert!(g.is_solved());
        prop_assert_eq!(g.conflict(), None);
    }

    #[test]
    fn line_round_trip(s in spec()) {
        let g = s.grid();
        let line = g.to_line();
        let back = parse_line(&line).unwrap();
        prop_assert_eq!(back.values(), g.values());
        // every value read from a line is a given
        prop_assert_eq!(back.givens(), g.filled_cells());
        let again = parse_puzzle(&line).unwrap();
        prop_assert_eq!(again.values(), g.values());
    }

    #[test]
    fn pasted_grid_round_trip(s in spec(), zero in any::<bool>(), indent in "[ \t\n]{0,4}") {
        let g = s.grid();
        let text = format!("{indent}{}", pasted_grid(g.values(), if zero { '0' } else { '.' }));
        let back = parse_puzzle(&text).unwrap();
        prop_assert_eq!(back.values(), g.values());
    }

    #[test]
    fn pencil_marks_round_trip(s in spec()) {
        let g = without_naked_singles(s.grid());
        let text = format_pencil_marks(&g);
        let back = parse_pencil_marks(&text).unwrap();
        assert_same_values_and_candidates(&back, &g)?;
        let again = parse_puzzle(&text).unwrap();
        assert_same_values_and_candidates(&again, &g)?;
    }

    /// With naked singles left in, the format cannot tell a one-candidate cell from a value:
    /// such a cell comes back holding its candidate. Nothing else is lost or invented.
    #[test]
    fn pencil_marks_with_naked_singles(s in spec()) {
        let g = s.grid();
        let text = format_pencil_marks(&g);
        let back = parse_pencil_marks(&text).unwrap();
        for c in Cell::all() {
            let m = g.candidates(c);
            match (g.value(c), m.count_ones()) {
                (0, 1) => prop_assert_eq!(back.value(c), m.trailing_zeros() as u8 + 1, "{}", c),
                (0, _) => {
                    prop_assert_eq!(back.value(c), 0, "{}", c);
                    prop_assert_eq!(back.candidates(c) & !m, 0, "{} gained candidates", c);
                    let solution_bit = digit_bit(s.solution[c.index()]);
                    prop_assert!(back.candidates(c) & solution_bit != 0, "{} lost its solution", c);
                }
                (v, _) => prop_assert_eq!(back.value(c), v, "{}", c),
            }
        }
    }

    /// A candidate line (nine characters a cell) reads back the grid it was written from: each
    /// value a given, each empty cell its candidates (a one-candidate cell whose digit no peer
    /// has as a value, as placing it would take nothing away).
    #[test]
    fn candidate_line_round_trip(s in spec()) {
        let g = s.grid();
        let line = format_candidate_line(&g);
        prop_assert_eq!(line.len(), 729);
        let back = parse_puzzle(&line).unwrap();
        for c in Cell::all() {
            let m = g.candidates(c);
            match (g.value(c), m.count_ones()) {
                (0, 1) => {
                    let d = m.trailing_zeros() as u8 + 1;
                    let seen = c.peers().iter().any(|p| g.has_candidate(p, d));
                    prop_assert_eq!(back.value(c), if seen { 0 } else { d }, "{}", c);
                }
                (0, _) => {
                    prop_assert_eq!(back.value(c), 0, "{}", c);
                    prop_assert_eq!(back.candidates(c), m, "{}", c);
                }
                (v, _) => prop_assert_eq!(back.value(c), v, "{}", c),
            }
        }
        prop_assert_eq!(format_candidate_line(&back), line);
        // the solution stays within the candidates
        for c in Cell::all() {
            let d = s.solution[c.index()];
            prop_assert!(back.value(c) == d || back.has_candidate(c, d), "{}", c);
        }
    }

    #[test]
    fn library_line_round_trip(s in spec()) {
        let g = s.grid();
        let line = format_grid_library_line(&g);
        let case = parse_library_line(&line).unwrap();
        prop_assert_eq!(&case.code, "0000");
        prop_assert!(case.eliminations.is_empty() && case.placements.is_empty());
        prop_assert_eq!(case.grid.givens(), g.givens());
        prop_assert_eq!(case.grid.filled_cells(), g.filled_cells());
        assert_same_values_and_candidates(&case.grid, &g)?;
        prop_assert_eq!(&case.grid, &g);
        // parse_puzzle reads it too, and writing it again gives the same line
        prop_assert_eq!(&parse_puzzle(&line).unwrap(), &g);
        prop_assert_eq!(format_grid_library_line(&case.grid), line);
    }
}

// ---------------------------------------------------------------------------------------------
// Errors name what and where
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(Config::with_cases(2000))]

    #[test]
    fn bad_char_reports_position_and_char(
        s in spec(),
        at in 0usize..=81,
        bad in bad_line_char(),
        later in prop::option::of(bad_line_char()),
    ) {
        let line = s.grid().to_line();
        let mut chars: Vec<char> = line.chars().collect();
        chars.insert(at, bad);
        if let Some(l) = later {
            chars.push(l); // a second bad character: the first is the one reported
        }
        let text: String = chars.into_iter().collect();
        let expected = ParseError::BadChar { ch: bad, position: at + 1 };
        let err = parse_line(&text).unwrap_err();
        prop_assert_eq!(&err, &expected);
        let msg = err.to_string();
        prop_assert!(msg.contains(&format!("{bad:?}")), "{}", msg);
        prop_assert!(msg.contains(&format!("position {}", at + 1)), "{}", msg);
        if bad != ':' && !text.trim().is_empty() {
            // parse_puzzle reports the same error (a ':' first would make it a library line)
            prop_assert_eq!(parse_puzzle(&text).unwrap_err(), expected);
        }
    }

    /// Positions count characters of the input as given, leading whitespace included.
    #[test]
    fn bad_char_position_counts_leading_whitespace(
        s in spec(),
        indent in "[ \t\n]{1,5}",
        at in 0usize..=81,
    ) {
        let mut chars: Vec<char> = s.grid().to_line().chars().collect();
        chars.insert(at, 'x');
        let text = format!("{indent}{}", chars.into_iter().collect::<String>());
        let expected = ParseError::BadChar { ch: 'x', position: indent.chars().count() + at + 1 };
        prop_assert_eq!(parse_line(&text).unwrap_err(), expected.clone());
        prop_assert_eq!(parse_puzzle(&text).unwrap_err(), expected);
    }

    #[test]
    fn wrong_length_reports_count(s in spec(), n in 0usize..200) {
        prop_assume!(n != 81);
        let line: String = s.grid().to_line().chars().cycle().take(n).collect();
        let err = parse_line(&line).unwrap_err();
        prop_assert_eq!(&err, &ParseError::WrongCellCount { found: n });
        prop_assert!(err.to_string().contains(&format!("found {n}")), "{}", err);
        let err = parse_puzzle(&line).unwrap_err();
        match n {
            0 => prop_assert_eq!(err, ParseError::Empty),
            n if n < 81 => prop_assert_eq!(err, ParseError::WrongCellCount { found: n }),
            // too long: it may pass for a broken pencil-mark grid, but it still says how many
            _ => prop_assert!(
                matches!(err, ParseError::WrongCellCount { .. } | ParseError::WrongGroupCount { .. }),
                "{}", err
            ),
        }
    }

    #[test]
    fn pencil_marks_wrong_group_count(s in spec(), drop in any::<prop::sample::Index>()) {
        let g = without_naked_singles(s.grid());
        let text = format_pencil_marks(&g);
        // remove one cell's group: 80 groups left
        let groups: Vec<(usize, usize)> = digit_group_spans(&text);
        prop_assert_eq!(groups.len(), 81);
        let (a, b) = groups[drop.index(81)];
        let broken = format!("{}{}", &text[..a], &text[b..]);
        let err = parse_pencil_marks(&broken).unwrap_err();
        prop_assert_eq!(&err, &ParseError::WrongGroupCount { found: 80 });
        prop_assert!(err.to_string().contains("found 80"), "{}", err);
        // parse_puzzle sees a pencil-mark grid and says the same
        prop_assert_eq!(parse_puzzle(&broken).unwrap_err(), err);
    }

    #[test]
    fn pencil_marks_repeated_digit_names_cell(s in spec(), pick in any::<prop::sample::Index>()) {
        let g = without_naked_singles(s.grid());
        let text = format_pencil_marks(&g);
        let groups = digit_group_spans(&text);
        let i = pick.index(81);
        let (a, b) = groups[i];
        let group = &text[a..b];
        let doubled = format!("{group}{}", &group[..1]);
        let broken = format!("{}{doubled}{}", &text[..a], &text[b..]);
        let err = parse_pencil_marks(&broken).unwrap_err();
        let cell = Cell::new(i as u8);
        prop_assert_eq!(&err, &ParseError::BadGroup { cell, group: doubled.clone() });
        let msg = err.to_string();
        prop_assert!(msg.contains(&cell.to_string()) && msg.contains(&doubled), "{}", msg);
    }

    #[test]
    fn library_bad_given_names_field_char_and_position(
        s in spec(),
        at in 0usize..81,
        bad in any::<char>().prop_filter("bad", |&c| !(c.is_ascii_digit() || matches!(c, '.' | '+' | ':'))),
    ) {
        let line = format_grid_library_line(&s.grid());
        let fields: Vec<&str> = line.split(':').collect();
        let mut givens: Vec<char> = fields[3].chars().collect();
        let at = at.min(givens.len());
        givens.insert(at, bad);
        let givens: String = givens.into_iter().collect();
        let broken = format!(":{}:{}:{givens}:{}", fields[1], fields[2], fields[4..].join(":"));
        let err = parse_library_line(&broken).unwrap_err();
        let msg = err.to_string();
        prop_assert!(msg.contains("givens"), "{}", msg);
        prop_assert!(msg.contains(&format!("{bad:?}")), "{}", msg);
        prop_assert!(msg.contains(&format!("position {}", at + 1)), "{}", msg);
    }
}

/// Byte spans of the maximal runs of digits 1-9 in `text`.
fn digit_group_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, b) in text.bytes().enumerate() {
        match (b.is_ascii_digit() && b != b'0', start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

// ---------------------------------------------------------------------------------------------
// Contradictory grids, no or many solutions
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(Config::with_cases(500))]

    /// Two cells of one house with the same digit: `check_puzzle` names both cells.
    #[test]
    fn clash_names_both_cells(
        s in givens_only_spec(),
        pick in any::<prop::sample::Index>(),
        peer in any::<prop::sample::Index>(),
    ) {
        let mut values = s.givens();
        let x = Cell::new(pick.index(81) as u8);
        let peers: Vec<Cell> = x.peers().iter().collect();
        let y = peers[peer.index(peers.len())];
        let digit = s.solution[x.index()];
        values[x.index()] = digit;
        // y gets x's digit; clear every other cell that would clash with it, so the only
        // clash is between x and y
        for p in y.peers().iter() {
            if p != x && values[p.index()] == digit {
                values[p.index()] = 0;
            }
        }
        values[y.index()] = digit;
        let text = values_line(&values);
        let grid = parse_puzzle(&text).unwrap();
        let err = check_puzzle(&grid).unwrap_err();
        match err {
            PuzzleError::Clash { first, second, digit: d } => {
                let mut pair = [first, second];
                pair.sort();
                let mut want = [x, y];
                want.sort();
                prop_assert_eq!(pair, want);
                prop_assert_eq!(d, digit);
            }
            ref other => prop_assert!(false, "expected a clash, got {:?}", other),
        }
        let msg = err.to_string();
        prop_assert!(msg.contains(&x.to_string()) && msg.contains(&y.to_string()), "{}", msg);
        prop_assert!(msg.contains(&digit.to_string()), "{}", msg);
    }

    /// A puzzle cut from a valid solution has that solution: `check_puzzle` gives it back when
    /// it is unique and says `MultipleSolutions` otherwise; never a clash or no solution.
    #[test]
    fn puzzles_from_a_solution_are_unique_or_multiple(s in givens_only_spec()) {
        let givens = s.givens();
        let grid = parse_line(&values_line(&givens)).unwrap();
        let count = givens.iter().filter(|&&v| v != 0).count();
        match check_puzzle(&grid) {
            Ok(solution) => {
                prop_assert_eq!(solution, s.solution);
                prop_assert!(count >= 17, "{} givens cannot have a unique solution", count);
            }
            Err(e) => prop_assert_eq!(e, PuzzleError::MultipleSolutions),
        }
    }

    /// Two rows of one band (or two columns of one stack) blanked, maybe more cells too: the
    /// two lines can be swapped, so there are at least two solutions.
    #[test]
    fn blanked_line_pair_is_multiple(
        solution in solved_grid(),
        columns in any::<bool>(),
        band in 0usize..3,
        pair in 0usize..3,
        extra in prop::collection::vec(0u8..10, 81),
    ) {
        let (a, b) = [(0, 1), (0, 2), (1, 2)][pair];
        let mut values = solution;
        for i in 0..9 {
            let (x, y) = (band * 3 + a, band * 3 + b);
            let cells = if columns { [i * 9 + x, i * 9 + y] } else { [x * 9 + i, y * 9 + i] };
            for c in cells {
                values[c] = 0;
            }
        }
        for (v, e) in values.iter_mut().zip(&extra) {
            if *e == 0 {
                *v = 0;
            }
        }
        let grid = parse_line(&values_line(&values)).unwrap();
        let err = check_puzzle(&grid).unwrap_err();
        prop_assert_eq!(&err, &PuzzleError::MultipleSolutions);
        prop_assert!(err.to_string().contains("more than one solution"));
    }

    /// Symmetric images of a unique puzzle stay unique, and `check_puzzle` finds the solution.
    #[test]
    fn unique_puzzles_give_their_solution(puzzle in unique_puzzle()) {
        let grid = parse_puzzle(&pasted_grid(&puzzle, '0')).unwrap();
        let solution = check_puzzle(&grid).unwrap();
        prop_assert_eq!(Grid::from_values(&solution).conflict(), None);
        for i in 0..81 {
            prop_assert!(puzzle[i] == 0 || puzzle[i] == solution[i]);
        }
    }

    /// Row 1 misses two digits a, b; a is blocked from both empty cells by givens lower in
    /// their columns. No clash, every cell keeps a candidate, and still no solution.
    #[test]
    fn blocked_digit_is_no_solution(
        labels in Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
    ) {
        let mut values = [0u8; 81];
        // r1c1..r1c7: labels[0..7]; r1c8 and r1c9 empty; labels[7] at r4c8 and r7c9
        values[..7].copy_from_slice(&labels[..7]);
        values[3 * 9 + 7] = labels[7];
        values[6 * 9 + 8] = labels[7];
        let text = pasted_grid(&values, '.');
        let grid = parse_puzzle(&text).unwrap();
        prop_assert_eq!(grid.conflict(), None);
        prop_assert_eq!(grid.dead_cell(), None);
        let err = check_puzzle(&grid).unwrap_err();
        prop_assert_eq!(&err, &PuzzleError::NoSolution);
        prop_assert!(err.to_string().contains("no solution"));
    }

    /// Pencil marks that remove the solution's digit are reported with the cell and digit.
    #[test]
    fn pencil_marks_excluding_the_solution_name_cell_and_digit(
        puzzle in unique_puzzle(),
        pick in any::<prop::sample::Index>(),
    ) {
        // the solution's digit removed from a cell with three candidates or more (so the
        // pencil-mark grid still shows it as a cell with candidates)
        let mut grid = Grid::from_values(&puzzle);
        let solution = check_puzzle(&grid).unwrap();
        let wide: Vec<Cell> = grid
            .empty_cells()
            .iter()
            .filter(|&c| grid.candidates(c).count_ones() >= 3)
            .collect();
        let cell = wide[pick.index(wide.len())];
        let digit = solution[cell.index()];
        grid.eliminate(cell, digit);
        let text = format_pencil_marks(&grid);
        let back = parse_pencil_marks(&text).unwrap();
        let err = check_puzzle(&back).unwrap_err();
        prop_assert_eq!(&err, &PuzzleError::PencilMarksExcludeSolution { cell, digit });
        let msg = err.to_string();
        prop_assert!(msg.contains(&cell.to_string()) && msg.contains(&digit.to_string()), "{}", msg);
    }
}

#[test]
fn fixed_bad_inputs() {
    assert_eq!(parse_puzzle("").unwrap_err(), ParseError::Empty);
    assert_eq!(parse_puzzle(" \n\t ").unwrap_err(), ParseError::Empty);
    let err = parse_library_line("0000:::").unwrap_err();
    assert!(err.to_string().contains("start"), "{err}");
    let err = parse_library_line(":0000:1:").unwrap_err();
    assert!(err.to_string().contains("fields"), "{err}");
    let line = format!(":00?0::{}::::", ".".repeat(81));
    let err = parse_library_line(&line).unwrap_err();
    assert!(err.to_string().contains("technique"), "{err}");
    let line = format!(":0000:x:{}::::", ".".repeat(81));
    let err = parse_library_line(&line).unwrap_err();
    assert!(err.to_string().contains("candidates"), "{err}");
    let line = format!(":0000::{}::1r1::", ".".repeat(81));
    let err = parse_library_line(&line).unwrap_err();
    assert!(
        err.to_string().contains("eliminations") && err.to_string().contains("1r1"),
        "{err}"
    );
    let line = format!(":0000::{}:::101:", ".".repeat(81));
    let err = parse_library_line(&line).unwrap_err();
    assert!(
        err.to_string().contains("placements") && err.to_string().contains("101"),
        "{err}"
    );
    let line = format!(":0000::{}::::", ".".repeat(80));
    let err = parse_library_line(&line).unwrap_err();
    assert!(err.to_string().contains("found 80"), "{err}");
    // an empty cell with no candidate left is named
    let line = format!("12345678.........9{}", ".".repeat(63));
    let err = check_puzzle(&parse_line(&line).unwrap()).unwrap_err();
    assert_eq!(
        err,
        PuzzleError::DeadCell {
            cell: Cell::at(0, 8)
        }
    );
    assert!(err.to_string().contains("r1c9"), "{err}");
    // an empty grid has many solutions
    let err = check_puzzle(&parse_line(&".".repeat(81)).unwrap()).unwrap_err();
    assert_eq!(err, PuzzleError::MultipleSolutions);
    // a clash in a box only
    let mut v = [0u8; 81];
    v[0] = 5;
    v[10] = 5;
    let err = check_puzzle(&Grid::from_values(&v)).unwrap_err();
    assert_eq!(
        err,
        PuzzleError::Clash {
            first: Cell::at(0, 0),
            second: Cell::at(1, 1),
            digit: 5
        }
    );
    assert!(
        err.to_string().contains("r1c1") && err.to_string().contains("r2c2"),
        "{err}"
    );
}

/// The puzzle data directory: `$LAPIZ_DATA/puzzles` or `../shared/data/puzzles`.
fn puzzle_file(name: &str) -> Option<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("LAPIZ_DATA") {
        dirs.push(PathBuf::from(d).join("puzzles"));
    }
    dirs.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/puzzles"));
    dirs.into_iter().map(|d| d.join(name)).find(|p| p.is_file())
}

#[test]
fn multi_solution_collection_reports_multiple_solutions() {
    let name = "multi-solution-10000.txt";
    let Some(path) = puzzle_file(name) else {
        println!("SKIPPED: {name} not found under $LAPIZ_DATA/puzzles or ../shared/data/puzzles");
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let mut checked = 0;
    for (n, line) in text.lines().take(200).enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let grid =
            parse_puzzle(line).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), n + 1));
        let err = check_puzzle(&grid).unwrap_err();
        assert_eq!(
            err,
            PuzzleError::MultipleSolutions,
            "{}:{}",
            path.display(),
            n + 1
        );
        assert!(err.to_string().contains("more than one solution"));
        checked += 1;
    }
    assert!(
        checked > 150,
        "only {checked} puzzles read from {}",
        path.display()
    );
}

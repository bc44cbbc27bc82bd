//! The types and helpers a script sees: `Cell`, `CellSet`, `House`, `Grid` and the `Step`
//! builder, registered on the shared Rhai engine.
//!
//! Every helper works on whole sets or masks, because each script operation costs some hundred
//! nanoseconds (`cargo bench --bench script_ops`) while the native work behind a helper costs a
//! few. Arguments are checked and a bad one (a digit outside 1..n, a cell off the board, an
//! unknown house kind or role) is a runtime error that Rhai reports at the calling line and
//! column.
//!
//! The helpers are written once for every board size. Those with a grid or a cell set among
//! their arguments are registered for each shape's `Grid<S>` and `CellSet<S>` ([`register_sized`],
//! one generic function monomorphised per shape); the others (`rows()`, `cell(r, c)`,
//! `house.cells`, `cell.peers`, the digit masks …) answer for the board being searched
//! ([`super::searched`]), 9x9 outside a search.

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString};

use super::searched::{self, cell_on, geo, house_on, on_board};
use crate::model::cell::{Cell, House, HouseKind, digits};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Geometry, S4, S6, S8, S9, S12, S16, S25, Shape};
use crate::step::{Highlight, Role};
use crate::technique::context::{cells_with_candidates, cells_with_count, strong_link};
use crate::technique::wings::xy_pincers;

/// The result of a helper: a value, or a runtime error at the call site.
pub(crate) type Res<T> = Result<T, Box<EvalAltResult>>;

/// The step builder a script gets from `step()`; the host fills in the technique id and
/// difficulty when it turns the builder into a [`crate::step::Step`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepBuilder {
    /// Digits placed.
    pub placements: Vec<Candidate>,
    /// Candidates removed.
    pub eliminations: Vec<Candidate>,
    /// Houses the step works in.
    pub houses: Vec<House>,
    /// Highlighted candidates by role (the host keeps only those present in the grid).
    pub highlights: Vec<Highlight>,
    /// The explanation.
    pub explanation: String,
    /// A difficulty for this step instead of the script's `DIFFICULTY`.
    pub difficulty: Option<f32>,
}

pub(super) fn err<T>(message: String) -> Res<T> {
    Err(message.into())
}

/// A digit argument, checked to be 1..=n.
pub(crate) fn digit_in(d: i64, n: usize) -> Res<u8> {
    if (1..=n as i64).contains(&d) {
        Ok(d as u8)
    } else {
        err(format!("digit {d} is not 1..{n}"))
    }
}

/// A digit argument of the board being searched (1..=9 on 9x9).
pub(crate) fn digit(d: i64) -> Res<u8> {
    digit_in(d, searched::n())
}

/// The largest digit mask of size `n` (bit d-1 for each digit d).
fn full_mask(n: usize) -> u32 {
    ((1u64 << n) - 1) as u32
}

/// A digit mask from an array of digits of a board of size `n`.
fn mask_of_array_in(digits: &Array, n: usize) -> Res<u32> {
    let mut m = 0u32;
    for v in digits {
        match v.as_int() {
            Ok(d) => m |= 1 << (digit_in(d, n)? - 1),
            Err(t) => return err(format!("expected an array of digits, found a {t} in it")),
        }
    }
    Ok(m)
}

/// A mask argument of a board of size `n`.
fn mask_arg_in(mask: i64, n: usize) -> Res<u32> {
    let max = full_mask(n);
    if (0..=i64::from(max)).contains(&mask) {
        Ok(mask as u32)
    } else {
        err(format!(
            "{mask} is not a digit mask (0..={max}, bit d-1 for digit d)"
        ))
    }
}

/// A script's digit mask (bit d-1 for digit d) as a mask of width `M`.
fn to_bits<M: Bits>(mask: u32) -> M {
    let mut m = M::ZERO;
    for i in mask.ones() {
        m.set(i);
    }
    m
}

/// A mask of any width as a script's integer.
pub(crate) fn mask_int<M: Bits>(mask: M) -> i64 {
    mask.ones().fold(0i64, |acc, i| acc | 1 << i)
}

pub(crate) fn digits_array<M: Bits>(mask: M) -> Array {
    digits(mask).map(|d| Dynamic::from_int(d as i64)).collect()
}

/// The house indices (`0 .. 3n`: rows, columns, boxes) of a kind name on a board of size `n`.
pub(crate) fn kind_range(kind: &str, n: usize) -> Res<std::ops::Range<usize>> {
    Ok(match kind {
        "row" | "rows" => 0..n,
        "col" | "cols" | "column" | "columns" => n..2 * n,
        "box" | "boxes" => 2 * n..3 * n,
        "line" | "lines" => 0..2 * n,
        "house" | "houses" | "any" => 0..3 * n,
        _ => {
            return err(format!(
                "`{kind}` is not a house kind (row, col, box, line or house)"
            ));
        }
    })
}

fn houses_array(range: std::ops::Range<usize>, n: usize) -> Array {
    range
        .map(|i| Dynamic::from(House::from_index_in(i, n)))
        .collect()
}

fn kind_name(kind: HouseKind) -> &'static str {
    match kind {
        HouseKind::Row => "row",
        HouseKind::Column => "col",
        HouseKind::Box => "box",
    }
}

/// The houses of `kind` that `set` touches, in index order.
fn touched<S: Shape>(geo: &Geometry<S>, set: CellSet<S>, kind: &str) -> Res<Array> {
    let range = kind_range(kind, S::N)?;
    Ok(range
        .map(|i| House::from_index_in(i, S::N))
        .filter(|&h| geo.house(h).intersects(set))
        .map(Dynamic::from)
        .collect())
}

/// A cell from a name (`r1c1`, `r12c16`), for `cell("r1c1")` and for map returns.
pub(crate) fn parse_cell(name: &str) -> Result<Cell, String> {
    name.parse()
        .map_err(|e: crate::model::NameError| e.to_string())
}

/// `cell` when it lies on a board of shape `S`.
pub(super) fn on<S: Shape>(cell: Cell) -> Res<Cell> {
    if cell_on(cell, S::N) {
        Ok(cell)
    } else {
        err(format!("{cell} is not a cell of a {n}x{n} board", n = S::N))
    }
}

/// `house` when it is one of a board of shape `S`.
fn house_of_size<S: Shape>(house: House) -> Res<House> {
    if house_on(house, S::N) {
        Ok(house)
    } else {
        err(format!(
            "{house} is not a house of a {n}x{n} board",
            n = S::N
        ))
    }
}

/// A role from its name ([`Role::from_name`]).
pub(crate) fn parse_role(name: &str) -> Result<Role, String> {
    Role::from_name(name).ok_or_else(|| {
        format!(
            "`{name}` is not a role (Pattern, Base, Cover, Fin, Pivot, Pincer, Link, ColorA, ColorB)"
        )
    })
}

/// Candidates of `cells` × `mask`, cell by cell.
fn candidates<S: Shape>(cells: CellSet<S>, mask: u32) -> impl Iterator<Item = Candidate> {
    cells
        .into_iter()
        .flat_map(move |c| digits(mask).map(move |d| Candidate::new(c, d)))
}

impl StepBuilder {
    fn eliminate<S: Shape>(&mut self, cells: CellSet<S>, mask: u32) {
        self.eliminations.extend(candidates(cells, mask));
    }

    fn highlight<S: Shape>(&mut self, role: &str, cells: CellSet<S>, mask: u32) -> Res<()> {
        let role = parse_role(role).or_else(err)?;
        let cands: Vec<Candidate> = candidates(cells, mask).collect();
        match self.highlights.iter_mut().find(|h| h.role == role) {
            Some(h) => h.candidates.extend(cands),
            None => self.highlights.push(Highlight {
                role,
                candidates: cands,
            }),
        }
        Ok(())
    }
}

/// Registers a function both as a method/function `name(x)` and as a property `x.name`.
macro_rules! prop {
    ($engine:expr, $name:expr, $f:expr) => {{
        $engine.register_fn($name, $f);
        $engine.register_get($name, $f);
    }};
}

/// Registers every script type and helper on `engine`: the size-free ones once, the others
/// for every shape.
pub(crate) fn register(engine: &mut Engine) {
    register_cell(engine);
    register_cellset_constructors(engine);
    register_house(engine);
    register_shape(engine);
    register_digits(engine);
    register_step(engine);
    register_sized::<S4>(engine);
    register_sized::<S6>(engine);
    register_sized::<S8>(engine);
    register_sized::<S9>(engine);
    register_sized::<S12>(engine);
    register_sized::<S16>(engine);
    register_sized::<S25>(engine);
}

/// Registers the helpers over `Grid<S>` and `CellSet<S>` for the shape `S`.
fn register_sized<S: Shape>(engine: &mut Engine) {
    register_cellset::<S>(engine);
    register_grid::<S>(engine);
    register_step_sets::<S>(engine);
    super::patterns::register_patterns::<S>(engine);
    super::context::register::<S>(engine);
}

/// A cell of the board being searched, checked.
fn here(cell: Cell) -> Res<Cell> {
    searched::check_cell(cell).or_else(err)
}

fn register_cell(engine: &mut Engine) {
    engine.register_type_with_name::<Cell>("Cell");
    engine.register_fn("cell", |name: &str| -> Res<Cell> {
        here(parse_cell(name).or_else(err)?)
    });
    engine.register_fn("cell", |row: i64, col: i64| -> Res<Cell> {
        let n = searched::n() as i64;
        if (1..=n).contains(&row) && (1..=n).contains(&col) {
            Ok(Cell::at(row as u8 - 1, col as u8 - 1))
        } else {
            err(format!("cell({row}, {col}): row and column are 1..{n}"))
        }
    });
    engine.register_fn("to_string", |c: &mut Cell| c.to_string());
    engine.register_fn("to_debug", |c: &mut Cell| c.to_string());
    prop!(engine, "name", |c: &mut Cell| c.to_string());
    prop!(engine, "row", |c: &mut Cell| c.row() as i64 + 1);
    prop!(engine, "col", |c: &mut Cell| c.col() as i64 + 1);
    prop!(engine, "box", |c: &mut Cell| -> Res<i64> {
        let c = here(*c)?;
        Ok(searched::layout().box_of(usize::from(c.row()), usize::from(c.col())) as i64 + 1)
    });
    prop!(engine, "index", |c: &mut Cell| c.index_in(searched::n())
        as i64);
    prop!(engine, "peers", |c: &mut Cell| -> Res<Dynamic> {
        let c = here(*c)?;
        Ok(on_board!(S => Dynamic::from(geo::<S>().peers(c))))
    });
    prop!(engine, "houses", |c: &mut Cell| -> Res<Array> {
        let c = here(*c)?;
        Ok(houses_of(c).into_iter().map(Dynamic::from).collect())
    });
    engine.register_fn("house", |c: &mut Cell, kind: &str| -> Res<House> {
        let [r, col, b] = houses_of(here(*c)?);
        match kind {
            "row" => Ok(r),
            "col" | "column" => Ok(col),
            "box" => Ok(b),
            _ => err(format!(
                "`{kind}` is not a house kind of a cell (row, col, box)"
            )),
        }
    });
    engine.register_fn("sees", |a: &mut Cell, b: Cell| -> Res<bool> {
        let (a, b) = (here(*a)?, here(b)?);
        Ok(on_board!(S => geo::<S>().sees(a, b)))
    });
    engine.register_fn("==", |a: Cell, b: Cell| a == b);
    engine.register_fn("!=", |a: Cell, b: Cell| a != b);
    engine.register_fn("|", |a: Cell, b: Cell| -> Res<Dynamic> {
        let (a, b) = (here(a)?, here(b)?);
        Ok(on_board!(S => Dynamic::from(CellSet::<S>::single(a) | CellSet::single(b))))
    });
    engine.register_fn(
        "all_cells",
        || on_board!(S => Dynamic::from(CellSet::<S>::ALL)),
    );
    engine.register_fn("seen_by_all", |a: Cell, b: Cell| -> Res<Dynamic> {
        let (a, b) = (here(a)?, here(b)?);
        Ok(on_board!(S => Dynamic::from(
            geo::<S>().common_peers(CellSet::<S>::single(a) | CellSet::single(b))
        )))
    });
}

/// The row, column and box of a cell of the board being searched.
fn houses_of(c: Cell) -> [House; 3] {
    let layout = searched::layout();
    let (row, col) = (c.row(), c.col());
    let n = layout.n();
    [
        House::from_index_in(usize::from(row), n),
        House::from_index_in(n + usize::from(col), n),
        House::from_index_in(2 * n + layout.box_of(usize::from(row), usize::from(col)), n),
    ]
}

fn register_house(engine: &mut Engine) {
    engine.register_type_with_name::<House>("House");
    engine.register_fn("house", |name: &str| -> Res<House> {
        let h: House = name
            .parse::<House>()
            .map_err(|e| e.to_string())
            .or_else(err)?;
        searched::check_house(h).or_else(err)
    });
    engine.register_fn("to_string", |h: &mut House| h.to_string());
    engine.register_fn("to_debug", |h: &mut House| h.to_string());
    prop!(engine, "name", |h: &mut House| h.to_string());
    prop!(engine, "kind", |h: &mut House| kind_name(h.kind())
        .to_string());
    prop!(engine, "number", |h: &mut House| h.number() as i64);
    prop!(engine, "index", |h: &mut House| h.index_in(searched::n())
        as i64);
    prop!(engine, "cells", |h: &mut House| -> Res<Dynamic> {
        let h = searched::check_house(*h).or_else(err)?;
        Ok(on_board!(S => Dynamic::from(searched::house_cells::<S>(h))))
    });
    engine.register_fn("==", |a: House, b: House| a == b);
    engine.register_fn("!=", |a: House, b: House| a != b);
    engine.register_fn("rows", || {
        let n = searched::n();
        houses_array(0..n, n)
    });
    engine.register_fn("cols", || {
        let n = searched::n();
        houses_array(n..2 * n, n)
    });
    engine.register_fn("boxes", || {
        let n = searched::n();
        houses_array(2 * n..3 * n, n)
    });
    engine.register_fn("lines", || {
        let n = searched::n();
        houses_array(0..2 * n, n)
    });
    engine.register_fn("houses", || {
        let n = searched::n();
        houses_array(0..3 * n, n)
    });
    engine.register_fn("houses", |kind: &str| -> Res<Array> {
        let n = searched::n();
        Ok(houses_array(kind_range(kind, n)?, n))
    });
    engine.register_fn("cells_of", |houses: Array| -> Res<Dynamic> {
        on_board!(S => cells_of::<S>(houses).map(Dynamic::from))
    });
}

/// The cells of houses, cells and cell sets, on the board of shape `S` being searched.
fn cells_of<S: Shape>(items: Array) -> Res<CellSet<S>> {
    let geo = geo::<S>();
    let mut set = CellSet::<S>::EMPTY;
    for (i, h) in items.into_iter().enumerate() {
        if let Some(h) = h.clone().try_cast::<House>() {
            set |= geo.house(house_of_size::<S>(h)?);
        } else if let Some(c) = h.clone().try_cast::<Cell>() {
            set.insert(on::<S>(c)?);
        } else if let Some(s) = h.try_cast::<CellSet<S>>() {
            set |= s;
        } else {
            return err(format!(
                "cells_of: element {i} is not a House, Cell or CellSet"
            ));
        }
    }
    Ok(set)
}

/// The shape of the board being searched, as free functions: `size()`, `box_rows()`,
/// `box_cols()`, `house_count()`, `digits()` (the grid has the same as properties).
fn register_shape(engine: &mut Engine) {
    engine.register_fn("size", || searched::n() as i64);
    engine.register_fn("box_rows", || searched::layout().box_rows() as i64);
    engine.register_fn("box_cols", || searched::layout().box_cols() as i64);
    engine.register_fn("house_count", || 3 * searched::n() as i64);
    engine.register_fn("digits", || digits_array(full_mask(searched::n())));
    engine.register_fn("all_digits", || full_mask(searched::n()) as i64);
}

fn register_cellset<S: Shape>(engine: &mut Engine) {
    engine.register_type_with_name::<CellSet<S>>("CellSet");
    engine.register_iterator::<CellSet<S>>();
    engine.register_fn("|", |a: Cell, b: CellSet<S>| -> Res<CellSet<S>> {
        Ok(CellSet::single(on::<S>(a)?) | b)
    });
    engine.register_fn("|", |a: CellSet<S>, b: Cell| -> Res<CellSet<S>> {
        Ok(a | CellSet::single(on::<S>(b)?))
    });
    engine.register_fn("-", |a: CellSet<S>, b: Cell| -> Res<CellSet<S>> {
        Ok(a - CellSet::single(on::<S>(b)?))
    });
    engine.register_fn("&", |a: CellSet<S>, b: Cell| -> Res<CellSet<S>> {
        Ok(a & CellSet::single(on::<S>(b)?))
    });
    engine.register_fn("to_string", |s: &mut CellSet<S>| s.to_string());
    engine.register_fn("to_debug", |s: &mut CellSet<S>| format!("{s:?}"));
    prop!(engine, "len", |s: &mut CellSet<S>| s.len() as i64);
    prop!(engine, "is_empty", |s: &mut CellSet<S>| s.is_empty());
    prop!(engine, "first", |s: &mut CellSet<S>| match s.first() {
        Some(c) => Dynamic::from(c),
        None => Dynamic::UNIT,
    });
    prop!(engine, "to_array", |s: &mut CellSet<S>| {
        s.iter().map(Dynamic::from).collect::<Array>()
    });
    prop!(engine, "peers", |s: &mut CellSet<S>| geo::<S>()
        .common_peers(*s));
    prop!(engine, "rows", |s: &mut CellSet<S>| touched(
        geo::<S>(),
        *s,
        "row"
    )
    .unwrap_or_default());
    prop!(engine, "cols", |s: &mut CellSet<S>| touched(
        geo::<S>(),
        *s,
        "col"
    )
    .unwrap_or_default());
    prop!(engine, "boxes", |s: &mut CellSet<S>| touched(
        geo::<S>(),
        *s,
        "box"
    )
    .unwrap_or_default());
    prop!(engine, "shared_houses", |s: &mut CellSet<S>| {
        if s.is_empty() {
            return Array::new();
        }
        let geo = geo::<S>();
        geo.houses()
            .filter(|&h| s.is_subset(geo.house(h)))
            .map(Dynamic::from)
            .collect::<Array>()
    });
    engine.register_fn("houses", |s: &mut CellSet<S>, kind: &str| {
        touched(geo::<S>(), *s, kind)
    });
    engine.register_fn("contains", |s: &mut CellSet<S>, c: Cell| {
        cell_on(c, S::N) && s.contains(c)
    });
    engine.register_fn("is_subset", |s: &mut CellSet<S>, o: CellSet<S>| {
        s.is_subset(o)
    });
    engine.register_fn("intersects", |s: &mut CellSet<S>, o: CellSet<S>| {
        s.intersects(o)
    });
    engine.register_fn("insert", |s: &mut CellSet<S>, c: Cell| -> Res<()> {
        s.insert(on::<S>(c)?);
        Ok(())
    });
    engine.register_fn("remove", |s: &mut CellSet<S>, c: Cell| {
        if cell_on(c, S::N) {
            s.remove(c);
        }
    });
    // Operators take their left side by reference: Rhai then passes a variable without
    // cloning it (a custom value's clone is two allocations).
    engine.register_fn("|", |a: &mut CellSet<S>, b: CellSet<S>| *a | b);
    engine.register_fn("+", |a: &mut CellSet<S>, b: CellSet<S>| *a | b);
    engine.register_fn("&", |a: &mut CellSet<S>, b: CellSet<S>| *a & b);
    engine.register_fn("-", |a: &mut CellSet<S>, b: CellSet<S>| *a - b);
    engine.register_fn("^", |a: &mut CellSet<S>, b: CellSet<S>| *a ^ b);
    engine.register_fn("==", |a: &mut CellSet<S>, b: CellSet<S>| *a == b);
    engine.register_fn("!=", |a: &mut CellSet<S>, b: CellSet<S>| *a != b);
    engine.register_fn("seen_by_all", |s: CellSet<S>| geo::<S>().common_peers(s));
    engine.register_fn("seen_by_any", |s: CellSet<S>| {
        let geo = geo::<S>();
        let mut out = CellSet::EMPTY;
        for c in s {
            out |= geo.peers(c);
        }
        out - s
    });
}

/// `cellset()` and `cellset([cells])`: sets of the board being searched.
fn register_cellset_constructors(engine: &mut Engine) {
    engine.register_fn(
        "cellset",
        || on_board!(S => Dynamic::from(CellSet::<S>::EMPTY)),
    );
    engine.register_fn("cellset", |cells: Array| -> Res<Dynamic> {
        on_board!(S => cellset::<S>(cells).map(Dynamic::from))
    });
}

fn cellset<S: Shape>(cells: Array) -> Res<CellSet<S>> {
    let mut set = CellSet::<S>::EMPTY;
    for (i, v) in cells.into_iter().enumerate() {
        if v.is_string() {
            let name = v.into_immutable_string().unwrap_or_default();
            set.insert(on::<S>(parse_cell(&name).or_else(err)?)?);
        } else if let Some(c) = v.try_cast::<Cell>() {
            set.insert(on::<S>(c)?);
        } else {
            return err(format!("cellset: element {i} is not a Cell or a cell name"));
        }
    }
    Ok(set)
}

/// A grid as one line: its values row by row, `.` for an empty cell, digits 10 and up as
/// letters (`A` = 10) on boards above 9x9.
fn grid_line<S: Shape>(g: &Grid<S>) -> String {
    if let Some(g9) = (g as &dyn std::any::Any).downcast_ref::<Grid<S9>>() {
        return g9.to_line();
    }
    g.value_slice()
        .iter()
        .map(|&v| match v {
            0 => '.',
            1..=9 => char::from(b'0' + v),
            _ => char::from(b'A' + v - 10),
        })
        .collect()
}

fn register_grid<S: Shape>(engine: &mut Engine) {
    engine.register_type_with_name::<Grid<S>>("Grid");
    engine.register_fn("to_string", |g: &mut Grid<S>| grid_line(g));
    engine.register_fn("to_debug", |g: &mut Grid<S>| grid_line(g));
    // the shape of the board
    prop!(engine, "size", |_: &mut Grid<S>| S::N as i64);
    prop!(
        engine,
        "box_rows",
        |g: &mut Grid<S>| g.geometry().layout().box_rows() as i64
    );
    prop!(
        engine,
        "box_cols",
        |g: &mut Grid<S>| g.geometry().layout().box_cols() as i64
    );
    prop!(engine, "house_count", |_: &mut Grid<S>| 3 * S::N as i64);
    prop!(engine, "digits", |_: &mut Grid<S>| digits_array(full_mask(
        S::N
    )));
    prop!(engine, "all_cells", |_: &mut Grid<S>| CellSet::<S>::ALL);
    prop!(engine, "rows", |_: &mut Grid<S>| houses_array(
        0..S::N,
        S::N
    ));
    prop!(engine, "cols", |_: &mut Grid<S>| houses_array(
        S::N..2 * S::N,
        S::N
    ));
    prop!(engine, "boxes", |_: &mut Grid<S>| houses_array(
        2 * S::N..3 * S::N,
        S::N
    ));
    prop!(engine, "lines", |_: &mut Grid<S>| houses_array(
        0..2 * S::N,
        S::N
    ));
    engine.register_get("houses", |_: &mut Grid<S>| houses_array(0..3 * S::N, S::N));
    engine.register_fn("houses", |_: &mut Grid<S>| houses_array(0..3 * S::N, S::N));
    engine.register_fn("houses", |_: &mut Grid<S>, kind: &str| -> Res<Array> {
        Ok(houses_array(kind_range(kind, S::N)?, S::N))
    });
    engine.register_fn(
        "house_cells",
        |g: &mut Grid<S>, h: House| -> Res<CellSet<S>> {
            Ok(g.geometry().house(house_of_size::<S>(h)?))
        },
    );
    engine.register_fn("peers", |g: &mut Grid<S>, c: Cell| -> Res<CellSet<S>> {
        Ok(g.geometry().peers(on::<S>(c)?))
    });
    engine.register_fn("cells", |g: &mut Grid<S>, d: i64| -> Res<CellSet<S>> {
        Ok(g.digit_cells(digit_in(d, S::N)?))
    });
    engine.register_fn(
        "cells_in",
        |g: &mut Grid<S>, d: i64, h: House| -> Res<CellSet<S>> {
            Ok(g.digit_cells_in(digit_in(d, S::N)?, house_of_size::<S>(h)?))
        },
    );
    engine.register_fn(
        "count_in",
        |g: &mut Grid<S>, d: i64, h: House| -> Res<i64> {
            Ok(g.digit_cells_in(digit_in(d, S::N)?, house_of_size::<S>(h)?)
                .len() as i64)
        },
    );
    engine.register_fn("candidates", |g: &mut Grid<S>, c: Cell| -> Res<Array> {
        Ok(digits_array(g.candidates(on::<S>(c)?)))
    });
    engine.register_fn("mask", |g: &mut Grid<S>, c: Cell| -> Res<i64> {
        Ok(mask_int(g.candidates(on::<S>(c)?)))
    });
    engine.register_fn("mask", |g: &mut Grid<S>, s: CellSet<S>| {
        mask_int(g.candidates_of(s))
    });
    engine.register_fn("count", |g: &mut Grid<S>, c: Cell| -> Res<i64> {
        Ok(g.candidates(on::<S>(c)?).count() as i64)
    });
    engine.register_fn("has", |g: &mut Grid<S>, c: Cell, d: i64| -> Res<bool> {
        Ok(g.has_candidate(on::<S>(c)?, digit_in(d, S::N)?))
    });
    engine.register_fn("value", |g: &mut Grid<S>, c: Cell| -> Res<i64> {
        Ok(g.value(on::<S>(c)?) as i64)
    });
    engine.register_fn("empty", |g: &mut Grid<S>| g.empty_cells());
    engine.register_fn("filled", |g: &mut Grid<S>| g.filled_cells());
    engine.register_fn("givens", |g: &mut Grid<S>| g.givens());
    engine.register_fn("cells_with_count", |g: &mut Grid<S>, n: i64| {
        // no cell has a negative or a huge number of candidates
        u32::try_from(n).map_or(CellSet::EMPTY, |n| cells_with_count(g, n))
    });
    engine.register_fn(
        "cells_with_candidates",
        |g: &mut Grid<S>, m: i64| -> Res<CellSet<S>> {
            Ok(cells_with_candidates(g, to_bits(mask_arg_in(m, S::N)?)))
        },
    );
    engine.register_fn(
        "cells_with_candidates",
        |g: &mut Grid<S>, digits: Array| -> Res<CellSet<S>> {
            Ok(cells_with_candidates(
                g,
                to_bits(mask_of_array_in(&digits, S::N)?),
            ))
        },
    );
    engine.register_fn("pincers", |g: &mut Grid<S>, c: Cell| -> Res<CellSet<S>> {
        let c = on::<S>(c)?;
        Ok(xy_pincers(g, cells_with_count(g, 2), c))
    });
    engine.register_fn(
        "houses_with_count",
        |g: &mut Grid<S>, d: i64, kind: &str, n: i64| -> Res<Array> {
            let d = digit_in(d, S::N)?;
            Ok(kind_range(kind, S::N)?
                .map(|i| House::from_index_in(i, S::N))
                .filter(|&h| g.digit_cells_in(d, h).len() as i64 == n)
                .map(Dynamic::from)
                .collect())
        },
    );
    engine.register_fn(
        "strong_links",
        |g: &mut Grid<S>, d: i64, kind: &str| -> Res<Array> {
            let d = digit_in(d, S::N)?;
            Ok(kind_range(kind, S::N)?
                .filter_map(|i| strong_link(g, d, House::from_index_in(i, S::N)))
                .map(|l| Dynamic::from(l.cells::<S>()))
                .collect())
        },
    );
    engine.register_fn(
        "cells_by_house",
        |g: &mut Grid<S>, d: i64, kind: &str, min: i64, max: i64| -> Res<Array> {
            let d = digit_in(d, S::N)?;
            Ok(kind_range(kind, S::N)?
                .map(|i| g.digit_cells_in(d, House::from_index_in(i, S::N)))
                .filter(|s| (min..=max).contains(&(s.len() as i64)))
                .map(Dynamic::from)
                .collect())
        },
    );
    engine.register_fn(
        "cells_by_house",
        |g: &mut Grid<S>, d: i64, kind: &str| -> Res<Array> {
            let d = digit_in(d, S::N)?;
            Ok(kind_range(kind, S::N)?
                .map(|i| Dynamic::from(g.digit_cells_in(d, House::from_index_in(i, S::N))))
                .collect())
        },
    );
}

fn register_digits(engine: &mut Engine) {
    engine.register_fn("digits", |m: i64| -> Res<Array> {
        Ok(digits_array(mask_arg_in(m, searched::n())?))
    });
    engine.register_fn("mask", |digits: Array| -> Res<i64> {
        Ok(mask_of_array_in(&digits, searched::n())? as i64)
    });
    engine.register_fn("bit", |d: i64| -> Res<i64> { Ok(1i64 << (digit(d)? - 1)) });
    // a digit as the puzzle writes it (`E` for 14 on a 16x16 puzzle in 1-9A-G), for explanations
    engine.register_fn("symbol", |d: i64| -> Res<String> {
        Ok(crate::model::Sym(digit(d)?).to_string())
    });
    engine.register_fn("mask_len", |m: i64| {
        (m as u64 & u64::from(full_mask(searched::n()))).count_ones() as i64
    });
    // Rhai has no bitwise complement on integers (`!` is for booleans only).
    engine.register_fn("complement", |m: i64| -> Res<i64> {
        let n = searched::n();
        Ok((!mask_arg_in(m, n)? & full_mask(n)) as i64)
    });
    engine.register_fn("without", |m: i64, other: i64| -> Res<i64> {
        let n = searched::n();
        Ok((mask_arg_in(m, n)? & !mask_arg_in(other, n)?) as i64)
    });
}

/// The step builder's constructor and its methods that take no cell set; the digits are the
/// board's being searched.
fn register_step(engine: &mut Engine) {
    engine.register_type_with_name::<StepBuilder>("Step");
    engine.register_fn("step", StepBuilder::default);
    engine.register_fn("to_string", |s: &mut StepBuilder| format!("{s:?}"));
    engine.register_fn("to_debug", |s: &mut StepBuilder| format!("{s:?}"));

    engine.register_fn(
        "eliminate",
        |s: &mut StepBuilder, c: Cell, d: i64| -> Res<StepBuilder> {
            let (c, d) = (here(c)?, digit(d)?);
            s.eliminations.push(Candidate::new(c, d));
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "eliminate",
        |s: &mut StepBuilder, c: Cell, d: Array| -> Res<StepBuilder> {
            let c = here(c)?;
            let mask = mask_of_array_in(&d, searched::n())?;
            s.eliminations
                .extend(digits(mask).map(|d| Candidate::new(c, d)));
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "place",
        |s: &mut StepBuilder, c: Cell, d: i64| -> Res<StepBuilder> {
            s.placements.push(Candidate::new(here(c)?, digit(d)?));
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "highlight",
        |s: &mut StepBuilder, role: &str, c: Cell, d: i64| -> Res<StepBuilder> {
            let (c, d) = (here(c)?, digit(d)?);
            on_board!(S => s.highlight(role, CellSet::<S>::single(c), 1 << (d - 1)))?;
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "highlight",
        |s: &mut StepBuilder, role: &str, c: Cell, d: Array| -> Res<StepBuilder> {
            let c = here(c)?;
            let mask = mask_of_array_in(&d, searched::n())?;
            on_board!(S => s.highlight(role, CellSet::<S>::single(c), mask))?;
            Ok(s.clone())
        },
    );
    engine.register_fn("house", |s: &mut StepBuilder, h: House| -> StepBuilder {
        s.houses.push(h);
        s.clone()
    });
    engine.register_fn(
        "house",
        |s: &mut StepBuilder, h: &str| -> Res<StepBuilder> {
            let h: House = h.parse::<House>().map_err(|e| e.to_string()).or_else(err)?;
            s.houses.push(searched::check_house(h).or_else(err)?);
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "houses",
        |s: &mut StepBuilder, hs: Array| -> Res<StepBuilder> {
            for (i, h) in hs.into_iter().enumerate() {
                match h.try_cast::<House>() {
                    Some(h) => s.houses.push(h),
                    None => return err(format!("houses: element {i} is not a House")),
                }
            }
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "explain",
        |s: &mut StepBuilder, text: ImmutableString| -> StepBuilder {
            s.explanation = text.to_string();
            s.clone()
        },
    );
    engine.register_fn(
        "difficulty",
        |s: &mut StepBuilder, d: rhai::FLOAT| -> StepBuilder {
            s.difficulty = Some(d);
            s.clone()
        },
    );
    engine.register_fn("difficulty", |s: &mut StepBuilder, d: i64| -> StepBuilder {
        s.difficulty = Some(d as f32);
        s.clone()
    });
}

/// The step builder's methods that take a cell set of shape `S`.
fn register_step_sets<S: Shape>(engine: &mut Engine) {
    engine.register_fn(
        "eliminate",
        |s: &mut StepBuilder, c: CellSet<S>, d: i64| -> Res<StepBuilder> {
            s.eliminate(c, 1 << (digit_in(d, S::N)? - 1));
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "eliminate",
        |s: &mut StepBuilder, c: CellSet<S>, d: Array| -> Res<StepBuilder> {
            s.eliminate(c, mask_of_array_in(&d, S::N)?);
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "highlight",
        |s: &mut StepBuilder, role: &str, c: CellSet<S>, d: i64| -> Res<StepBuilder> {
            s.highlight(role, c, 1 << (digit_in(d, S::N)? - 1))?;
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "highlight",
        |s: &mut StepBuilder, role: &str, c: CellSet<S>, d: Array| -> Res<StepBuilder> {
            s.highlight(role, c, mask_of_array_in(&d, S::N)?)?;
            Ok(s.clone())
        },
    );
}

#[cfg(test)]
mod tests;

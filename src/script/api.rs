//! The types and helpers a script sees: `Cell`, `CellSet`, `House`, `Grid` and the `Step`
//! builder, registered on the shared Rhai engine.
//!
//! Every helper works on whole sets or masks, because each script operation costs some hundred
//! nanoseconds (`cargo bench --bench script_ops`) while the native work behind a helper costs a
//! few. Arguments are checked and a
//! bad one (a digit outside 1..=9, an unknown house kind or role) is a runtime error that Rhai
//! reports at the calling line and column.

use std::ops::ControlFlow;

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString};

/// Scripts see the 9x9 board.
type CellSet = crate::cellset::CellSet<crate::shape::S9>;
use crate::geometry::{Cell, DigitMask, House, HouseKind, digit_bit, digits};
use crate::grid::{Candidate, Grid};
use crate::step::{Highlight, Role};
use crate::technique::context::{cells_with_candidates, cells_with_count, strong_link};
use crate::technique::wings::{for_each_wing, xy_pincers};

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

fn err<T>(message: String) -> Res<T> {
    Err(message.into())
}

/// A digit argument, checked to be 1..=9.
pub(crate) fn digit(d: i64) -> Res<u8> {
    if (1..=9).contains(&d) {
        Ok(d as u8)
    } else {
        err(format!("digit {d} is not 1..9"))
    }
}

/// A digit mask from an array of digits.
fn mask_of_array(digits: &Array) -> Res<DigitMask> {
    let mut m = 0;
    for v in digits {
        match v.as_int() {
            Ok(d) => m |= digit_bit(digit(d)?),
            Err(t) => return err(format!("expected an array of digits, found a {t} in it")),
        }
    }
    Ok(m)
}

fn mask_arg(mask: i64) -> Res<DigitMask> {
    if (0..=0x1ff).contains(&mask) {
        Ok(mask as DigitMask)
    } else {
        err(format!(
            "{mask} is not a digit mask (0..=511, bit d-1 for digit d)"
        ))
    }
}

pub(crate) fn digits_array(mask: DigitMask) -> Array {
    digits(mask).map(|d| Dynamic::from_int(d as i64)).collect()
}

/// The house indices of a kind name.
pub(crate) fn kind_range(kind: &str) -> Res<std::ops::Range<u8>> {
    Ok(match kind {
        "row" | "rows" => 0..9,
        "col" | "cols" | "column" | "columns" => 9..18,
        "box" | "boxes" => 18..27,
        "line" | "lines" => 0..18,
        "house" | "houses" | "any" => 0..27,
        _ => {
            return err(format!(
                "`{kind}` is not a house kind (row, col, box, line or house)"
            ));
        }
    })
}

fn houses_array(range: std::ops::Range<u8>) -> Array {
    range.map(|i| Dynamic::from(House::from_index(i))).collect()
}

fn kind_name(kind: HouseKind) -> &'static str {
    match kind {
        HouseKind::Row => "row",
        HouseKind::Column => "col",
        HouseKind::Box => "box",
    }
}

/// The houses of `kind` that `set` touches, in index order.
fn touched(set: CellSet, kind: &str) -> Res<Array> {
    let range = kind_range(kind)?;
    Ok(range
        .map(House::from_index)
        .filter(|h| h.cells().intersects(set))
        .map(Dynamic::from)
        .collect())
}

/// A cell from a name (`r1c1`), for `cell("r1c1")` and for map returns.
pub(crate) fn parse_cell(name: &str) -> Result<Cell, String> {
    name.parse()
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
fn candidates(cells: CellSet, mask: DigitMask) -> impl Iterator<Item = Candidate> {
    cells
        .into_iter()
        .flat_map(move |c| digits(mask).map(move |d| Candidate::new(c, d)))
}

impl StepBuilder {
    fn eliminate(&mut self, cells: CellSet, mask: DigitMask) {
        self.eliminations.extend(candidates(cells, mask));
    }

    fn highlight(&mut self, role: &str, cells: CellSet, mask: DigitMask) -> Res<()> {
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

/// Registers every script type and helper on `engine`.
pub(crate) fn register(engine: &mut Engine) {
    register_cell(engine);
    register_house(engine);
    register_cellset(engine);
    register_grid(engine);
    register_digits(engine);
    register_step(engine);
    register_patterns(engine);
    super::position::register(engine);
}

fn register_cell(engine: &mut Engine) {
    engine.register_type_with_name::<Cell>("Cell");
    engine.register_fn("cell", |name: &str| -> Res<Cell> {
        parse_cell(name).or_else(err)
    });
    engine.register_fn("cell", |row: i64, col: i64| -> Res<Cell> {
        if (1..=9).contains(&row) && (1..=9).contains(&col) {
            Ok(Cell::at(row as u8 - 1, col as u8 - 1))
        } else {
            err(format!("cell({row}, {col}): row and column are 1..9"))
        }
    });
    engine.register_fn("to_string", |c: &mut Cell| c.to_string());
    engine.register_fn("to_debug", |c: &mut Cell| c.to_string());
    prop!(engine, "name", |c: &mut Cell| c.to_string());
    prop!(engine, "row", |c: &mut Cell| c.row() as i64 + 1);
    prop!(engine, "col", |c: &mut Cell| c.col() as i64 + 1);
    prop!(engine, "box", |c: &mut Cell| c.box_index() as i64 + 1);
    prop!(engine, "index", |c: &mut Cell| c.index() as i64);
    prop!(engine, "peers", |c: &mut Cell| c.peers());
    prop!(engine, "houses", |c: &mut Cell| {
        c.houses().into_iter().map(Dynamic::from).collect::<Array>()
    });
    engine.register_fn("house", |c: &mut Cell, kind: &str| -> Res<House> {
        let [r, col, b] = c.houses();
        match kind {
            "row" => Ok(r),
            "col" | "column" => Ok(col),
            "box" => Ok(b),
            _ => err(format!(
                "`{kind}` is not a house kind of a cell (row, col, box)"
            )),
        }
    });
    engine.register_fn("sees", |a: &mut Cell, b: Cell| a.sees(b));
    engine.register_fn("==", |a: Cell, b: Cell| a == b);
    engine.register_fn("!=", |a: Cell, b: Cell| a != b);
    engine.register_fn("|", |a: Cell, b: Cell| {
        CellSet::single(a) | CellSet::single(b)
    });
    engine.register_fn("|", |a: Cell, b: CellSet| CellSet::single(a) | b);
    engine.register_fn("|", |a: CellSet, b: Cell| a | CellSet::single(b));
    engine.register_fn("-", |a: CellSet, b: Cell| a - CellSet::single(b));
    engine.register_fn("&", |a: CellSet, b: Cell| a & CellSet::single(b));
    engine.register_fn("all_cells", || CellSet::ALL);
}

fn register_house(engine: &mut Engine) {
    engine.register_type_with_name::<House>("House");
    engine.register_fn("house", |name: &str| -> Res<House> {
        name.parse().or_else(err)
    });
    engine.register_fn("to_string", |h: &mut House| h.to_string());
    engine.register_fn("to_debug", |h: &mut House| h.to_string());
    prop!(engine, "name", |h: &mut House| h.to_string());
    prop!(engine, "kind", |h: &mut House| kind_name(h.kind())
        .to_string());
    prop!(engine, "number", |h: &mut House| h.number() as i64);
    prop!(engine, "index", |h: &mut House| h.index() as i64);
    prop!(engine, "cells", |h: &mut House| h.cells());
    engine.register_fn("==", |a: House, b: House| a == b);
    engine.register_fn("!=", |a: House, b: House| a != b);
    engine.register_fn("rows", || houses_array(0..9));
    engine.register_fn("cols", || houses_array(9..18));
    engine.register_fn("boxes", || houses_array(18..27));
    engine.register_fn("lines", || houses_array(0..18));
    engine.register_fn("houses", || houses_array(0..27));
    engine.register_fn("houses", |kind: &str| -> Res<Array> {
        Ok(houses_array(kind_range(kind)?))
    });
    engine.register_fn("cells_of", |houses: Array| -> Res<CellSet> {
        let mut set = CellSet::EMPTY;
        for (i, h) in houses.into_iter().enumerate() {
            if let Some(h) = h.clone().try_cast::<House>() {
                set |= h.cells();
            } else if let Some(c) = h.clone().try_cast::<Cell>() {
                set.insert(c);
            } else if let Some(s) = h.try_cast::<CellSet>() {
                set |= s;
            } else {
                return err(format!(
                    "cells_of: element {i} is not a House, Cell or CellSet"
                ));
            }
        }
        Ok(set)
    });
}

fn register_cellset(engine: &mut Engine) {
    engine.register_type_with_name::<CellSet>("CellSet");
    engine.register_iterator::<CellSet>();
    engine.register_fn("cellset", || CellSet::EMPTY);
    engine.register_fn("cellset", |cells: Array| -> Res<CellSet> {
        let mut set = CellSet::EMPTY;
        for (i, v) in cells.into_iter().enumerate() {
            if v.is_string() {
                let name = v.into_immutable_string().unwrap_or_default();
                set.insert(parse_cell(&name).or_else(err)?);
            } else if let Some(c) = v.try_cast::<Cell>() {
                set.insert(c);
            } else {
                return err(format!("cellset: element {i} is not a Cell or a cell name"));
            }
        }
        Ok(set)
    });
    engine.register_fn("to_string", |s: &mut CellSet| s.to_string());
    engine.register_fn("to_debug", |s: &mut CellSet| format!("{s:?}"));
    prop!(engine, "len", |s: &mut CellSet| s.len() as i64);
    prop!(engine, "is_empty", |s: &mut CellSet| s.is_empty());
    prop!(engine, "first", |s: &mut CellSet| match s.first() {
        Some(c) => Dynamic::from(c),
        None => Dynamic::UNIT,
    });
    prop!(engine, "to_array", |s: &mut CellSet| {
        s.iter().map(Dynamic::from).collect::<Array>()
    });
    prop!(engine, "peers", |s: &mut CellSet| s.common_peers());
    prop!(engine, "rows", |s: &mut CellSet| touched(*s, "row")
        .unwrap_or_default());
    prop!(engine, "cols", |s: &mut CellSet| touched(*s, "col")
        .unwrap_or_default());
    prop!(engine, "boxes", |s: &mut CellSet| touched(*s, "box")
        .unwrap_or_default());
    prop!(engine, "shared_houses", |s: &mut CellSet| {
        if s.is_empty() {
            return Array::new();
        }
        House::all()
            .filter(|h| s.is_subset(h.cells()))
            .map(Dynamic::from)
            .collect::<Array>()
    });
    engine.register_fn("houses", |s: &mut CellSet, kind: &str| touched(*s, kind));
    engine.register_fn("contains", |s: &mut CellSet, c: Cell| s.contains(c));
    engine.register_fn("is_subset", |s: &mut CellSet, o: CellSet| s.is_subset(o));
    engine.register_fn("intersects", |s: &mut CellSet, o: CellSet| s.intersects(o));
    engine.register_fn("insert", |s: &mut CellSet, c: Cell| s.insert(c));
    engine.register_fn("remove", |s: &mut CellSet, c: Cell| s.remove(c));
    // Operators take their left side by reference: Rhai then passes a variable without
    // cloning it (a custom value's clone is two allocations).
    engine.register_fn("|", |a: &mut CellSet, b: CellSet| *a | b);
    engine.register_fn("+", |a: &mut CellSet, b: CellSet| *a | b);
    engine.register_fn("&", |a: &mut CellSet, b: CellSet| *a & b);
    engine.register_fn("-", |a: &mut CellSet, b: CellSet| *a - b);
    engine.register_fn("^", |a: &mut CellSet, b: CellSet| *a ^ b);
    engine.register_fn("==", |a: &mut CellSet, b: CellSet| *a == b);
    engine.register_fn("!=", |a: &mut CellSet, b: CellSet| *a != b);
    engine.register_fn("seen_by_all", |s: CellSet| s.common_peers());
    engine.register_fn("seen_by_all", |a: Cell, b: Cell| {
        (CellSet::single(a) | CellSet::single(b)).common_peers()
    });
    engine.register_fn("seen_by_any", |s: CellSet| {
        let mut out = CellSet::EMPTY;
        for c in s {
            out |= c.peers();
        }
        out - s
    });
}

fn register_grid(engine: &mut Engine) {
    engine.register_type_with_name::<Grid>("Grid");
    engine.register_fn("to_string", |g: &mut Grid| g.to_line());
    engine.register_fn("to_debug", |g: &mut Grid| g.to_line());
    engine.register_fn("cells", |g: &mut Grid, d: i64| -> Res<CellSet> {
        Ok(g.digit_cells(digit(d)?))
    });
    engine.register_fn(
        "cells_in",
        |g: &mut Grid, d: i64, h: House| -> Res<CellSet> { Ok(g.digit_cells_in(digit(d)?, h)) },
    );
    engine.register_fn("count_in", |g: &mut Grid, d: i64, h: House| -> Res<i64> {
        Ok(g.digit_cells_in(digit(d)?, h).len() as i64)
    });
    engine.register_fn("candidates", |g: &mut Grid, c: Cell| {
        digits_array(g.candidates(c))
    });
    engine.register_fn("mask", |g: &mut Grid, c: Cell| g.candidates(c) as i64);
    engine.register_fn("mask", |g: &mut Grid, s: CellSet| g.candidates_of(s) as i64);
    engine.register_fn("count", |g: &mut Grid, c: Cell| {
        g.candidates(c).count_ones() as i64
    });
    engine.register_fn("has", |g: &mut Grid, c: Cell, d: i64| -> Res<bool> {
        Ok(g.has_candidate(c, digit(d)?))
    });
    engine.register_fn("value", |g: &mut Grid, c: Cell| g.value(c) as i64);
    engine.register_fn("empty", |g: &mut Grid| g.empty_cells());
    engine.register_fn("filled", |g: &mut Grid| g.filled_cells());
    engine.register_fn("givens", |g: &mut Grid| g.givens());
    engine.register_fn("cells_with_count", |g: &mut Grid, n: i64| {
        // no cell has a negative or a huge number of candidates
        u32::try_from(n).map_or(CellSet::EMPTY, |n| cells_with_count(g, n))
    });
    engine.register_fn(
        "cells_with_candidates",
        |g: &mut Grid, m: i64| -> Res<CellSet> { Ok(cells_with_candidates(g, mask_arg(m)?)) },
    );
    engine.register_fn(
        "cells_with_candidates",
        |g: &mut Grid, digits: Array| -> Res<CellSet> {
            Ok(cells_with_candidates(g, mask_of_array(&digits)?))
        },
    );
    engine.register_fn("pincers", |g: &mut Grid, c: Cell| -> CellSet {
        xy_pincers(g, cells_with_count(g, 2), c)
    });
    engine.register_fn(
        "houses_with_count",
        |g: &mut Grid, d: i64, kind: &str, n: i64| -> Res<Array> {
            let d = digit(d)?;
            Ok(kind_range(kind)?
                .map(House::from_index)
                .filter(|&h| g.digit_cells_in(d, h).len() as i64 == n)
                .map(Dynamic::from)
                .collect())
        },
    );
    engine.register_fn(
        "strong_links",
        |g: &mut Grid, d: i64, kind: &str| -> Res<Array> {
            let d = digit(d)?;
            Ok(kind_range(kind)?
                .filter_map(|i| strong_link(g, d, House::from_index(i)))
                .map(|l| Dynamic::from(l.cells::<crate::shape::S9>()))
                .collect())
        },
    );
    engine.register_fn(
        "cells_by_house",
        |g: &mut Grid, d: i64, kind: &str, min: i64, max: i64| -> Res<Array> {
            let d = digit(d)?;
            Ok(kind_range(kind)?
                .map(|i| g.digit_cells_in(d, House::from_index(i)))
                .filter(|s| (min..=max).contains(&(s.len() as i64)))
                .map(Dynamic::from)
                .collect())
        },
    );
    engine.register_fn(
        "cells_by_house",
        |g: &mut Grid, d: i64, kind: &str| -> Res<Array> {
            let d = digit(d)?;
            Ok(kind_range(kind)?
                .map(|i| Dynamic::from(g.digit_cells_in(d, House::from_index(i))))
                .collect())
        },
    );
}

/// Two strong links of one digit joined at one end each (a Turbot-fish shape), from
/// `grid.link_pairs(d, kind_a, kind_b, join)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkPair {
    /// The digit.
    pub digit: u8,
    /// The house of the first link and of the second.
    pub houses: [House; 2],
    /// The joined ends of the first and second link (they share `join`).
    pub base: [Cell; 2],
    /// The far ends of the first and second link.
    pub ends: [Cell; 2],
    /// The house of the `join` kind holding both base ends.
    pub join: House,
    /// Cells with the digit that see both far ends, outside the four link cells.
    pub elims: CellSet,
}

/// The houses of a kind range that hold both cells, first by index.
fn shared_house(a: Cell, b: Cell, range: &std::ops::Range<u8>) -> Option<House> {
    a.houses()
        .into_iter()
        .find(|h| range.contains(&(h.index() as u8)) && h.cells().contains(b))
}

/// Every pair of strong links of `d`, one in a house of `kinds_a`, one in `kinds_b` (each
/// unordered pair once), with disjoint cells, where one end of each (the base) shares a house
/// of `join` that holds neither far end, and the far ends share no house of `join`.
fn link_pairs(g: &Grid, d: u8, kind_a: &str, kind_b: &str, join: &str) -> Res<Vec<LinkPair>> {
    let (ra, rb, rj) = (kind_range(kind_a)?, kind_range(kind_b)?, kind_range(join)?);
    let links = |r: std::ops::Range<u8>| {
        r.filter_map(|i| strong_link(g, d, House::from_index(i)))
            .map(|l| (l.house, l.cells()))
            .collect::<Vec<_>>()
    };
    let same = ra == rb;
    let (la, lb) = (links(ra), links(rb));
    let where_ = g.digit_cells(d);
    let mut out = Vec::new();
    for (ha, a) in &la {
        for (hb, b) in &lb {
            if (same && ha.index() >= hb.index()) || a.intersects(*b) {
                continue;
            }
            for ea in *a {
                for eb in *b {
                    let Some(j) = shared_house(ea, eb, &rj) else {
                        continue;
                    };
                    let (fa, fb) = (
                        (*a - CellSet::single(ea)).first(),
                        (*b - CellSet::single(eb)).first(),
                    );
                    let (Some(fa), Some(fb)) = (fa, fb) else {
                        continue;
                    };
                    if j.cells().contains(fa)
                        || j.cells().contains(fb)
                        || shared_house(fa, fb, &rj).is_some()
                    {
                        continue;
                    }
                    let ends = CellSet::single(fa) | CellSet::single(fb);
                    out.push(LinkPair {
                        digit: d,
                        houses: [*ha, *hb],
                        base: [ea, eb],
                        ends: [fa, fb],
                        join: j,
                        elims: (where_ & ends.common_peers()) - (*a | *b),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// A pivot and two bivalue pincers `{x,z}`, `{y,z}` that between them cover the pivot's
/// candidates, from `grid.wings(pivots)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wing {
    /// The pivot.
    pub pivot: Cell,
    /// The two pincers.
    pub pincers: [Cell; 2],
    /// The digit both pincers hold (`z`).
    pub z: u8,
    /// Cells with `z` seeing both pincers (and the pivot too when it holds `z`).
    pub elims: CellSet,
}

/// For each pivot of `pivots` in index order, each pair of bivalue peers `a`, `b` (in index
/// order) sharing one digit `z`, whose candidates lie within the pivot's plus `z` and cover
/// the pivot's: XY-Wings for bivalue pivots, XYZ-Wings for three-candidate ones (the
/// built-in finders' search, [`for_each_wing`]).
fn wings(g: &Grid, pivots: CellSet) -> Vec<Wing> {
    let bivalue = cells_with_count(g, 2);
    let mut out = Vec::new();
    for pivot in pivots & g.empty_cells() {
        let _ = for_each_wing(g, bivalue, pivot, &mut |a, b, z, targets| {
            out.push(Wing {
                pivot,
                pincers: [a, b],
                z,
                elims: g.digit_cells(z) & targets,
            });
            ControlFlow::Continue(())
        });
    }
    out
}

fn register_patterns(engine: &mut Engine) {
    engine.register_type_with_name::<LinkPair>("LinkPair");
    engine.register_fn(
        "link_pairs",
        |g: &mut Grid, d: i64, kind_a: &str, kind_b: &str, join: &str| -> Res<Array> {
            Ok(link_pairs(g, digit(d)?, kind_a, kind_b, join)?
                .into_iter()
                .map(Dynamic::from)
                .collect())
        },
    );
    engine.register_fn(
        "link_pairs",
        |g: &mut Grid, d: i64, kind: &str| -> Res<Array> {
            let cross = match kind {
                "row" | "rows" => "col",
                "col" | "cols" | "column" | "columns" => "row",
                _ => return err(format!("link_pairs(d, kind): `{kind}` is not row or col")),
            };
            Ok(link_pairs(g, digit(d)?, kind, kind, cross)?
                .into_iter()
                .map(Dynamic::from)
                .collect())
        },
    );
    engine.register_fn("to_string", |p: &mut LinkPair| format!("{p:?}"));
    engine.register_fn("to_debug", |p: &mut LinkPair| format!("{p:?}"));
    prop!(engine, "digit", |p: &mut LinkPair| p.digit as i64);
    prop!(engine, "base", |p: &mut LinkPair| CellSet::single(
        p.base[0]
    ) | CellSet::single(
        p.base[1]
    ));
    prop!(engine, "ends", |p: &mut LinkPair| CellSet::single(
        p.ends[0]
    ) | CellSet::single(
        p.ends[1]
    ));
    prop!(engine, "cells", |p: &mut LinkPair| {
        p.base
            .into_iter()
            .chain(p.ends)
            .map(CellSet::single)
            .fold(CellSet::EMPTY, |a, b| a | b)
    });
    prop!(engine, "base_a", |p: &mut LinkPair| p.base[0]);
    prop!(engine, "base_b", |p: &mut LinkPair| p.base[1]);
    prop!(engine, "end_a", |p: &mut LinkPair| p.ends[0]);
    prop!(engine, "end_b", |p: &mut LinkPair| p.ends[1]);
    prop!(engine, "house_a", |p: &mut LinkPair| p.houses[0]);
    prop!(engine, "house_b", |p: &mut LinkPair| p.houses[1]);
    prop!(engine, "join", |p: &mut LinkPair| p.join);
    prop!(engine, "elims", |p: &mut LinkPair| p.elims);

    engine.register_type_with_name::<Wing>("Wing");
    engine.register_fn("wings", |g: &mut Grid, pivots: CellSet| -> Array {
        wings(g, pivots).into_iter().map(Dynamic::from).collect()
    });
    engine.register_fn("wings", |g: &mut Grid, pivot: Cell| -> Array {
        wings(g, CellSet::single(pivot))
            .into_iter()
            .map(Dynamic::from)
            .collect()
    });
    engine.register_fn("to_string", |w: &mut Wing| format!("{w:?}"));
    engine.register_fn("to_debug", |w: &mut Wing| format!("{w:?}"));
    prop!(engine, "pivot", |w: &mut Wing| w.pivot);
    prop!(engine, "a", |w: &mut Wing| w.pincers[0]);
    prop!(engine, "b", |w: &mut Wing| w.pincers[1]);
    prop!(engine, "pincers", |w: &mut Wing| CellSet::single(
        w.pincers[0]
    ) | CellSet::single(
        w.pincers[1]
    ));
    prop!(engine, "z", |w: &mut Wing| w.z as i64);
    prop!(engine, "elims", |w: &mut Wing| w.elims);
}

fn register_digits(engine: &mut Engine) {
    engine.register_fn("digits", |m: i64| -> Res<Array> {
        Ok(digits_array(mask_arg(m)?))
    });
    engine.register_fn("mask", |digits: Array| -> Res<i64> {
        Ok(mask_of_array(&digits)? as i64)
    });
    engine.register_fn("bit", |d: i64| -> Res<i64> {
        Ok(digit_bit(digit(d)?) as i64)
    });
    engine.register_fn("mask_len", |m: i64| (m as u64 & 0x1ff).count_ones() as i64);
    // Rhai has no bitwise complement on integers (`!` is for booleans only).
    engine.register_fn("complement", |m: i64| -> Res<i64> {
        Ok((!mask_arg(m)? & 0x1ff) as i64)
    });
    engine.register_fn("without", |m: i64, other: i64| -> Res<i64> {
        Ok((mask_arg(m)? & !mask_arg(other)?) as i64)
    });
}

fn register_step(engine: &mut Engine) {
    engine.register_type_with_name::<StepBuilder>("Step");
    engine.register_fn("step", StepBuilder::default);
    engine.register_fn("to_string", |s: &mut StepBuilder| format!("{s:?}"));
    engine.register_fn("to_debug", |s: &mut StepBuilder| format!("{s:?}"));

    engine.register_fn(
        "eliminate",
        |s: &mut StepBuilder, c: Cell, d: i64| -> Res<StepBuilder> {
            s.eliminate(CellSet::single(c), digit_bit(digit(d)?));
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "eliminate",
        |s: &mut StepBuilder, c: CellSet, d: i64| -> Res<StepBuilder> {
            s.eliminate(c, digit_bit(digit(d)?));
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "eliminate",
        |s: &mut StepBuilder, c: Cell, d: Array| -> Res<StepBuilder> {
            s.eliminate(CellSet::single(c), mask_of_array(&d)?);
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "eliminate",
        |s: &mut StepBuilder, c: CellSet, d: Array| -> Res<StepBuilder> {
            s.eliminate(c, mask_of_array(&d)?);
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "place",
        |s: &mut StepBuilder, c: Cell, d: i64| -> Res<StepBuilder> {
            s.placements.push(Candidate::new(c, digit(d)?));
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "highlight",
        |s: &mut StepBuilder, role: &str, c: Cell, d: i64| -> Res<StepBuilder> {
            s.highlight(role, CellSet::single(c), digit_bit(digit(d)?))?;
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "highlight",
        |s: &mut StepBuilder, role: &str, c: CellSet, d: i64| -> Res<StepBuilder> {
            s.highlight(role, c, digit_bit(digit(d)?))?;
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "highlight",
        |s: &mut StepBuilder, role: &str, c: Cell, d: Array| -> Res<StepBuilder> {
            s.highlight(role, CellSet::single(c), mask_of_array(&d)?)?;
            Ok(s.clone())
        },
    );
    engine.register_fn(
        "highlight",
        |s: &mut StepBuilder, role: &str, c: CellSet, d: Array| -> Res<StepBuilder> {
            s.highlight(role, c, mask_of_array(&d)?)?;
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
            s.houses.push(h.parse().or_else(err)?);
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

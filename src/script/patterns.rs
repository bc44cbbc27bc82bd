//! The pattern helpers: `grid.link_pairs(...)` (two strong links joined at one end) and
//! `grid.wings(...)` (XY- and XYZ-Wings), found natively for every shape.

use std::ops::ControlFlow;

use rhai::{Array, Dynamic, Engine};

use super::api::{Res, digit_in, err, kind_range, on};
use crate::model::cell::{Cell, House};
use crate::model::cellset::CellSet;
use crate::model::grid::Grid;
use crate::model::{Geometry, S9, Shape};
use crate::technique::context::{cells_with_count, strong_link};
use crate::technique::wings::for_each_wing;

/// Registers a function both as a method/function `name(x)` and as a property `x.name`.
macro_rules! prop {
    ($engine:expr, $name:expr, $f:expr) => {{
        $engine.register_fn($name, $f);
        $engine.register_get($name, $f);
    }};
}

/// Two strong links of one digit joined at one end each (a Turbot-fish shape), from
/// `grid.link_pairs(d, kind_a, kind_b, join)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkPair<S: Shape = S9> {
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
    pub elims: CellSet<S>,
}

/// The houses of a kind range that hold both cells, first by index.
fn shared_house<S: Shape>(
    geo: &Geometry<S>,
    a: Cell,
    b: Cell,
    range: &std::ops::Range<usize>,
) -> Option<House> {
    geo.houses_of(a)
        .into_iter()
        .find(|h| range.contains(&h.index_in(S::N)) && geo.house(*h).contains(b))
}

/// Every pair of strong links of `d`, one in a house of `kinds_a`, one in `kinds_b` (each
/// unordered pair once), with disjoint cells, where one end of each (the base) shares a house
/// of `join` that holds neither far end, and the far ends share no house of `join`.
fn link_pairs<S: Shape>(
    g: &Grid<S>,
    d: u8,
    kind_a: &str,
    kind_b: &str,
    join: &str,
) -> Res<Vec<LinkPair<S>>> {
    let n = S::N;
    let geo = g.geometry();
    let (ra, rb, rj) = (
        kind_range(kind_a, n)?,
        kind_range(kind_b, n)?,
        kind_range(join, n)?,
    );
    let links = |r: std::ops::Range<usize>| {
        r.filter_map(|i| strong_link(g, d, House::from_index_in(i, n)))
            .map(|l| (l.house, l.cells::<S>()))
            .collect::<Vec<_>>()
    };
    let same = ra == rb;
    let (la, lb) = (links(ra), links(rb));
    let where_ = g.digit_cells(d);
    let mut out = Vec::new();
    for (ha, a) in &la {
        for (hb, b) in &lb {
            if (same && ha.index_in(n) >= hb.index_in(n)) || a.intersects(*b) {
                continue;
            }
            for ea in *a {
                for eb in *b {
                    let Some(j) = shared_house(geo, ea, eb, &rj) else {
                        continue;
                    };
                    let (fa, fb) = (
                        (*a - CellSet::single(ea)).first(),
                        (*b - CellSet::single(eb)).first(),
                    );
                    let (Some(fa), Some(fb)) = (fa, fb) else {
                        continue;
                    };
                    let jc = geo.house(j);
                    if jc.contains(fa)
                        || jc.contains(fb)
                        || shared_house(geo, fa, fb, &rj).is_some()
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
                        elims: (where_ & geo.common_peers(ends)) - (*a | *b),
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
pub struct Wing<S: Shape = S9> {
    /// The pivot.
    pub pivot: Cell,
    /// The two pincers.
    pub pincers: [Cell; 2],
    /// The digit both pincers hold (`z`).
    pub z: u8,
    /// Cells with `z` seeing both pincers (and the pivot too when it holds `z`).
    pub elims: CellSet<S>,
}

/// For each pivot of `pivots` in index order, each pair of bivalue peers `a`, `b` (in index
/// order) sharing one digit `z`, whose candidates lie within the pivot's plus `z` and cover
/// the pivot's: XY-Wings for bivalue pivots, XYZ-Wings for three-candidate ones (the
/// built-in finders' search, [`for_each_wing`]).
fn wings<S: Shape>(g: &Grid<S>, pivots: CellSet<S>) -> Vec<Wing<S>> {
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

pub(super) fn register_patterns<S: Shape>(engine: &mut Engine) {
    engine.register_type_with_name::<LinkPair<S>>("LinkPair");
    engine.register_fn(
        "link_pairs",
        |g: &mut Grid<S>, d: i64, kind_a: &str, kind_b: &str, join: &str| -> Res<Array> {
            Ok(link_pairs(g, digit_in(d, S::N)?, kind_a, kind_b, join)?
                .into_iter()
                .map(Dynamic::from)
                .collect())
        },
    );
    engine.register_fn(
        "link_pairs",
        |g: &mut Grid<S>, d: i64, kind: &str| -> Res<Array> {
            let cross = match kind {
                "row" | "rows" => "col",
                "col" | "cols" | "column" | "columns" => "row",
                _ => return err(format!("link_pairs(d, kind): `{kind}` is not row or col")),
            };
            Ok(link_pairs(g, digit_in(d, S::N)?, kind, kind, cross)?
                .into_iter()
                .map(Dynamic::from)
                .collect())
        },
    );
    engine.register_fn("to_string", |p: &mut LinkPair<S>| format!("{p:?}"));
    engine.register_fn("to_debug", |p: &mut LinkPair<S>| format!("{p:?}"));
    prop!(engine, "digit", |p: &mut LinkPair<S>| p.digit as i64);
    prop!(engine, "base", |p: &mut LinkPair<S>| CellSet::<S>::single(
        p.base[0]
    ) | CellSet::single(
        p.base[1]
    ));
    prop!(engine, "ends", |p: &mut LinkPair<S>| CellSet::<S>::single(
        p.ends[0]
    ) | CellSet::single(
        p.ends[1]
    ));
    prop!(engine, "cells", |p: &mut LinkPair<S>| {
        p.base
            .into_iter()
            .chain(p.ends)
            .map(CellSet::<S>::single)
            .fold(CellSet::EMPTY, |a, b| a | b)
    });
    prop!(engine, "base_a", |p: &mut LinkPair<S>| p.base[0]);
    prop!(engine, "base_b", |p: &mut LinkPair<S>| p.base[1]);
    prop!(engine, "end_a", |p: &mut LinkPair<S>| p.ends[0]);
    prop!(engine, "end_b", |p: &mut LinkPair<S>| p.ends[1]);
    prop!(engine, "house_a", |p: &mut LinkPair<S>| p.houses[0]);
    prop!(engine, "house_b", |p: &mut LinkPair<S>| p.houses[1]);
    prop!(engine, "join", |p: &mut LinkPair<S>| p.join);
    prop!(engine, "elims", |p: &mut LinkPair<S>| p.elims);

    engine.register_type_with_name::<Wing<S>>("Wing");
    engine.register_fn("wings", |g: &mut Grid<S>, pivots: CellSet<S>| -> Array {
        wings(g, pivots).into_iter().map(Dynamic::from).collect()
    });
    engine.register_fn("wings", |g: &mut Grid<S>, pivot: Cell| -> Res<Array> {
        Ok(wings(g, CellSet::single(on::<S>(pivot)?))
            .into_iter()
            .map(Dynamic::from)
            .collect())
    });
    engine.register_fn("to_string", |w: &mut Wing<S>| format!("{w:?}"));
    engine.register_fn("to_debug", |w: &mut Wing<S>| format!("{w:?}"));
    prop!(engine, "pivot", |w: &mut Wing<S>| w.pivot);
    prop!(engine, "a", |w: &mut Wing<S>| w.pincers[0]);
    prop!(engine, "b", |w: &mut Wing<S>| w.pincers[1]);
    prop!(engine, "pincers", |w: &mut Wing<S>| CellSet::<S>::single(
        w.pincers[0]
    ) | CellSet::single(
        w.pincers[1]
    ));
    prop!(engine, "z", |w: &mut Wing<S>| w.z as i64);
    prop!(engine, "elims", |w: &mut Wing<S>| w.elims);
}

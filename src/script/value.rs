//! Turning what a script's `find` returns into [`Step`]s, naming the path of any bad field.
//!
//! `find` may return `()` (nothing found), one step, or an array of steps; a step is either a
//! `Step` from the builder or a map such as
//! `#{ eliminations: [#{cell: "r1c4", digit: 3}], explanation: "..." }`.

use rhai::{Array, Dynamic, Map};

use crate::model::Shape;
use crate::model::cell::{Cell, House};
use crate::model::grid::{Candidate, Grid};
use crate::step::{Highlight, Step};
use crate::technique::valid_difficulty;

use super::api::{StepBuilder, digit_in, parse_cell, parse_role};
use super::searched::{cell_on, house_on};

/// A malformed return value: the path of the bad field (e.g. `[0].eliminations[2].cell`) and
/// what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// Path of the bad field from the returned value (empty for the value itself).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

type Res<T> = Result<T, Malformed>;

fn bad<T>(path: &str, message: impl Into<String>) -> Res<T> {
    Err(Malformed {
        path: path.to_string(),
        message: message.into(),
    })
}

fn type_of(v: &Dynamic) -> String {
    let t = v.type_name();
    // `lapiz::model::CellSet<lapiz::model::S9>` is a CellSet
    let t = t.split('<').next().unwrap_or(t);
    let short = match t {
        "lapiz::model::Cell" => "Cell",
        "lapiz::model::House" => "House",
        "lapiz::model::CellSet" => "CellSet",
        "lapiz::model::Grid" => "Grid",
        "lapiz::script::api::StepBuilder" => "Step",
        other => other.rsplit("::").next().unwrap_or(other),
    };
    if v.is_string() {
        format!("string {v:?}")
    } else if v.is_int() || v.is_float() || v.is_bool() {
        format!("{short} {v}")
    } else {
        short.to_string()
    }
}

/// The steps a `find` result holds, stamped with the technique id and difficulty; eliminated
/// and highlighted candidates not present in `grid` are dropped, and a step left with nothing to
/// eliminate or place by that. A cell, digit or house that is not the board's is malformed.
pub fn to_steps<S: Shape>(
    value: Dynamic,
    id: &str,
    difficulty: f32,
    grid: &Grid<S>,
) -> Res<Vec<Step>> {
    let value = value.flatten();
    if value.is_unit() {
        return Ok(Vec::new());
    }
    if value.is_array() {
        let items = value.cast::<Array>();
        let mut steps = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let mut step = one_step(item.flatten(), &format!("[{i}]"), id, difficulty, S::N)?;
            if step.keep_candidates_of(grid) {
                steps.push(step);
            }
        }
        return Ok(steps);
    }
    let mut step = one_step(value, "", id, difficulty, S::N)?;
    Ok(if step.keep_candidates_of(grid) {
        vec![step]
    } else {
        Vec::new()
    })
}

fn one_step(value: Dynamic, path: &str, id: &str, difficulty: f32, n: usize) -> Res<Step> {
    let builder = if value.is::<StepBuilder>() {
        value.cast::<StepBuilder>()
    } else if value.is_map() {
        from_map(value.cast::<Map>(), path, n)?
    } else {
        let what = if path.is_empty() { "the value" } else { path };
        return bad(
            path,
            format!(
                "{what} is a {}; expected a Step (from step()), a map, an array of them or ()",
                type_of(&value)
            ),
        );
    };
    if let Some(d) = builder.difficulty
        && !valid_difficulty(d)
    {
        return bad(path, format!("difficulty {d} is not in (0, 20]"));
    }
    on_board(&builder, path, n)?;
    let mut step = Step::new(id, builder.difficulty.unwrap_or(difficulty));
    step.placements = builder.placements;
    step.eliminations = builder.eliminations;
    step.houses = builder.houses;
    // candidates the grid lacks are dropped by `to_steps`
    step.highlights = builder.highlights;
    step.explanation = builder.explanation;
    Ok(step)
}

/// Every cell, digit and house of a step on a board of size `n`.
fn on_board(b: &StepBuilder, path: &str, n: usize) -> Res<()> {
    let lists = [
        ("placements", &b.placements),
        ("eliminations", &b.eliminations),
    ];
    let highlights = b
        .highlights
        .iter()
        .enumerate()
        .map(|(i, h)| (format!("highlights[{i}].candidates"), &h.candidates));
    let all = lists
        .into_iter()
        .map(|(f, l)| (f.to_string(), l))
        .chain(highlights);
    for (field, list) in all {
        for (i, c) in list.iter().enumerate() {
            if !cell_on(c.cell, n) || !(1..=n).contains(&usize::from(c.digit)) {
                return bad(
                    &join(path, &format!("{field}[{i}]")),
                    format!("{c} is not a candidate of a {n}x{n} board"),
                );
            }
        }
    }
    for (i, h) in b.houses.iter().enumerate() {
        if !house_on(*h, n) {
            return bad(
                &join(path, &format!("houses[{i}]")),
                format!("{h} is not a house of a {n}x{n} board"),
            );
        }
    }
    Ok(())
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

const FIELDS: &str = "placements, eliminations, houses, highlights, explanation, difficulty";

fn from_map(map: Map, path: &str, n: usize) -> Res<StepBuilder> {
    let mut b = StepBuilder::default();
    for (key, value) in map {
        let p = join(path, key.as_str());
        let value = value.flatten();
        match key.as_str() {
            "placements" => b.placements = candidate_list(value, &p, n)?,
            "eliminations" => b.eliminations = candidate_list(value, &p, n)?,
            "houses" => {
                for (i, h) in array(value, &p)?.into_iter().enumerate() {
                    b.houses.push(house(h.flatten(), &format!("{p}[{i}]"))?);
                }
            }
            "highlights" => {
                for (i, h) in array(value, &p)?.into_iter().enumerate() {
                    b.highlights
                        .push(highlight(h.flatten(), &format!("{p}[{i}]"), n)?);
                }
            }
            "explanation" => {
                if !value.is_string() {
                    return bad(&p, format!("expected a string, found {}", type_of(&value)));
                }
                b.explanation = value
                    .into_immutable_string()
                    .unwrap_or_default()
                    .to_string();
            }
            "difficulty" => {
                b.difficulty = Some(if let Ok(f) = value.as_float() {
                    f
                } else if let Ok(i) = value.as_int() {
                    i as f32
                } else {
                    return bad(&p, format!("expected a number, found {}", type_of(&value)));
                })
            }
            other => return bad(&p, format!("unknown field `{other}` (a step has {FIELDS})")),
        }
    }
    Ok(b)
}

fn array(value: Dynamic, path: &str) -> Res<Array> {
    if value.is_array() {
        Ok(value.cast::<Array>())
    } else {
        bad(
            path,
            format!("expected an array, found {}", type_of(&value)),
        )
    }
}

fn candidate_list(value: Dynamic, path: &str, n: usize) -> Res<Vec<Candidate>> {
    array(value, path)?
        .into_iter()
        .enumerate()
        .map(|(i, c)| candidate(c.flatten(), &format!("{path}[{i}]"), n))
        .collect()
}

/// A candidate: `#{cell: .., digit: ..}` or a string like `3r1c4`.
fn candidate(value: Dynamic, path: &str, n: usize) -> Res<Candidate> {
    if value.is_string() {
        let s = value.into_immutable_string().unwrap_or_default();
        return s.parse::<Candidate>().or_else(|e| bad(path, e.to_string()));
    }
    if !value.is_map() {
        return bad(
            path,
            format!(
                "expected a candidate (#{{cell: \"r1c4\", digit: 3}} or \"3r1c4\"), found {}",
                type_of(&value)
            ),
        );
    }
    let map = value.cast::<Map>();
    let mut cell_v = None;
    let mut digit_v = None;
    for (k, v) in map {
        match k.as_str() {
            "cell" => cell_v = Some(v.flatten()),
            "digit" => digit_v = Some(v.flatten()),
            other => {
                return bad(
                    &join(path, other),
                    format!("unknown field `{other}` (a candidate has cell and digit)"),
                );
            }
        }
    }
    let cp = join(path, "cell");
    let cell = match cell_v {
        Some(v) => cell(v, &cp)?,
        None => return bad(&cp, "missing"),
    };
    let dp = join(path, "digit");
    let d = match digit_v {
        Some(v) => match v.as_int() {
            Ok(d) => digit_in(d, n).or_else(|_| bad(&dp, format!("digit {d} is not 1..{n}")))?,
            Err(_) => {
                return bad(
                    &dp,
                    format!("expected a digit 1..{n}, found {}", type_of(&v)),
                );
            }
        },
        None => return bad(&dp, "missing"),
    };
    Ok(Candidate::new(cell, d))
}

fn cell(value: Dynamic, path: &str) -> Res<Cell> {
    if value.is::<Cell>() {
        return Ok(value.cast::<Cell>());
    }
    if value.is_string() {
        let s = value.into_immutable_string().unwrap_or_default();
        return parse_cell(&s).or_else(|e| bad(path, e));
    }
    bad(
        path,
        format!(
            "expected a Cell or a cell name like \"r1c4\", found {}",
            type_of(&value)
        ),
    )
}

fn house(value: Dynamic, path: &str) -> Res<House> {
    if value.is::<House>() {
        return Ok(value.cast::<House>());
    }
    if value.is_string() {
        let s = value.into_immutable_string().unwrap_or_default();
        return s.parse::<House>().or_else(|e| bad(path, e.to_string()));
    }
    bad(
        path,
        format!(
            "expected a House or a house name like \"r3\", found {}",
            type_of(&value)
        ),
    )
}

/// `#{role: "Base", candidates: [..]}`.
fn highlight(value: Dynamic, path: &str, n: usize) -> Res<Highlight> {
    if !value.is_map() {
        return bad(
            path,
            format!(
                "expected #{{role: \"Base\", candidates: [..]}}, found {}",
                type_of(&value)
            ),
        );
    }
    let mut role = None;
    let mut cands = None;
    for (k, v) in value.cast::<Map>() {
        let p = join(path, k.as_str());
        let v = v.flatten();
        match k.as_str() {
            "role" => {
                if !v.is_string() {
                    return bad(&p, format!("expected a role name, found {}", type_of(&v)));
                }
                let s = v.into_immutable_string().unwrap_or_default();
                role = Some(parse_role(&s).or_else(|e| bad(&p, e))?);
            }
            "candidates" => cands = Some(candidate_list(v, &p, n)?),
            other => {
                return bad(
                    &p,
                    format!("unknown field `{other}` (a highlight has role and candidates)"),
                );
            }
        }
    }
    let Some(role) = role else {
        return bad(&join(path, "role"), "missing");
    };
    Ok(Highlight {
        role,
        candidates: cands.unwrap_or_default(),
    })
}

//! The rating table that `lapiz rate`, `lapiz generate --rate` and Python's `Rating.row` write:
//! its header, its rows (a rating, or `invalid` with the reason), tab- or comma-separated.

use std::fmt;
use std::str::FromStr;

use crate::engine::rating::Rating;
use crate::text::printable::printable;

/// The table's format.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TableFormat {
    /// Tab-separated values; controls (tabs and line breaks too) escaped.
    #[default]
    Tsv,
    /// Comma-separated values, fields quoted when needed.
    Csv,
}

impl FromStr for TableFormat {
    type Err = String;
    /// Reads `tsv` or `csv`.
    fn from_str(s: &str) -> Result<TableFormat, String> {
        match s {
            "tsv" => Ok(TableFormat::Tsv),
            "csv" => Ok(TableFormat::Csv),
            other => Err(format!("format `{other}`: expected tsv or csv")),
        }
    }
}

impl fmt::Display for TableFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableFormat::Tsv => "tsv",
            TableFormat::Csv => "csv",
        })
    }
}

const HEADER: [&str; 6] = [
    "puzzle",
    "rating",
    "level",
    "score",
    "hardest technique",
    "techniques",
];

/// A CSV field, quoted when it holds a comma, a quote or a line break. A field a spreadsheet
/// would take for a formula (starting with `=`, `+`, `-`, `@`) gets a `'` in front, quoted.
///
/// ```
/// use lapiz::tools::table::{TableFormat, row};
/// assert_eq!(row(TableFormat::Csv, &["=1+1", "a,b", "x"]), "\"'=1+1\",\"a,b\",x");
/// ```
fn csv_field(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@']) {
        return format!("\"'{}\"", s.replace('"', "\"\""));
    }
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row of `fields`, each escaped ([`printable`]) so that it stays one field.
pub fn row(format: TableFormat, fields: &[&str]) -> String {
    match format {
        TableFormat::Tsv => fields
            .iter()
            .map(|f| printable(f))
            .collect::<Vec<_>>()
            .join("\t"),
        TableFormat::Csv => fields
            .iter()
            .map(|f| csv_field(&printable(f)))
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// The technique counts as `id=count` separated by spaces.
fn counts_text(r: &Rating) -> String {
    r.techniques
        .iter()
        .map(|t| format!("{}={}", t.technique, t.count))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One puzzle's row: the rating columns (with `se_all`, Sudoku Explainer's pearl and diamond
/// after the rating), or `invalid` with the reason in the last column.
///
/// ```
/// use lapiz::tools::table::{TableFormat, rating_row};
/// let row = rating_row(TableFormat::Tsv, "3.1..", &Err("too short".into()), true);
/// assert_eq!(row, "3.1..\t\t\t\tinvalid\t\t\ttoo short");
/// ```
pub fn rating_row(
    format: TableFormat,
    puzzle: &str,
    r: &Result<Rating, String>,
    se_all: bool,
) -> String {
    let tenth = |v: Option<f32>| v.map(|v| format!("{v:.1}")).unwrap_or_default();
    let mut fields: Vec<String> = match r {
        Ok(r) => vec![
            puzzle.to_string(),
            r.rating_text(),
            r.level.name().to_string(),
            r.score.to_string(),
            r.hardest_technique.clone().unwrap_or_default(),
            counts_text(r),
        ],
        Err(e) => vec![
            puzzle.to_string(),
            String::new(),
            "invalid".to_string(),
            String::new(),
            String::new(),
            e.clone(),
        ],
    };
    if se_all {
        let (pearl, diamond) = match r {
            Ok(r) => (tenth(r.pearl), tenth(r.diamond)),
            Err(_) => (String::new(), String::new()),
        };
        fields.splice(2..2, [pearl, diamond]);
    }
    let refs: Vec<&str> = fields.iter().map(String::as_str).collect();
    row(format, &refs)
}

/// The header row's fields (with `se_all`, `pearl` and `diamond` after `rating`).
pub fn header(se_all: bool) -> Vec<&'static str> {
    let mut h = HEADER.to_vec();
    if se_all {
        h.splice(2..2, ["pearl", "diamond"]);
    }
    h
}

//! The rating table of `rate` and `generate --rate`: its format option, header and rows.

use clap::{Args, ValueEnum};

use lapiz::engine::Rating;
use lapiz::text::printable;

/// Table format of `rate` and `generate --rate`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum TableFormat {
    /// Tab-separated values.
    Tsv,
    /// Comma-separated values (fields quoted when needed).
    Csv,
}

/// The table format option of `rate` and `generate --rate`.
#[derive(Args)]
pub struct TableArgs {
    /// Output format of the rating table.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: TableFormat,
}

const HEADER: [&str; 6] = [
    "puzzle",
    "rating",
    "level",
    "score",
    "hardest technique",
    "techniques",
];

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn row(format: TableFormat, fields: &[&str]) -> String {
    match format {
        // Controls (tabs and line breaks too) are escaped, so a field stays one field.
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

/// One output row: the rating columns (with `se_all`, pearl and diamond after the rating), or
/// `invalid` with the reason in the last column.
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

/// The header row's fields (with `se_all`, pearl and diamond after the rating).
pub fn header(se_all: bool) -> Vec<&'static str> {
    let mut h = HEADER.to_vec();
    if se_all {
        h.splice(2..2, ["pearl", "diamond"]);
    }
    h
}

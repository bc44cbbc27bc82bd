//! The catalogue of built-ins: every built-in technique is either in the default pipeline or
//! listed as `off` (or `se`: only in the `se` pipeline) in docs/techniques.md, and the
//! documentation's table lists every one.

use std::collections::BTreeSet;

use lapiz::Pipeline;
use lapiz::technique::builtins;

/// `(position, id)` of every row of the table in docs/techniques.md.
fn documented() -> Vec<(String, String)> {
    let text = include_str!("../docs/techniques.md");
    text.lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('|').map(str::trim).collect();
            if cols.len() < 4 || !cols[2].starts_with('`') {
                return None;
            }
            Some((cols[1].to_string(), cols[2].trim_matches('`').to_string()))
        })
        .collect()
}

#[test]
fn every_builtin_is_in_the_pipeline_or_documented_as_off() {
    let pipeline: Vec<String> = Pipeline::default_pipeline()
        .techniques
        .iter()
        .map(|t| t.id().to_string())
        .collect();
    let docs = documented();
    let off: BTreeSet<&str> = docs
        .iter()
        .filter(|(pos, _)| pos == "off" || pos == "se")
        .map(|(_, id)| id.as_str())
        .collect();
    for t in builtins() {
        let id = t.id();
        let on = pipeline.iter().any(|p| p == id);
        assert!(
            on != off.contains(id),
            "{id}: in the default pipeline: {on}, documented as off: {}",
            off.contains(id)
        );
    }
}

#[test]
fn the_table_follows_the_default_pipeline() {
    let pipeline: Vec<String> = Pipeline::default_pipeline()
        .techniques
        .iter()
        .map(|t| t.id().to_string())
        .collect();
    let numbered: Vec<(String, String)> = documented()
        .into_iter()
        .filter(|(pos, _)| pos != "off" && pos != "se")
        .collect();
    let ids: Vec<&String> = numbered.iter().map(|(_, id)| id).collect();
    assert_eq!(ids, pipeline.iter().collect::<Vec<_>>());
    for (i, (pos, id)) in numbered.iter().enumerate() {
        assert_eq!(pos, &(i + 1).to_string(), "{id}");
    }
}

#[test]
fn techniques_marked_se_are_in_the_se_pipeline() {
    let se: Vec<String> = Pipeline::se_pipeline()
        .techniques
        .iter()
        .map(|t| t.id().to_string())
        .collect();
    for (pos, id) in documented() {
        if pos == "se" {
            assert!(
                se.contains(&id),
                "{id} is marked se but not in the se pipeline"
            );
        }
    }
    // Every technique of the se pipeline is a built-in.
    let builtin: Vec<String> = builtins().iter().map(|t| t.id().to_string()).collect();
    for id in &se {
        assert!(builtin.contains(id), "{id}");
    }
}

//! The catalogue of built-ins: the table of their metadata (`lapiz::technique::CATALOGUE`)
//! lists every built-in once, in `builtins()` order, and is what they answer; every built-in
//! is either in the default pipeline or off by default with a reason; and the documentation's
//! table lists every one with the catalogue's name, difficulty, codes and `off` (or `se`: off by
//! default, in the `se` pipeline).

use std::collections::BTreeSet;

use lapiz::Pipeline;
use lapiz::technique::{CATALOGUE, builtins};

/// `(pipeline, id)` of every row of the table in docs/techniques.md: `default` (in the default
/// pipeline, in its order), `off` or `se`.
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
        .techniques()
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
        .techniques()
        .iter()
        .map(|t| t.id().to_string())
        .collect();
    let in_default: Vec<(String, String)> = documented()
        .into_iter()
        .filter(|(pos, _)| pos != "off" && pos != "se")
        .collect();
    let ids: Vec<&String> = in_default.iter().map(|(_, id)| id).collect();
    assert_eq!(ids, pipeline.iter().collect::<Vec<_>>());
    for (pos, id) in &in_default {
        assert_eq!(pos, "default", "{id}: `default`, `off` or `se`");
    }
}

/// Ids of the default pipeline, in order.
fn default_ids() -> Vec<String> {
    Pipeline::default_pipeline()
        .techniques()
        .iter()
        .map(|t| t.id().to_string())
        .collect()
}

#[test]
fn the_catalogue_lists_every_builtin_once_in_order() {
    let ids: Vec<&str> = CATALOGUE.iter().map(|i| i.id).collect();
    let unique: BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "an id twice in the catalogue");
    let all = builtins();
    let builtin_ids: Vec<&str> = all.iter().map(|t| t.id()).collect();
    assert_eq!(builtin_ids, ids, "builtins() and the catalogue differ");
    for (t, entry) in all.iter().zip(CATALOGUE) {
        let id = entry.id;
        assert_eq!(
            t.info(),
            Some(entry),
            "{id}: its info is not its catalogue entry"
        );
        // what a built-in answers is its entry (no method overrides it with something else)
        assert_eq!(t.name(), entry.name, "{id}");
        assert_eq!(t.difficulty(), entry.difficulty, "{id}");
        assert_eq!(t.library_codes(), entry.library_codes(), "{id}");
        assert_eq!(t.needs_uniqueness(), entry.needs_uniqueness, "{id}");
        assert_eq!(
            lapiz::technique::TechniqueInfo::lookup(id),
            Some(entry),
            "{id}"
        );
    }
}

#[test]
fn every_builtin_is_in_the_default_pipeline_or_off_with_a_reason() {
    let pipeline = default_ids();
    for entry in CATALOGUE {
        let on = pipeline.iter().any(|p| p == entry.id);
        match entry.off_by_default {
            None => assert!(
                on,
                "{}: not in the default pipeline, and no reason",
                entry.id
            ),
            Some(reason) => {
                assert!(!on, "{}: in the default pipeline, yet off", entry.id);
                assert!(!reason.trim().is_empty(), "{}: an empty reason", entry.id);
            }
        }
    }
    // and the default pipeline holds only built-ins
    for id in &pipeline {
        assert!(
            CATALOGUE.iter().any(|e| e.id == id),
            "{id} is not catalogued"
        );
    }
}

#[test]
fn the_documentation_table_matches_the_catalogue() {
    let text = include_str!("../docs/techniques.md");
    let mut rows = 0;
    for line in text.lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        if cols.len() < 7 || !cols[2].starts_with('`') {
            continue;
        }
        rows += 1;
        let id = cols[2].trim_matches('`');
        let entry = CATALOGUE
            .iter()
            .find(|e| e.id == id)
            .unwrap_or_else(|| panic!("docs/techniques.md lists {id}, not a built-in"));
        assert_eq!(
            cols[1] == "off" || cols[1] == "se",
            entry.off_by_default.is_some(),
            "{id}: off"
        );
        assert_eq!(cols[3], entry.name, "{id}: name");
        // the lowest rating, then perhaps how steps rate higher ("6.6 plus length")
        let d = format!("{:.1}", entry.difficulty);
        assert!(
            cols[4] == d || cols[4].starts_with(&format!("{d} ")),
            "{id}: difficulty {} documented, {d} catalogued",
            cols[4]
        );
        // every library code is documented (the documentation may name HoDoKu codes the
        // library has no case of, as for forcing chains, that the technique does not declare)
        let documented: Vec<&str> = cols[5].split(", ").collect();
        for code in entry.codes {
            assert!(
                documented.contains(code),
                "{id}: code {code} not documented"
            );
        }
    }
    assert_eq!(
        rows,
        CATALOGUE.len(),
        "docs/techniques.md lists every built-in once"
    );
}

#[test]
fn techniques_marked_se_are_in_the_se_pipeline() {
    let se: Vec<String> = Pipeline::se_pipeline()
        .techniques()
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
    for id in &se {
        assert!(
            CATALOGUE.iter().any(|e| e.id == id),
            "{id} is not catalogued"
        );
    }
}

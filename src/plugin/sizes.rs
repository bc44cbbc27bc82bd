//! Plugins and board sizes (ABI version 3): the board a sized search reads, and which plugin
//! techniques a size leaves out, and why.

use std::sync::Arc;

use lapiz_plugin_api::abi::{LP_ABI_SIZED, LP_MAX_CELLS, LpBoard, lp_size};

use super::{HOSTED, LOADED, Plugin};
use crate::model::grid::Grid;
use crate::model::{Bits, Shape};
use crate::technique::{Origin, Technique};

/// The board sizes lapiz runs, as `LpTechnique::sizes` bits.
pub(super) const SIZES_LAPIZ_RUNS: u32 = {
    let mut mask = 0;
    let mut i = 0;
    while i < crate::model::Layout::SIZES.len() {
        mask |= lp_size(crate::model::Layout::SIZES[i] as u32);
        i += 1;
    }
    mask
};

/// The board of a sized search: the size, the box shape, values and candidate masks.
pub(super) fn board_of<S: Shape>(grid: &Grid<S>) -> LpBoard {
    let layout = grid.geometry().layout();
    let mut board = LpBoard {
        n: S::N as u32,
        box_rows: layout.box_rows() as u32,
        box_cols: layout.box_cols() as u32,
        cells: S::CELLS as u32,
        candidates: [0; LP_MAX_CELLS as usize],
        values: [0; LP_MAX_CELLS as usize],
    };
    board.values[..S::CELLS].copy_from_slice(grid.value_slice());
    for i in 0..S::CELLS {
        board.candidates[i] = grid.candidates(S::cell(i)).low_u32();
    }
    board
}

/// `9x9`, `9x9 and 16x16`, `4x4, 6x6 and 9x9`: the sizes of a `sizes` mask.
pub(super) fn sizes_list(sizes: u32) -> String {
    let names: Vec<String> = crate::model::Layout::SIZES
        .iter()
        .filter(|&&n| sizes & lp_size(u32::from(n)) != 0)
        .map(|n| format!("{n}x{n}"))
        .collect();
    match names.split_last() {
        None => "no".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Plugin techniques of a pipeline left out of a size: one entry per plugin (in pipeline
/// order), naming its techniques that do not run on `n x n` boards and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The library's path, as loaded.
    pub path: String,
    /// The name the plugin gives itself.
    pub plugin: String,
    /// The plugin ABI version it was built for.
    pub abi_version: u32,
    /// The size left out.
    pub n: usize,
    /// The ids of its techniques left out.
    pub techniques: Vec<String>,
    /// Why, in words: `runs on 9x9 only` (ABI 1 and 2), `runs on 9x9 and 16x16 only`.
    pub why: String,
}

impl std::fmt::Display for Skipped {
    /// The note the command line prints: ``plugin `x` (ABI v2) runs on 9x9 only; skipped on
    /// this 16x16 puzzle``.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.n;
        write!(f, "plugin `{}` (ABI v{}) ", self.plugin, self.abi_version)?;
        if self.abi_version >= LP_ABI_SIZED {
            write!(f, "{}: {}", self.techniques.join(", "), self.why)?;
        } else {
            f.write_str(&self.why)?;
        }
        write!(f, "; skipped on this {n}x{n} puzzle")
    }
}

/// The plugin techniques of `techniques` (a pipeline's) that do not run on `n x n` boards,
/// grouped by plugin and reason, for the command line's note and `lapiz techniques --size`.
/// Techniques of plugins that are not loaded (other crates' techniques) are not listed.
pub fn skipped_on(techniques: &[Box<dyn Technique>], n: usize) -> Vec<Skipped> {
    let loaded: Vec<Arc<Plugin>> = {
        let a = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        let b = HOSTED.lock().unwrap_or_else(|e| e.into_inner());
        a.iter()
            .map(|(_, p)| p.clone())
            .chain(b.iter().map(|(_, _, p)| p.clone()))
            .collect()
    };
    let mut out: Vec<Skipped> = Vec::new();
    for t in techniques {
        if t.runs_on(n) {
            continue;
        }
        let Origin::Plugin(path) = t.origin() else {
            continue;
        };
        let Some((plugin, d)) = loaded.iter().find_map(|p| {
            (p.path == path)
                .then(|| p.techniques.iter().find(|d| d.id == t.id()).map(|d| (p, d)))
                .flatten()
        }) else {
            continue;
        };
        let why = if plugin.abi_version < LP_ABI_SIZED {
            "runs on 9x9 only".to_string()
        } else {
            format!("runs on {} only", sizes_list(d.sizes))
        };
        match out.iter_mut().find(|s| s.path == path && s.why == why) {
            Some(s) => s.techniques.push(d.id.clone()),
            None => out.push(Skipped {
                path,
                plugin: plugin.name.clone(),
                abi_version: plugin.abi_version,
                n,
                techniques: vec![d.id.clone()],
                why,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_named_in_words_and_only_lapiz_sizes_count() {
        assert_eq!(sizes_list(lp_size(9)), "9x9");
        assert_eq!(sizes_list(lp_size(9) | lp_size(16)), "9x9 and 16x16");
        assert_eq!(
            sizes_list(lp_size(4) | lp_size(6) | lp_size(25) | lp_size(10)),
            "4x4, 6x6 and 25x25"
        );
        assert_eq!(sizes_list(0), "no");
        assert_eq!(SIZES_LAPIZ_RUNS.count_ones(), 7);
        assert_eq!(SIZES_LAPIZ_RUNS & lp_size(10), 0);
        let skipped = Skipped {
            path: "p.so".into(),
            plugin: "p".into(),
            abi_version: 3,
            n: 6,
            techniques: vec!["a".into(), "b".into()],
            why: "runs on 16x16 only".into(),
        };
        assert_eq!(
            skipped.to_string(),
            "plugin `p` (ABI v3) a, b: runs on 16x16 only; skipped on this 6x6 puzzle"
        );
    }
}

//! The board sizes a script declares it runs on (`const SIZES = [9];`).

use rhai::Dynamic;

use crate::model::Layout;

/// Sizes as people write them: `9x9, 16x16`.
pub fn sizes_text(sizes: &[usize]) -> String {
    let names: Vec<String> = sizes.iter().map(|n| format!("{n}x{n}")).collect();
    names.join(", ")
}

/// The sizes a script's `SIZES` declares: a size or an array of sizes lapiz reads (4, 6, 8,
/// 9, 12, 16, 25), sorted and without repeats.
pub(super) fn declared_sizes(v: &Dynamic) -> Result<Vec<usize>, String> {
    const WHAT: &str =
        "SIZES must be a board size or an array of them (4, 6, 8, 9, 12, 16, 25), e.g. [9]";
    let items: Vec<Dynamic> = if v.is_array() {
        v.clone().cast::<rhai::Array>()
    } else {
        vec![v.clone()]
    };
    let mut sizes = Vec::new();
    for item in items {
        let n = item.as_int().map_err(|_| format!("{WHAT}, found {item}"))?;
        let size = u8::try_from(n)
            .ok()
            .filter(|&n| Layout::SIZES.contains(&n))
            .ok_or_else(|| format!("{WHAT}; {n} is not a size lapiz reads"))?;
        sizes.push(usize::from(size));
    }
    if sizes.is_empty() {
        return Err(format!("{WHAT}; the array is empty"));
    }
    sizes.sort_unstable();
    sizes.dedup();
    Ok(sizes)
}

#[cfg(test)]
mod tests {
    use crate::script::ScriptError;
    use crate::script::tests::script;
    use crate::technique::Technique;
    use crate::technique::context::Context;

    #[test]
    fn sizes_are_declared_or_every_size() {
        let every = script("fn find(grid) { () }").unwrap();
        assert_eq!(every.sizes(), None);
        assert!(
            crate::model::Layout::SIZES
                .iter()
                .all(|&n| every.runs_on(n.into()))
        );
        let nine = script("const SIZES = [9, 9];\nfn find(grid) { () }").unwrap();
        assert_eq!(nine.sizes(), Some(&[9][..]));
        assert!(nine.runs_on(9) && !nine.runs_on(16) && !nine.runs_on(4));
        let small = script("const SIZES = [6, 4];\nfn find(grid) { () }").unwrap();
        assert_eq!(small.sizes(), Some(&[4, 6][..]));
        let one = script("const SIZES = 16;\nfn find(grid) { () }").unwrap();
        assert_eq!(one.sizes(), Some(&[16][..]));
        for (decl, says) in [
            ("const SIZES = [10];", "10 is not a size lapiz reads"),
            ("const SIZES = [];", "the array is empty"),
            ("const SIZES = \"all\";", "found all"),
            ("const SIZES = [9, \"x\"];", "found x"),
        ] {
            let e = script(&format!("{decl}\nfn find(grid) {{ () }}")).unwrap_err();
            assert!(matches!(e, ScriptError::Declaration { .. }), "{e}");
            let e = e.to_string();
            assert!(e.contains("t.rhai:4") && e.contains("SIZES must be"), "{e}");
            assert!(e.contains(says), "{decl}: {e}");
        }
    }

    #[test]
    fn a_script_not_of_a_size_finds_nothing_there_and_says_why() {
        let t =
            script("const SIZES = [16];\nfn find(grid) { step().place(grid.empty().first, 1) }")
                .unwrap();
        let grid = crate::text::nine::parse_puzzle(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        )
        .unwrap();
        assert!(crate::technique::find_all(&t, &grid).unwrap().is_empty());
        let ctx = Context::new(&grid);
        let e = t
            .find_sized(ctx.sized(), &mut |_| std::ops::ControlFlow::Continue(()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("runs on 16x16 boards only (its SIZES), not 9x9"),
            "{e}"
        );
    }
}

//! A bigger stack than WebAssembly's default 1 MiB: the brute-force search of a 25x25 board
//! and Rhai's recursion run on it (natively they switch to stacks of their own, which the
//! WebAssembly build cannot).

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.starts_with("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size=16777216");
    }
    println!("cargo:rerun-if-changed=build.rs");
}

fn main() {
    let engine = rhai::Engine::new();
    for (label, script) in [
        ("fn no grid, k=1", "fn run(n) { let k = 0; for i in 0..n { k = 1; } k }  run(N)"),
        ("top level k=1", "let k = 0; for i in 0..N { k = 1; } k"),
        ("top level empty", "let k = 0; for i in 0..N { } k"),
        ("top level while", "let k = 0; while k < N { k += 1; } k"),
        ("top level k+=1", "let k = 0; for i in 0..N { k += 1; } k"),
    ] {
        let s = script.replace("N", "1000000");
        let ast = engine.compile(&s).unwrap();
        let t = std::time::Instant::now();
        let _: i64 = engine.eval_ast(&ast).unwrap();
        println!("{label:<20} {:>8.1} ns/iter", t.elapsed().as_secs_f64() * 1e9 / 1e6);
    }
}

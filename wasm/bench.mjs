// Times the WebAssembly package under Node, one thread: `solveRon` of a puzzle file's first N
// puzzles (docs/performance.md, "WebAssembly"). Run after web/build:
//   node wasm/bench.mjs FILE [N]
// and compare with the native binary on the same puzzles:
//   lapiz solve --file FIRST_N --format ron --threads 1 > /dev/null
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

import { pkg, puzzles } from "./tests/common.mjs";

const [file, n = "200"] = process.argv.slice(2);
if (!file) {
  console.error("usage: node wasm/bench.mjs FILE [N]");
  process.exit(2);
}
const lapiz = createRequire(import.meta.url)(join(pkg, "node/lapiz.js"));
const list = puzzles(readFileSync(file, "utf8"), Number(n));
const start = performance.now();
let bytes = 0;
for (const p of list) bytes += lapiz.solveRon(p).length;
const ms = performance.now() - start;
console.log(`${list.length} puzzles in ${(ms / 1000).toFixed(2)} s (${(ms / list.length).toFixed(1)} ms a puzzle, ${bytes} bytes of RON)`);

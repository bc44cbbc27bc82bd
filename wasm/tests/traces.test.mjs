// The WebAssembly build solves as the native one: the RON traces of top1465's first 50
// puzzles (and the 16x16 puzzles of the shared data) byte for byte, against `lapiz solve
// --format ron` of the native binary ($LAPIZ_BIN, web/test builds it).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";

import { pkg, puzzles, readData } from "./common.mjs";

const lapiz = createRequire(import.meta.url)(join(pkg, "node/lapiz.js"));

function nativeBin() {
  const bin = process.env.LAPIZ_BIN;
  if (!bin) throw new Error("LAPIZ_BIN names no native lapiz binary (web/test sets it)");
  return bin;
}

function native(bin, puzzle) {
  return execFileSync(bin, ["solve", puzzle, "--format", "ron"], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
}

test("top1465's first 50: the same RON traces as the native build", () => {
  const text = readData("puzzles/top1465.txt");
  if (text === null) return;
  const bin = nativeBin();
  const list = puzzles(text, 50);
  assert.equal(list.length, 50);
  for (const [i, p] of list.entries()) {
    const wasm = lapiz.solveRon(p);
    assert.ok(wasm.length > 0);
    assert.equal(wasm, native(bin, p), `puzzle ${i + 1}: ${p}`);
  }
});

test("16x16: the same RON traces as the native build", () => {
  const file = readData("puzzles/16x16/grid-a-1-16.txt");
  if (file === null) return;
  const text = file
    .split("\n")
    .filter((l) => !l.startsWith("#"))
    .join("\n");
  const bin = nativeBin();
  const wasm = lapiz.solveRon(text);
  assert.equal(wasm, native(bin, text));
});

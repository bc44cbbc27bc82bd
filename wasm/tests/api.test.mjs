// The package's exports: results, sizes, pencil marks, scripts, and lapiz's errors as exceptions.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { pkg, root } from "./common.mjs";

const lapiz = createRequire(import.meta.url)(join(pkg, "node/lapiz.js"));
const EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

test("read says the size, box and clues of any size", () => {
  const nine = lapiz.read(EASY);
  assert.deepEqual([nine.size, nine.box, nine.clues, nine.solved], [9, [3, 3], 32, false]);
  const four = lapiz.read("3.1...2.2....4..");
  assert.deepEqual([four.size, four.box], [4, [2, 2]]);
  const six = lapiz.read("1" + ".".repeat(35), { box: [3, 2] });
  assert.deepEqual([six.size, six.box], [6, [3, 2]]);
});

test("errors are exceptions with lapiz's messages", () => {
  assert.throws(() => lapiz.solve("12x"), (e) => e instanceof Error && /cannot read the puzzle/.test(e.message));
  assert.throws(() => lapiz.hint(EASY, "loud"), /level `loud`: expected full or nudge/);
  assert.throws(() => lapiz.solve(EASY, { pipeline: "Pipeline(techniques: [Technique(\"x\")])" }), /x/);
  assert.throws(() => lapiz.solve(EASY, { colour: "red" }), /options: unknown field `colour`/);
  assert.throws(() => lapiz.count(EASY, 0), /limit must be at least 1/);
  assert.throws(() => lapiz.generate({ seed: 1, size: 10 }), /size 10 is not a size/);
  // an invalid puzzle: read, but with many solutions
  assert.throws(() => lapiz.rate(".".repeat(81)), /invalid puzzle: the puzzle has more than one solution/);
});

test("solve gives the trace as data, RON, text and the page", () => {
  const trace = lapiz.solve(EASY);
  assert.equal(trace.outcome, "Solved");
  assert.equal(trace.solution.length, 81);
  const first = trace.entries[0].Step;
  assert.ok(first.explanation.length > 0 && first.technique.length > 0);
  assert.equal(trace.summary.steps, trace.entries.filter((e) => "Step" in e).length);
  assert.match(lapiz.solveRon(EASY), /^#!\[enable\(unwrap_variant_newtypes\)\]\nTrace\(\n\s+puzzle: "/);
  assert.match(lapiz.solveText(EASY), /Solved/i);
  const page = lapiz.solveHtml(EASY);
  assert.match(page, /^<!DOCTYPE html>/i);
  assert.match(page, /<svg/);
});

test("a time limit stops a solve with the steps so far", () => {
  const trace = lapiz.solve(EASY, { timeLimitMs: 0 });
  assert.deepEqual(Object.keys(trace.outcome), ["Stopped"]);
  assert.equal(trace.outcome.Stopped.cause, "TimeLimit");
});

test("hints: a nudge names the technique and removes nothing; full gives the step", () => {
  const nudge = lapiz.hint(EASY, "nudge");
  assert.equal(nudge.level, "nudge");
  assert.ok(nudge.technique && nudge.name && nudge.text);
  assert.equal(nudge.step.eliminations, undefined);
  const full = lapiz.hint(EASY, "full");
  assert.equal(full.technique, nudge.technique);
  assert.ok(full.step.placements || full.step.eliminations);
  assert.equal(lapiz.hint(lapiz.solve(EASY).solution, "full").text, "The grid is already solved.");
});

test("a hint on a grid with pencil marks takes the marks as they are", () => {
  // the start's pencil-mark grid, as `lapiz solve` prints it, with a mark of r1c2 (4578)
  // that is not its solution removed
  const trace = lapiz.solve(EASY);
  const drop = [..."4578"].find((d) => d !== trace.solution[1]);
  const grid = lapiz
    .solveText(EASY, { stepLimit: 0 })
    .split("\n")
    .filter((l) => /^[|.:']/.test(l))
    .join("\n");
  assert.match(grid, /^\.-+/);
  const marked = grid.replace(/^(\|\s*45\s+)4578/m, (_, lead) => lead + "4578".replace(drop, " "));
  assert.notEqual(marked, grid);
  // the plain grid starts from the givens; the marked one from its marks
  assert.equal(lapiz.solve(grid).start, undefined);
  const start = lapiz.solve(marked).start;
  assert.ok(start && start.length > 81, start);
  const h = lapiz.hint(marked, "full");
  assert.ok(h.technique && h.text, JSON.stringify(h));
  assert.equal(lapiz.solve(marked).solution, trace.solution);
});

test("rate gives ER/EP/ED on 9x9 and lapiz's scale on every size", () => {
  const r = lapiz.rate(EASY);
  assert.equal(typeof r.er, "number");
  assert.equal(typeof r.ep, "number");
  assert.equal(typeof r.ed, "number");
  assert.ok(["easy", "medium"].includes(r.level));
  assert.ok(r.solved && r.score > 0 && r.steps > 0);
});

test("count, canonical and generate agree with each other", () => {
  assert.equal(lapiz.count(EASY), 1);
  assert.equal(lapiz.count(".".repeat(81), 10), 10);
  const g = lapiz.generate({ seed: 3, symmetry: "rot180" });
  assert.equal(lapiz.count(g.puzzle), 1);
  assert.equal(lapiz.canonical(g.puzzle).length, 81);
  // the same seed gives the same puzzle
  assert.equal(lapiz.generate({ seed: 3, symmetry: "rot180" }).puzzle, g.puzzle);
  const rated = lapiz.generate({ seed: 5, level: "hard" });
  assert.equal(rated.rating.level, "hard");
  const needs = lapiz.generate({ seed: 2, requires: ["x-wing"], attempts: 2000 });
  assert.ok(needs.rating.techniques.some((t) => t.technique === "x-wing"));
});

test("16x16: read, solve and generate", () => {
  const g = lapiz.generate({ seed: 1, size: 16 });
  assert.equal(lapiz.read(g.puzzle).size, 16);
  assert.equal(lapiz.count(g.puzzle), 1);
  const trace = lapiz.solve(g.puzzle);
  assert.equal(trace.outcome, "Solved");
  assert.equal(lapiz.canonical(g.puzzle).length, 256);
});

test("a Rhai script technique runs in WebAssembly", () => {
  const source = readFileSync(join(root, "techniques/x-wing.rhai"), "utf8");
  const trace = lapiz.solve(EASY, {
    pipeline: 'Pipeline(name: "singles", techniques: [Technique("naked-single")])',
    scripts: [{ name: "x-wing.rhai", source }],
  });
  assert.ok(trace.techniques.includes("x-wing-script"), trace.techniques.join(" "));
  assert.throws(
    () => lapiz.solve(EASY, { scripts: [{ name: "bad.rhai", source: "fn find( {" }] }),
    /bad\.rhai/,
  );
});

test("the TypeScript types name each result", () => {
  const dts = readFileSync(join(pkg, "web/lapiz.d.ts"), "utf8");
  for (const [fn, type] of [
    ["read", "PuzzleInfo"],
    ["solve", "Trace"],
    ["hint", "Hint"],
    ["rate", "Rating"],
    ["generate", "Generated"],
  ]) {
    assert.match(dts, new RegExp(`export function ${fn}\\([^)]*\\): ${type};`), fn);
  }
  for (const line of dts.split("\n").filter((l) => l.startsWith("export function"))) {
    assert.doesNotMatch(line, /\bany\b/, line);
  }
});

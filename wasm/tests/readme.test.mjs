// The package README's Node example runs as written, from a project that installed the package.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { pkg, project } from "./common.mjs";

/** The README's code blocks of a language, in order. */
function blocks(readme, lang) {
  const found = [];
  const re = new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g");
  for (const m of readme.matchAll(re)) found.push(m[1]);
  return found;
}

test("the README's Node example runs and prints what its comments say", () => {
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const [example] = blocks(readme, "js");
  assert.ok(example.includes('from "lapiz"'), "the first example imports lapiz");
  const dir = project();
  writeFileSync(join(dir, "example.mjs"), example);
  const out = execFileSync(process.execPath, ["example.mjs"], { cwd: dir, encoding: "utf8" });
  const lines = out.trim().split("\n");
  assert.equal(lines[0], "Solved");
  assert.equal(lines.length, 10, out);
  assert.equal(lines[5], "1.2 1.2 1.2 easy");
  assert.equal(lines[6], "1");
  assert.equal(lines[7], "81");
  assert.match(lines[8], /^[.1-9]{81} medium$/);
  assert.match(lines[9], /cannot read the puzzle/);
});

test("require(\"lapiz\") loads the same functions", () => {
  const dir = project();
  writeFileSync(
    join(dir, "example.cjs"),
    'const { count, version } = require("lapiz");\n' +
      'console.log(version(), count("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."));\n',
  );
  const out = execFileSync(process.execPath, ["example.cjs"], { cwd: dir, encoding: "utf8" });
  assert.match(out.trim(), /^\d+\.\d+\.\d+ 1$/);
});

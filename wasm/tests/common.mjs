// Shared by the package's Node tests: where the package, the shared data and the native
// binary are (web/test sets them).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The built package (web/build): $LAPIZ_PKG, else target/web/pkg. */
export const pkg = resolve(process.env.LAPIZ_PKG ?? join(root, "target/web/pkg"));

/** A fresh folder whose node_modules/lapiz is the built package, as after `npm install`. */
export function project() {
  const dir = mkdtempSync(join(tmpdir(), "lapiz-js-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(pkg, join(dir, "node_modules", "lapiz"), "dir");
  return dir;
}

/**
 * The text of a shared data file, or null with a message saying the test is skipped; with
 * LAPIZ_REQUIRE_DATA set (CI, where the data is), a missing file fails instead.
 */
export function readData(relative) {
  const base = process.env.LAPIZ_DATA ?? join(root, "../shared/data");
  const path = join(base, relative);
  if (existsSync(path)) return readFileSync(path, "utf8");
  if (process.env.LAPIZ_REQUIRE_DATA) throw new Error(`${path} not found and LAPIZ_REQUIRE_DATA is set`);
  console.log(`skipping: ${path} not found; set LAPIZ_DATA to the shared data folder to run this test`);
  return null;
}

/** The first `limit` puzzles of a puzzle file's text (comments and blank lines skipped). */
export function puzzles(text, limit) {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .slice(0, limit);
}

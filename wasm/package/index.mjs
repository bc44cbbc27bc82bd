// The package's ES module for Node: the CommonJS glue loads the WebAssembly module at import.
import lapiz from "./lapiz.js";

export const {
  version,
  read,
  solve,
  solveRon,
  solveText,
  solveHtml,
  hint,
  rate,
  count,
  canonical,
  generate,
} = lapiz;

// Bundles the example page into dist/ (never committed): app.js with @vaultd/client and viem,
// the prover's worker, and the prover's assets (wasm, wasm_exec.js, dev keys) from the package.
import { build } from "esbuild";
import { cpSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "dist");
const pkg = dirname(createRequire(import.meta.url).resolve("@vaultd/client/package.json"));
mkdirSync(out, { recursive: true });
const common = { bundle: true, format: "esm", target: "es2022", minify: true, sourcemap: false, logLevel: "warning" };
await build({ ...common, entryPoints: [join(here, "app.ts")], outfile: join(out, "app.js") });
await build({ ...common, entryPoints: [join(pkg, "dist/prover-worker.js")], outfile: join(out, "prover-worker.js") });
cpSync(join(pkg, "dist/assets"), join(out, "assets"), { recursive: true });
cpSync(join(here, "index.html"), join(out, "index.html"));
console.log(`example built in ${out}`);

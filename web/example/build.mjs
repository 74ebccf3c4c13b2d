// Bundles the example pages into dist/ (never committed): app.js (the journey) and redeem.js (the
// redeem page a card's link opens), each with @vaultd/client, viem and qrcode,
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
for (const page of ["app", "redeem"]) {
  await build({ ...common, entryPoints: [join(here, `${page}.ts`)], outfile: join(out, `${page}.js`) });
}
await build({ ...common, entryPoints: [join(pkg, "dist/prover-worker.js")], outfile: join(out, "prover-worker.js") });
cpSync(join(pkg, "dist/assets"), join(out, "assets"), { recursive: true });
for (const file of ["index.html", "redeem.html", "app.css"]) cpSync(join(here, file), join(out, file));
console.log(`example built in ${out}`);

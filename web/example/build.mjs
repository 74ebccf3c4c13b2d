// Bundles the example pages into dist/ (never committed): app.js (the journey) and redeem.js (the
// redeem page a card's link opens), each with @vaultd/client, viem and qrcode,
// the prover's and the proof of work's workers, and the prover's assets (wasm, wasm_exec.js, the dev proving key, their .br and .gz
// copies) from the package; then a brotli (.br) and a gzip (.gz) copy beside each bundle and
// page, for serve.mjs to send with Content-Encoding.
import { build } from "esbuild";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "dist");
const pkg = dirname(createRequire(import.meta.url).resolve("@vaultd/client/package.json"));
rmSync(out, { recursive: true, force: true }); // no file of an older build left behind
mkdirSync(out, { recursive: true });
const common = { bundle: true, format: "esm", target: "es2022", minify: true, sourcemap: false, logLevel: "warning" };
for (const page of ["app", "redeem"]) {
  await build({ ...common, entryPoints: [join(here, `${page}.ts`)], outfile: join(out, `${page}.js`) });
}
for (const worker of ["prover-worker", "pow-worker"]) {
  await build({ ...common, entryPoints: [join(pkg, `dist/${worker}.js`)], outfile: join(out, `${worker}.js`) });
}
cpSync(join(pkg, "dist/assets"), join(out, "assets"), { recursive: true });
for (const file of ["index.html", "redeem.html", "app.css"]) cpSync(join(here, file), join(out, file));
for (const file of ["app.js", "redeem.js", "prover-worker.js", "pow-worker.js", "index.html", "redeem.html", "app.css"]) {
  const data = readFileSync(join(out, file));
  writeFileSync(join(out, `${file}.br`), brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
  writeFileSync(join(out, `${file}.gz`), gzipSync(data, { level: 9 }));
}
console.log(`example built in ${out}`);

// Bundles the example pages into dist/ (never committed): app.js (the journey, with viem) and
// redeem.js (the redeem page a card's link opens, kept small: no viem), each with @vaultd/client
// and qrcode, the QR decoder in a chunk of its own (chunk-<hash>.js, fetched to scan), the prover's and the proof of work's workers, and the prover's assets (wasm, wasm_exec.js, the dev proving key, their .br and .gz
// copies) from the package; then a brotli (.br) and a gzip (.gz) copy beside each bundle and
// page, for serve.mjs to send with Content-Encoding.
import { build } from "esbuild";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
// Each page on its own (no chunks shared between them: a request each), split where it loads
// code on demand: the QR decoder, fetched when a person scans, is a chunk of its own.
for (const page of ["app", "redeem"]) {
  await build({ ...common, splitting: true, entryPoints: [join(here, `${page}.ts`)], outdir: out, chunkNames: "chunk-[hash]" });
}
for (const worker of ["prover-worker", "pow-worker"]) {
  await build({ ...common, entryPoints: [join(pkg, `dist/${worker}.js`)], outfile: join(out, `${worker}.js`) });
}
cpSync(join(pkg, "dist/assets"), join(out, "assets"), { recursive: true });
cpSync(join(here, "app.css"), join(out, "app.css"));
// Each page names the chunks its bundle imports at once (esbuild's helpers shared with the QR
// decoder's chunk, say) for the browser to fetch beside the bundle, not a round trip after it.
for (const [html, bundle] of [["index.html", "app.js"], ["redeem.html", "redeem.js"]]) {
  const code = readFileSync(join(out, bundle), "utf8");
  const imported = [...new Set([...code.matchAll(/(?:from|import)\s*"\.\/(chunk-[A-Z0-9]+\.js)"/g)].map((m) => m[1]))];
  const links = imported.map((c) => `  <link rel="modulepreload" href="${c}">\n`).join("");
  writeFileSync(join(out, html), readFileSync(join(here, html), "utf8").replace("</head>", `${links}</head>`));
}
const chunks = readdirSync(out).filter((f) => f.startsWith("chunk-") && f.endsWith(".js"));
for (const file of ["app.js", "redeem.js", ...chunks, "prover-worker.js", "pow-worker.js", "index.html", "redeem.html", "app.css"]) {
  const data = readFileSync(join(out, file));
  writeFileSync(join(out, `${file}.br`), brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
  writeFileSync(join(out, `${file}.gz`), gzipSync(data, { level: 9 }));
}
console.log(`example built in ${out}`);

// Builds the prover's assets into dist/assets (never committed): the wasm from cmd/proverwasm,
// Go's wasm_exec.js from the toolchain that built it, the dev proving key (gen/zk/devkeys) as a
// sectioned key (reveal.pks, docs/prover.md: proved while it downloads) and its raw tail
// (reveal.tail.pks: its last sections uncompressed, for a device too slow to decompress them),
// and the dev verifying key as snarkjs reads it (verification_key.json); then
// pins their sha256 in src/pinned.gen.ts (never committed either), which the package checks
// every asset against before it runs or uses it. Each file's name carries its hash
// (prover.<16 hex digits of its sha256>.wasm): a URL's content never changes, so it may be cached
// for ever (docs/client.md). The compressible ones get a brotli (.br) and a gzip (.gz) copy
// beside them, for a server to send with Content-Encoding (kept in the user's cache directory
// for the next build). It also copies the API types (gen/ts, generated from openapi/) into src/gen
// (never committed), so that the package compiles from src alone into a flat dist/
// (dist/index.js, dist/prover.js, dist/assets/), and writes src/pointwasm.gen.ts (never
// committed): the module of service/vault/zk/pointwasm, base64. dist/ is emptied first, so that
// no file of a module since removed is packed.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const out = join(root, "web/client/dist/assets");
const types = join(root, "web/client/src/gen");
rmSync(types, { recursive: true, force: true });
mkdirSync(types, { recursive: true });
for (const f of readdirSync(join(root, "gen/ts")).filter((f) => f.endsWith(".ts"))) copyFileSync(join(root, "gen/ts", f), join(types, f));
rmSync(dirname(out), { recursive: true, force: true }); // no file of an older build under a stale name
mkdirSync(out, { recursive: true });
execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", join(out, "prover.wasm"), "./cmd/proverwasm"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, GOOS: "js", GOARCH: "wasm" },
});
const goroot = execFileSync("go", ["env", "GOROOT"], { cwd: root }).toString().trim();
copyFileSync(join(goroot, "lib/wasm/wasm_exec.js"), join(out, "wasm_exec.js"));
copyFileSync(join(root, "gen/zk/devkeys/verification_key.json"), join(out, "verification_key.json"));
execFileSync("go", ["run", "./service/vault/zk/internal/sectionkey", join(root, "gen/zk/devkeys/reveal.pk"), join(out, "reveal.pks"), join(out, "reveal.tail.pks")], { cwd: root, stdio: "inherit" });
const sha256 = (f) => createHash("sha256").update(readFileSync(join(out, f))).digest("hex");
const pinned = {
  wasm: sha256("prover.wasm"),
  wasmExec: sha256("wasm_exec.js"),
  sectionedKey: sha256("reveal.pks"),
};
const named = { wasm: "prover.wasm", wasmExec: "wasm_exec.js", sectionedKey: "reveal.pks" };
const hashedName = (file, sha) => `${file.slice(0, file.lastIndexOf("."))}.${sha.slice(0, 16)}${file.slice(file.lastIndexOf("."))}`;
const files = {};
for (const [name, file] of Object.entries(named)) {
  files[name] = hashedName(file, pinned[name]);
  renameSync(join(out, file), join(out, files[name]));
}
// The key's raw tail (its sections after B2, uncompressed: key.ts fetches it instead of the
// key's end on a device too slow to decompress them). Not pinned: the key's own pin checks it,
// once its points are compressed again.
const tailSha = sha256("reveal.tail.pks");
const rawTail = hashedName("reveal.tail.pks", tailSha);
renameSync(join(out, "reveal.tail.pks"), join(out, rawTail));
// Brotli at quality 11 for the wasm: 14% smaller than at 9, but ~30 s of CPU for a 10 MB wasm
// (9: ~4 s), so each compressed copy is kept under the file's sha256 and reused while the file
// is the same: in the user's cache directory ($XDG_CACHE_HOME or ~/.cache, vaultd/client-assets),
// so that every checkout on the machine shares them, a clean clone (CI's) among them. Quality 9
// for the sectioned proving key, whose points hardly compress (brotli saves 4.7% of it, 0.12 MB;
// 11 would save 0.2% more). A copy that saves less than 3% is not written: the server sends the
// file itself.
const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "vaultd", "client-assets");
mkdirSync(cache, { recursive: true });
const used = new Set();
const compressed = (file, sha, ext, quality, make) => {
  const key = `${sha}.${ext}${quality}`;
  const path = join(cache, key);
  used.add(key);
  if (existsSync(path)) return readFileSync(path);
  const z = make(readFileSync(join(out, file)));
  writeFileSync(`${path}.${process.pid}.tmp`, z);
  renameSync(`${path}.${process.pid}.tmp`, path); // never half a copy under its name
  return z;
};
for (const [file, sha, quality] of [[files.wasm, pinned.wasm, 11], [files.wasmExec, pinned.wasmExec, 11], [files.sectionedKey, pinned.sectionedKey, 9], [rawTail, tailSha, 9]]) {
  const size = statSync(join(out, file)).size;
  const br = compressed(file, sha, "br", quality, (data) =>
    brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
  );
  const gz = compressed(file, sha, "gz", 9, (data) => gzipSync(data, { level: 9 }));
  for (const [ext, z] of [["br", br], ["gz", gz]]) if (z.length < size * 0.97) writeFileSync(join(out, `${file}.${ext}`), z);
}
// Copies this build did not use, written over a week ago, are dropped (the builds of other
// checkouts share the directory).
const week = Date.now() - 7 * 24 * 3600 * 1000;
for (const f of readdirSync(cache)) {
  if (used.has(f)) continue;
  try {
    if (statSync(join(cache, f)).mtimeMs < week) rmSync(join(cache, f), { force: true });
  } catch {} // dropped by another build meanwhile
}
// The module that decodes and multiplies the key's points (service/vault/zk/pointwasm), ~30
// KB: in the package's code itself (the workers' bundle), not an asset of its own, a request fewer.
const pointWasm = join(out, "pointwasm.wasm");
execFileSync("go", ["run", "./service/vault/zk/internal/pointwasmgen", pointWasm], { cwd: root, stdio: "inherit" });
writeFileSync(
  join(root, "web/client/src/pointwasm.gen.ts"),
  `// Written by scripts/assets.mjs at build (not committed): service/vault/zk/pointwasm's module, base64.\n` +
    `export const pointWasmBase64 = "${readFileSync(pointWasm).toString("base64")}";\n`,
);
// The key's points as the module keeps them once decoded (affine, its own Montgomery form),
// section after section in the key's order: a browser keeps them in Cache Storage after its
// first proof, so that the next load copies them into its workers instead of taking a square
// root of every compressed point again; they are used only if their sha256 is this one
// (points.ts, decodedPoints).
const decodedPoints = await decodeKey(readFileSync(pointWasm), readFileSync(join(out, files.sectionedKey)));
rmSync(pointWasm);
writeFileSync(
  join(root, "web/client/src/pinned.gen.ts"),
  `// Written by scripts/assets.mjs at build (not committed): the sha256 of the prover's own assets,\n` +
    `// checked before each is used, wherever it is loaded from.\n` +
    `export const pinned = ${JSON.stringify(pinned, null, 2)} as const;\n` +
    `// Their file names in dist/assets, each carrying its hash.\n` +
    `export const files = ${JSON.stringify(files, null, 2)} as const;\n` +
    `// Their sizes in bytes (decoded): a progress bar's total before a compressed answer has arrived.\n` +
    `export const sizes = ${JSON.stringify(Object.fromEntries(Object.entries(files).map(([name, file]) => [name, statSync(join(out, file)).size])), null, 2)} as const;\n` +
    `// The proving key's raw tail (key.ts), in dist/assets.\n` +
    `export const rawTail = ${JSON.stringify(rawTail)};\n` +
    `// The proving key's points decoded by the module (scripts/assets.mjs, decodeKey): what a cached copy must hash to.\n` +
    `export const decodedPoints = ${JSON.stringify({ sha256: createHash("sha256").update(decodedPoints).digest("hex"), size: decodedPoints.length }, null, 2)} as const;\n`,
);
console.log(`prover assets in ${out}, pinned: ${JSON.stringify(pinned)}`);

// decodeKey is a version-2 sectioned key's points decoded by the point module (its bytes), as
// points.ts's shares hold them: for each section the module takes (the compressed G1 sections,
// the raw G2 one), its points affine, 144 bytes a G1 point and 288 a G2 one, in the key's order.
async function decodeKey(moduleBytes, key) {
  const e = (await WebAssembly.instantiate(moduleBytes)).instance.exports;
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  if (key.subarray(0, 8).toString() !== "vaultdPK" || view.getUint32(8) !== 2) throw new Error("the sectioned key is not version 2");
  const wires = view.getUint32(20);
  const [nA, nB, nK, nZ] = [28, 32, 36, 40].map((at) => view.getUint32(at));
  const order = [...key.subarray(44, 49)];
  let at = 49 + 3 * 64 + 2 * 128 + 2 * Math.ceil(wires / 8);
  const sections = { 1: [nA, 32, 144, e.decodeAffine], 2: [nB, 32, 144, e.decodeAffine], 3: [nB, 128, 288, e.loadG2], 4: [nK, 32, 144, e.decodeAffine], 5: [nZ, 32, 144, e.decodeAffine] };
  const bufferAt = 8192; // pointwasm.BufferAt
  const parts = [];
  for (const s of order) {
    const [count, inSize, outSize, load] = sections[s];
    const dst = bufferAt + count * inSize;
    const need = dst + count * outSize - e.memory.buffer.byteLength;
    if (need > 0) e.memory.grow(Math.ceil(need / 65536));
    new Uint8Array(e.memory.buffer).set(key.subarray(at, at + count * inSize), bufferAt);
    if (load(bufferAt, dst, count) !== -1) throw new Error(`the point module refused a point of section ${s} of the sectioned key`);
    parts.push(Buffer.from(new Uint8Array(e.memory.buffer, dst, count * outSize)));
    at += count * inSize;
  }
  if (at !== key.length) throw new Error(`the sectioned key has ${key.length - at} bytes after its sections`);
  return Buffer.concat(parts);
}

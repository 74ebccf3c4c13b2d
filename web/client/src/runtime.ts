// Loads the Go-compiled prover (cmd/proverwasm) and its keys, wherever it runs: a Web Worker or
// Node. The wasm registers globalThis.vaultdProver, whose functions answer JSON strings.

import { sha256 } from "@noble/hashes/sha256";
import { files, pinned } from "./pinned.gen.js";

/** The files the prover loads. */
export type AssetName = "wasm" | "wasmExec" | "provingKey" | "verifyingKey";

/**
 * Where the prover's files are: the package's own (dist/assets) unless overridden, and the
 * sha256 (hex) each must have. The package pins its own files' hashes: its assets may be served
 * from anywhere (a CDN, the app's own folder) and are checked all the same. A proving key of
 * your own (a ceremony's keys/reveal.pk) comes with its hash and its verifying key's.
 */
export interface ProverAssets {
  wasm: string;
  wasmExec: string; // Go's wasm_exec.js, copied from the Go toolchain at build
  provingKey: string; // gnark, raw encoding (a ceremony's keys/reveal.pk for production)
  verifyingKey: string;
  sha256: Record<AssetName, string>;
}

/**
 * The package's own files where an app serves its copy of dist/assets (base: that folder's URL,
 * ending in "/"). Each file's name carries its sha256 (prover.<16 hex digits>.wasm): a server or
 * CDN may cache them for ever (docs/client.md); they are checked against the pins all the same.
 */
export function assetsAt(base: string): Omit<ProverAssets, "sha256"> {
  const at = (name: AssetName) => new URL(files[name], base).href;
  return { wasm: at("wasm"), wasmExec: at("wasmExec"), provingKey: at("provingKey"), verifyingKey: at("verifyingKey") };
}

export function defaultAssets(): ProverAssets {
  return { ...assetsAt(new URL("./assets/", import.meta.url).href), sha256: { ...pinned } };
}

/** The assets to load: the defaults, with what the caller overrides (hashes included). */
export function assetsWith(over: Partial<Omit<ProverAssets, "sha256">> & { sha256?: Partial<Record<AssetName, string>> } = {}): ProverAssets {
  const d = defaultAssets();
  return { ...d, ...over, sha256: { ...d.sha256, ...over.sha256 } };
}

const hexOf = (digest: Uint8Array) => Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");

/** Refuses an asset whose sha256 (hex) is not the one pinned: a file changed anywhere. */
function pin(assets: ProverAssets, name: AssetName, hex: string): void {
  if (hex !== assets.sha256[name].toLowerCase()) {
    throw new Error(`the prover's ${name} at ${assets[name]} has sha256 ${hex}, not the pinned ${assets.sha256[name]}: refused`);
  }
}

/** The bytes at url, once their sha256 is the one pinned. */
async function checked(assets: ProverAssets, name: AssetName): Promise<Uint8Array> {
  const data = await bytes(assets[name]);
  pin(assets, name, hexOf(new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource))));
  return data;
}

/**
 * The wasm compiled, once its sha256 is the one pinned. Over HTTP it compiles while it downloads
 * (a served application/wasm), its bytes hashed as they arrive: the module is used only once the
 * whole file's hash is the pinned one. Elsewhere (a file: URL, another Content-Type) it compiles
 * the checked bytes.
 */
async function compiledWasm(assets: ProverAssets): Promise<WebAssembly.Module> {
  const url = assets.wasm;
  if (url.startsWith("file:") || typeof WebAssembly.compileStreaming !== "function") {
    return WebAssembly.compile((await checked(assets, "wasm")) as BufferSource);
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  if (!r.body || !(r.headers.get("content-type") ?? "").startsWith("application/wasm")) {
    const data = new Uint8Array(await r.arrayBuffer());
    pin(assets, "wasm", hexOf(new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource))));
    return WebAssembly.compile(data as BufferSource);
  }
  const [toCompile, toHash] = r.body.tee();
  const compiling = WebAssembly.compileStreaming(new Response(toCompile, { headers: { "content-type": "application/wasm" } }));
  compiling.catch(() => {}); // a wrong file's compile error is not the one reported
  const h = sha256.create();
  const reader = toHash.getReader();
  for (let c = await reader.read(); !c.done; c = await reader.read()) h.update(c.value);
  pin(assets, "wasm", hexOf(h.digest()));
  return compiling;
}

/** The wasm's functions (cmd/proverwasm). */
export interface RawProver {
  init(provingKey: Uint8Array, verifyingKey: Uint8Array): string;
  newNote(json: string): string;
  parseCard(card: string): string;
  prove(json: string): string;
}

async function bytes(url: string): Promise<Uint8Array> {
  if (url.startsWith("file:")) {
    const nodeFs = "node:fs/promises"; // a variable, so that bundlers for the browser leave it alone
    const fs: typeof import("node:fs/promises") = await import(/* webpackIgnore: true */ nodeFs);
    return new Uint8Array(await fs.readFile(new URL(url)));
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** Starts the Go runtime with the prover and loads the keys into it. */
export async function startRuntime(assets: ProverAssets): Promise<RawProver> {
  const g = globalThis as unknown as { Go?: new () => { importObject: WebAssembly.Imports; run(i: WebAssembly.Instance): Promise<void> }; vaultdProver?: RawProver };
  // The large files are fetched (and the wasm compiled) while wasm_exec.js is checked and run.
  const loading = Promise.all([compiledWasm(assets), checked(assets, "provingKey"), checked(assets, "verifyingKey")]);
  loading.catch(() => {}); // awaited below, after wasm_exec.js
  if (!g.Go) {
    // Run only once its hash is checked: imported from the checked bytes, not from the URL.
    const code = await checked(assets, "wasmExec");
    let b64 = "";
    for (let i = 0; i < code.length; i += 0x8000) b64 += String.fromCharCode(...code.subarray(i, i + 0x8000));
    await import(/* webpackIgnore: true */ `data:text/javascript;base64,${btoa(b64)}`);
  }
  const [module, pk, vk] = await loading;
  const go = new g.Go!();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  void go.run(instance); // returns when the program exits; it serves calls until then
  const raw = g.vaultdProver!;
  answer(raw.init(pk, vk));
  return raw;
}

/** A wasm function's JSON answer, or its {"error"} thrown. */
export function answer<T>(json: string): T {
  const v = JSON.parse(json);
  if (v && typeof v === "object" && "error" in v && Object.keys(v).length === 1) throw new Error(v.error);
  return v as T;
}

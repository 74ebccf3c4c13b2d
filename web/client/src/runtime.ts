// Loads the Go-compiled prover (cmd/proverwasm) and its keys, wherever it runs: a Web Worker or
// Node. The wasm registers globalThis.vaultdProver, whose functions answer JSON strings.

/** Where the prover's files are: the package's own (dist/assets) unless overridden. */
export interface ProverAssets {
  wasm: string;
  wasmExec: string; // Go's wasm_exec.js, copied from the Go toolchain at build
  provingKey: string; // gnark, raw encoding (a ceremony's keys/reveal.pk for production)
  verifyingKey: string;
}

export function defaultAssets(): ProverAssets {
  const at = (name: string) => new URL(`../../../assets/${name}`, import.meta.url).href;
  return { wasm: at("prover.wasm"), wasmExec: at("wasm_exec.js"), provingKey: at("reveal.pk"), verifyingKey: at("reveal.vk") };
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
  if (!g.Go) await import(/* webpackIgnore: true */ assets.wasmExec);
  const [wasm, pk, vk] = await Promise.all([bytes(assets.wasm), bytes(assets.provingKey), bytes(assets.verifyingKey)]);
  const go = new g.Go!();
  const { instance } = await WebAssembly.instantiate(wasm as BufferSource, go.importObject);
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

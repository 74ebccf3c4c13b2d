// Loads the Go-compiled prover (cmd/proverwasm), wherever it runs: a Web Worker or Node. The wasm
// registers globalThis.vaultdProver, whose functions answer JSON strings. Its proving key is not
// loaded here: it is fed to each proof as it arrives (key.ts).

import { files, pinned, rawTail, sizes } from "./pinned.gen.js";
import { compilePointModule, pointModule, withPointModule } from "./points.js";
import type { RawProver } from "./raw.js";

export type { RawProver } from "./raw.js";

/** The files the prover loads. */
export type AssetName = "wasm" | "wasmExec" | "sectionedKey";

/**
 * Where the prover's files are: the package's own (dist/assets) unless overridden, and the
 * sha256 (hex) each must have. The package pins its own files' hashes: its assets may be served
 * from anywhere (a CDN, the app's own folder) and are checked all the same. A proving key of
 * your own (a ceremony's keys/reveal.pk, converted: docs/prover.md) comes with its hash.
 */
export interface ProverAssets {
  wasm: string;
  wasmExec: string; // Go's wasm_exec.js, copied from the Go toolchain at build
  sectionedKey: string; // the proving key in vaultd's sectioned format (reveal.<hash>.pks), proved while it arrives
  // Its raw tail (reveal.tail.<hash>.pks: its last sections uncompressed), fetched instead of the
  // key's end by a device too slow to decompress them (key.ts); none (or ""): the key's end is
  // always decompressed.
  rawTail?: string;
  sha256: Record<AssetName, string>;
}

/**
 * The package's own files where an app serves its copy of dist/assets (base: that folder's URL,
 * ending in "/"). Each file's name carries its sha256 (prover.<16 hex digits>.wasm): a server or
 * CDN may cache them for ever (docs/client.md); they are checked against the pins all the same.
 */
export function assetsAt(base: string): Omit<ProverAssets, "sha256"> {
  const at = (name: AssetName) => new URL(files[name], base).href;
  return { wasm: at("wasm"), wasmExec: at("wasmExec"), sectionedKey: at("sectionedKey"), rawTail: new URL(rawTail, base).href };
}

export function defaultAssets(): ProverAssets {
  return { ...assetsAt(new URL("./assets/", import.meta.url).href), sha256: { ...pinned } };
}

/**
 * The assets to load: the defaults, with what the caller overrides (hashes included). The
 * package's raw tail goes with the package's key only: another key has its own (named by
 * rawTail), or none.
 */
export function assetsWith(over: Partial<Omit<ProverAssets, "sha256">> & { sha256?: Partial<Record<AssetName, string>> } = {}): ProverAssets {
  const d = defaultAssets();
  const a = { ...d, ...over, sha256: { ...d.sha256, ...over.sha256 } };
  // Another key with the package's raw tail (assetsAt's, the key alone overridden) takes none.
  const packageTail = !("rawTail" in over) || (over.rawTail ?? "").endsWith(rawTail);
  if (packageTail && a.sha256.sectionedKey.toLowerCase() !== pinned.sectionedKey) delete a.rawTail;
  return a;
}

// The sha256 of data (hex), by the platform's own (native) code: ~70 ms for the 20 MB wasm, where
// a JavaScript sha256 fed each chunk as it arrives took ~570 ms of the worker's thread.
export const sha256Hex = async (data: Uint8Array) =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource)), (b) => b.toString(16).padStart(2, "0")).join("");

/** Refuses an asset whose sha256 (hex) is not the one pinned: a file changed anywhere. */
export function pin(assets: ProverAssets, name: AssetName, hex: string): void {
  if (hex !== assets.sha256[name].toLowerCase()) {
    throw new Error(`the prover's ${name} at ${assets[name]} has sha256 ${hex}, not the pinned ${assets.sha256[name]}: refused`);
  }
}

/**
 * How far the prover's load is: the bytes of its files received (decoded, from the network or
 * the page's cache) and, once every file's size is known, their total; then its stages (the
 * wasm starting, ready to prove).
 */
export interface LoadProgress {
  stage: "downloading" | "starting" | "ready";
  received: number;
  total?: number; // unknown while a file sent compressed has not all arrived (its size is not sent)
  at?: number; // when it was so (Date.now() where the bytes were read: a worker's report reaches the page later)
}

/**
 * The Cache Storage cache where a browser keeps the prover's files once checked, under their
 * URLs (which carry their hashes): a second card proves without fetching them again, and the
 * wasm, compiled from a cached response, may use the browser's compiled code cache.
 */
export const cacheName = "vaultd-prover";

/**
 * The wasm's response as the page fetched it (Prover.load starts the download at once, before
 * its worker runs): its body, handed to the worker, is read, checked and compiled there as if
 * the worker had fetched it.
 */
export interface Prefetched {
  status: number;
  headers: [string, string][];
  body: ReadableStream<Uint8Array>;
}

// A load's state: the assets, the page's cache (none in Node, or where storage is refused), the
// wasm's response if the page fetched it, and each file's bytes received and size, reported as
// they change.
interface Load {
  assets: ProverAssets;
  cache?: Cache;
  prefetched?: Response;
  names: AssetName[]; // the files fetched
  seen: Map<AssetName, { received: number; total?: number }>;
  report(stage?: LoadProgress["stage"]): void;
}

// ownSize is the size of one of the package's own files, known from its build (the bytes a
// compressed answer does not state); undefined for another file (a production key), whose
// uncompressed answer's Content-Length tells it.
export function ownSize(assets: ProverAssets, name: AssetName): number | undefined {
  return assets.sha256[name].toLowerCase() === pinned[name] ? sizes[name] : undefined;
}

function newLoad(assets: ProverAssets, names: AssetName[], onProgress?: (p: LoadProgress) => void): Load {
  let last = 0;
  const load: Load = {
    assets,
    names,
    seen: new Map(),
    report(stage) {
      if (!onProgress) return;
      const now = Date.now();
      if (!stage && now - last < 50) return; // bytes: a few reports a second are enough
      last = now;
      let received = 0;
      let total: number | undefined = 0;
      for (const name of load.names) {
        const f = load.seen.get(name);
        const size = f?.total ?? ownSize(assets, name); // a file not yet answered: its size if it is the package's
        received += f?.received ?? 0;
        total = size === undefined || total === undefined ? undefined : total + size;
      }
      onProgress({ stage: stage ?? "downloading", received, total, at: now });
    },
  };
  return load;
}

export async function openCache(): Promise<Cache | undefined> {
  try {
    return typeof caches === "undefined" ? undefined : await caches.open(cacheName);
  } catch {
    return undefined; // storage refused (an opaque origin, a private window): the network each time
  }
}

/**
 * An asset's bytes once their sha256 is the pinned one: from the page's cache, else from the
 * network (then kept in the cache). A cached copy that is not the pinned one is dropped and
 * fetched again. compile, for the wasm served as application/wasm, compiles the response while
 * its bytes arrive; its module is answered only once they are checked.
 */
async function checked(load: Load, name: AssetName, compile?: (r: Response) => Promise<WebAssembly.Module>): Promise<{ data: Uint8Array; module?: WebAssembly.Module }> {
  const url = load.assets[name];
  if (url.startsWith("file:")) {
    const data = await fileBytes(url);
    pin(load.assets, name, await sha256Hex(data));
    load.seen.set(name, { received: data.length, total: data.length });
    return { data };
  }
  let hit = await load.cache?.match(url).catch(() => undefined);
  let given = name === "wasm" ? load.prefetched : undefined;
  load.prefetched = undefined;
  if (hit && given) void given.body?.cancel().catch(() => {});
  for (;;) {
    const r = hit ?? given ?? (await fetch(url));
    given = undefined; // a copy refused is fetched again
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    // A compressed answer's Content-Length is not its decoded size.
    const length = r.headers.get("content-encoding") ? NaN : Number(r.headers.get("content-length") ?? NaN);
    const f = { received: 0, total: ownSize(load.assets, name) ?? (Number.isFinite(length) ? length : undefined) };
    load.seen.set(name, f);
    const streaming = compile && r.body && (r.headers.get("content-type") ?? "").startsWith("application/wasm");
    // The response itself goes to the compiler (a browser may then use its compiled code cache);
    // its clone is read and hashed.
    const reader = (streaming ? r.clone() : r).body!.getReader();
    const compiling = streaming ? compile(r) : undefined;
    compiling?.catch(() => {}); // a wrong file's compile error is not the one reported
    const chunks: Uint8Array[] = [];
    for (let c = await reader.read(); !c.done; c = await reader.read()) {
      chunks.push(c.value);
      f.received += c.value.length;
      load.report();
    }
    f.total = f.received;
    load.report("downloading"); // its last byte told at once: the page asks for the proving key then, if not before (key.ts)
    const data = concat(chunks, f.received);
    const hex = await sha256Hex(data);
    if (hit && hex !== load.assets.sha256[name].toLowerCase()) {
      await load.cache!.delete(url).catch(() => {});
      hit = undefined;
      continue;
    }
    pin(load.assets, name, hex);
    if (!hit && load.cache) {
      const headers = { "content-type": r.headers.get("content-type") ?? "application/octet-stream", "content-length": String(data.length) };
      // Written while the prover starts; a full quota or a failed write: the network next time.
      load.cache.put(url, new Response(data as BodyInit, { headers })).catch(() => {});
    }
    return { data, module: await compiling };
  }
}

/** Where the cache keeps the key's points decoded (decoded.ts): beside the key, under its name. */
export const decodedPointsUrl = (assets: ProverAssets): string => `${assets.sectionedKey}.points`;

/**
 * Drops from the cache the files of other builds (other names: each carries its hash), once this
 * one's have loaded: a phone keeps one prover, not one per release.
 */
async function prune(load: Load): Promise<void> {
  if (!load.cache) return;
  const a = load.assets;
  const current = new Set([a.wasm, a.wasmExec, a.sectionedKey, decodedPointsUrl(a)]);
  try {
    for (const req of await load.cache.keys()) if (!current.has(req.url)) await load.cache.delete(req);
  } catch {
    // the next load tries again
  }
}

export function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The wasm compiled, once its sha256 is the one pinned. Served as application/wasm it compiles
 * while it arrives (WebAssembly.compileStreaming), its bytes hashed as they do: the module is
 * used only once the whole file's hash is the pinned one. Otherwise (a file: URL, another
 * Content-Type) it compiles the checked bytes.
 */
async function compiledWasm(load: Load): Promise<WebAssembly.Module> {
  const streaming = typeof WebAssembly.compileStreaming === "function" ? (r: Response) => WebAssembly.compileStreaming(r) : undefined;
  const { data, module } = await checked(load, "wasm", streaming);
  return module ?? WebAssembly.compile(data as BufferSource);
}

/**
 * A started runtime's compiled wasm and the checked wasm_exec.js: what another worker starts
 * from (startRuntime's shared), without fetching or checking either again.
 */
export interface SharedRuntime {
  module: WebAssembly.Module;
  exec: Uint8Array;
  points?: WebAssembly.Module; // the point module compiled (none where it did not compile)
}

let started: SharedRuntime | undefined;
let running: { exited?: boolean } | undefined; // wasm_exec.js's Go, which sets exited as the program exits

/** Whether this thread's runtime has exited (a fault): it answers no call any more. */
export function runtimeExited(): boolean {
  return running?.exited === true;
}

/** The runtime this thread started, for another worker to start the same. */
export function sharedRuntime(): SharedRuntime {
  if (!started) throw new Error("the prover is not loaded");
  return started;
}

export async function fileBytes(url: string): Promise<Uint8Array> {
  const nodeFs = "node:fs/promises"; // a variable, so that bundlers for the browser leave it alone
  const fs: typeof import("node:fs/promises") = await import(/* webpackIgnore: true */ nodeFs);
  return new Uint8Array(await fs.readFile(new URL(url)));
}

/**
 * Starts the Go runtime with the prover, telling onProgress the bytes received and the stages.
 */
export async function startRuntime(assets: ProverAssets, onProgress?: (p: LoadProgress) => void, shared?: SharedRuntime, prefetched?: Prefetched): Promise<RawProver> {
  const g = globalThis as unknown as { Go?: new () => { importObject: WebAssembly.Imports; run(i: WebAssembly.Instance): Promise<void>; exited?: boolean }; vaultdProver?: RawProver };
  const load = newLoad(assets, shared ? [] : g.Go ? ["wasm"] : ["wasm", "wasmExec"], onProgress);
  load.cache = shared ? undefined : await openCache();
  if (prefetched) load.prefetched = new Response(prefetched.body, { status: prefetched.status, headers: prefetched.headers });
  load.report("downloading");
  const pointsCompiled = shared?.points ? Promise.resolve(shared.points) : compilePointModule();
  const points = pointsCompiled.then((m) => pointModule(m));
  points.catch(() => {}); // awaited below
  // The wasm is fetched (and compiled) while wasm_exec.js is checked and run.
  const loading = shared ? Promise.resolve(shared.module) : compiledWasm(load);
  loading.catch(() => {}); // awaited below, after wasm_exec.js
  let exec: Uint8Array | undefined = shared?.exec;
  if (!g.Go) {
    // Run only once its hash is checked: imported from the checked bytes, not from the URL.
    const code = (exec ??= (await checked(load, "wasmExec")).data);
    let b64 = "";
    for (let i = 0; i < code.length; i += 0x8000) b64 += String.fromCharCode(...code.subarray(i, i + 0x8000));
    await import(/* webpackIgnore: true */ `data:text/javascript;base64,${btoa(b64)}`);
  }
  const module = await loading;
  load.report("starting");
  const go = new g.Go!();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  // It serves calls until the program exits, which it does only on a fault (a panic, memory
  // exhausted): from then on every call fails (runtimeExited).
  running = go;
  void go.run(instance);
  // Without the module (a browser that cannot instantiate it), the Go wasm does all of it.
  const raw = await points.then((e) => withPointModule(g.vaultdProver!, e), () => g.vaultdProver!);
  if (exec) started = { module, exec, points: await pointsCompiled.catch(() => undefined) };
  load.report("ready");
  if (!shared) void prune(load);
  return raw;
}

/** A wasm function's JSON answer, or its {"error"} thrown. */
export function answer<T>(json: string): T {
  const v = JSON.parse(json);
  if (v && typeof v === "object" && "error" in v && Object.keys(v).length === 1) throw new Error(v.error);
  return v as T;
}

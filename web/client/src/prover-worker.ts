// The Web Worker the browser's Prover runs in: proving takes a second or more of CPU, and the
// page stays responsive. Messages: {id, fn: "load", args: [assets, shared?]} first (shared: the
// runtime another worker started, for a worker that takes a share of the proofs' points), then
// {id, fn, args} calling one of the wasm's functions (RawProver), or {id, fn: "runtime"} for this
// worker's compiled runtime; answers {id, result} or {id, error}, and while loading {id,
// progress} (bytes received, stages).
// The proving key's chunks arrive as feed messages, read by the page: they wait in this
// worker's queue while it multiplies.
import { sharedRuntime, startRuntime, type LoadProgress, type ProverAssets, type RawProver, type SharedRuntime } from "./runtime.js";

let raw: RawProver | undefined;

self.onmessage = async (e: MessageEvent<{ id: number; fn: string; args: unknown[] }>) => {
  const { id, fn, args } = e.data;
  try {
    if (fn === "load") {
      raw = await startRuntime(args[0] as ProverAssets, (progress: LoadProgress) => self.postMessage({ id, progress }), args[1] as SharedRuntime | undefined);
      self.postMessage({ id, result: "{}" });
      return;
    }
    if (fn === "runtime") {
      self.postMessage({ id, result: sharedRuntime() }); // the compiled module, for the page's other workers
      return;
    }
    if (!raw) throw new Error("the prover is not loaded");
    const f = raw[fn as keyof RawProver] as ((...a: unknown[]) => string) | undefined;
    if (typeof f !== "function") throw new Error(`the prover has no function ${fn}`);
    self.postMessage({ id, result: f(...args) });
  } catch (err) {
    self.postMessage({ id, error: String((err as Error)?.message ?? err) });
  }
};

// A prover's worker, wherever it runs (a Web Worker: prover-worker.ts; a Node worker thread:
// prover-node-worker.ts): the messages Prover's spawn sends it and its answers. Messages:
// {id, fn: "load", args: [assets, shared?, prefetched?]} first (shared: the runtime another
// worker started, for a worker that takes a share of the proofs' points; prefetched: the wasm's
// response as the page fetched it, its body transferred), then {id, fn, args} calling one of the
// wasm's functions (RawProver), or {id, fn: "runtime"} for this worker's compiled runtime;
// answers {id, result} or {id, error}, and while loading {id, progress} (bytes received,
// stages); an answer with fatal: the wasm's runtime has exited (a fault) and the worker ends.
// The proving key's points arrive as shareFeed messages, read and dealt by the Prover's thread
// (share.ts), a couple at a time.
import { runtimeExited, sharedRuntime, startRuntime, type LoadProgress, type Prefetched, type ProverAssets, type RawProver, type SharedRuntime } from "./runtime.js";

/** A message to a prover's worker. */
export interface Message {
  id: number;
  fn: string;
  args: unknown[];
}

/** The worker's side: answers each message by post; close ends the worker (its runtime exited). */
export function serve(post: (answer: unknown) => void, close: () => void): (m: Message) => Promise<void> {
  let raw: RawProver | undefined;
  return async ({ id, fn, args }) => {
    try {
      if (fn === "load") {
        raw = await startRuntime(args[0] as ProverAssets, (progress: LoadProgress) => post({ id, progress }), args[1] as SharedRuntime | undefined, args[2] as Prefetched | undefined);
        post({ id, result: JSON.stringify({ points: typeof raw.shareFeedRaw === "function" }) }); // the point module's there: a key's raw tail may be dealt
        return;
      }
      if (fn === "runtime") {
        post({ id, result: sharedRuntime() }); // the compiled module, for the prover's other workers
        return;
      }
      if (!raw) throw new Error("the prover is not loaded");
      const f = raw[fn as keyof RawProver] as ((...a: unknown[]) => string) | undefined;
      if (typeof f !== "function") throw new Error(`the prover has no function ${fn}`);
      const result = f(...args);
      if (runtimeExited()) throw new Error("the prover's runtime stopped (a fault in the wasm)");
      post({ id, result });
    } catch (err) {
      // A runtime that has exited answers nothing any more: the prover is told, and this worker ends.
      const fatal = runtimeExited();
      post({ id, error: String((err as Error)?.message ?? err), fatal });
      if (fatal) close();
    }
  };
}

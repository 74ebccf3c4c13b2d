// The Web Worker the browser's Prover runs in: proving takes a second or more of CPU, and the
// page stays responsive. Messages: {id, fn: "load", args: [assets]} first, then
// {id, fn: "newNote" | "parseCard" | "prove", args: [string]}; answers {id, result} or {id, error},
// and while loading {id, progress} (bytes received, stages).
import { startRuntime, type LoadProgress, type ProverAssets, type RawProver } from "./runtime.js";

let raw: RawProver | undefined;

self.onmessage = async (e: MessageEvent<{ id: number; fn: string; args: unknown[] }>) => {
  const { id, fn, args } = e.data;
  try {
    if (fn === "load") {
      raw = await startRuntime(args[0] as ProverAssets, (progress: LoadProgress) => self.postMessage({ id, progress }));
      self.postMessage({ id, result: "{}" });
      return;
    }
    if (!raw) throw new Error("the prover is not loaded");
    const f = raw[fn as "newNote" | "parseCard" | "prove"];
    self.postMessage({ id, result: f(args[0] as string) });
  } catch (err) {
    self.postMessage({ id, error: String((err as Error)?.message ?? err) });
  }
};

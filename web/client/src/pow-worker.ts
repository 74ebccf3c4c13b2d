// The module Worker the browser's solveChallenge runs in: a solve takes seconds of CPU, and the
// page stays responsive. Message: {challenge}; answers {progress}, then {nonce, tries} or
// {error}. A cancelled solve is stopped by terminating the worker.
import { solveHere, type PowChallenge } from "./pow-solve.js";

self.onmessage = async (e: MessageEvent<{ challenge: PowChallenge }>) => {
  try {
    const found = await solveHere(e.data.challenge, { onProgress: (progress) => self.postMessage({ progress }) });
    self.postMessage(found);
  } catch (err) {
    self.postMessage({ error: String((err as Error)?.message ?? err) });
  }
};

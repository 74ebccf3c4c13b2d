// @vaultd/client/pow: the faucet's proof of work for people. solveChallenge finds the nonce a
// challenge asks for, in a module Worker in the browser (pow-worker.js, next to pow.js) and
// in-process in Node; claimWithWork asks the faucet for a challenge, solves it and claims.
import type { Client } from "openapi-fetch";
import { ok, type Claim, type ErrorBody, type FaucetPaths } from "./index.js";
import { checkChallenge, solveHere, type PowChallenge, type SolveProgress } from "./pow-solve.js";

export { meets, powHash } from "./pow-solve.js";
export type { PowChallenge, SolveProgress } from "./pow-solve.js";

/** What a claim carries: the challenge's token and the nonce that solves it. */
export interface PowSolution {
  challenge: string;
  nonce: number;
}

export interface SolveOptions {
  /** Told the tries so far and the work expected, a few times a second. */
  onProgress?: (p: SolveProgress) => void;
  /** Stops the solve (the worker is terminated): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** In a Worker (default: where `Worker` exists) or on the calling thread. */
  worker?: boolean;
}

/**
 * Finds the first nonce whose argon2id hash meets the challenge's work (openapi/faucet.yaml
 * spells the hash out): `work` tries on average, each `memoryKiB` of memory. Rejects when the
 * signal aborts, and with an Error for a challenge it cannot solve (another algorithm).
 */
export async function solveChallenge(challenge: PowChallenge, opts: SolveOptions = {}): Promise<PowSolution> {
  checkChallenge(challenge);
  opts.signal?.throwIfAborted();
  if (!(opts.worker ?? typeof Worker !== "undefined")) {
    const { nonce } = await solveHere(challenge, opts);
    return { challenge: challenge.challenge, nonce };
  }
  const worker = new Worker(new URL("./pow-worker.js", import.meta.url), { type: "module" });
  let abort: (() => void) | undefined;
  try {
    const nonce = await new Promise<number>((resolve, reject) => {
      abort = () => reject(opts.signal!.reason);
      opts.signal?.addEventListener("abort", abort, { once: true });
      worker.onmessage = (e: MessageEvent<{ progress?: SolveProgress; nonce?: number; error?: string }>) => {
        if (e.data.progress) opts.onProgress?.(e.data.progress);
        else if (e.data.error !== undefined) reject(new Error(e.data.error));
        else resolve(e.data.nonce!);
      };
      // A worker that cannot start (its script missing, a CSP refusal) fails the solve at once.
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault?.();
        reject(new Error(`the proof-of-work worker failed: ${e.message || "its script did not load"} (pow-worker.js, next to pow.js)`));
      };
      worker.postMessage({ challenge });
    });
    return { challenge: challenge.challenge, nonce };
  } finally {
    if (abort) opts.signal?.removeEventListener("abort", abort);
    worker.terminate(); // solved, failed or cancelled: nothing left running
  }
}

/** A faucet's challenge for address, or undefined when it asks no proof of work (404). */
export async function askChallenge(faucet: Client<FaucetPaths>, address: string): Promise<PowChallenge | undefined> {
  const res = await faucet.GET("/api/faucet/challenge", { params: { query: { address } } });
  if (res.response.status === 404) return undefined;
  return ok(res);
}

/**
 * Claims from a faucet for address, with the proof of work it asks: a challenge asked
 * (`onChallenge` is told it; none when the faucet answers 404: the claim goes without), solved
 * (`onProgress`, `signal`, `worker` as for solveChallenge), then claimed. A refusal saying the
 * challenge expired or was used (403 `POW_EXPIRED`, `POW_USED`), or that one is required (403
 * `POW_REQUIRED`: the faucet started asking), asks a new challenge and solves it, once. A claim
 * the faucet had no turn to check (503 or 429 with a `Retry-After` of at most 5 s: it was
 * checking as many solutions as it can at once) is sent again with the same solution after that
 * wait, up to 3 times. Answers the claim; throws a VaultdError for any other refusal (409
 * `ALREADY_CLAIMED`, 429, …).
 */
export async function claimWithWork(
  faucet: Client<FaucetPaths>,
  address: string,
  opts: SolveOptions & { onChallenge?: (c: PowChallenge) => void } = {},
): Promise<Claim> {
  for (let again = false; ; again = true) {
    const challenge = await askChallenge(faucet, address);
    if (challenge) opts.onChallenge?.(challenge);
    const pow = challenge ? await solveChallenge(challenge, opts) : undefined;
    let res = await faucet.POST("/api/faucet/claim", { body: pow ? { address, pow } : { address } });
    for (let waits = 0; waits < 3; waits++) {
      const wait = shortRetry(res.response);
      if (wait === undefined) break;
      await sleep(wait, opts.signal);
      res = await faucet.POST("/api/faucet/claim", { body: pow ? { address, pow } : { address } });
    }
    const code = (res.error as Partial<ErrorBody> | undefined)?.code as string | undefined;
    if (!again && res.response.status === 403 && (code === "POW_EXPIRED" || code === "POW_USED" || code === "POW_REQUIRED")) continue;
    return ok(res);
  }
}

/** The wait, in ms, a 503 or 429 asks for when it is at most 5 s (the faucet busy for a moment); else undefined. */
function shortRetry(res: Response): number | undefined {
  if (res.status !== 503 && res.status !== 429) return undefined;
  const header = res.headers.get("retry-after")?.trim();
  if (!header) return undefined;
  const seconds = Number(header);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 5) return undefined;
  return Math.max(seconds * 1000, 250);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

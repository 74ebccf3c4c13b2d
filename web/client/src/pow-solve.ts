// The faucet's proof of work, computed where it is called (a Worker, Node, or a page's thread):
// argon2id by hash-wasm, exactly as openapi/faucet.yaml spells it and service/faucet/pow
// computes it (test/pow.test.mjs checks both agree on the vectors Go writes).
import { argon2id } from "hash-wasm";

/** A faucet's challenge, as `GET /api/faucet/challenge` answers it. */
export interface PowChallenge {
  challenge: string; // the token to send back with the claim
  address: string; // 0x and 40 hex digits: the address the challenge is for
  salt: string; // the challenge's id, 16 bytes as 0x-hex: argon2id's salt
  algorithm: "argon2id";
  work: number; // expected tries: each meets the target with a chance of 1/work
  memoryKiB: number;
  passes: number;
  expiresAt?: string;
}

/** How far a solve is: the tries so far, of the `work` expected (a solve may take more). */
export interface SolveProgress {
  tries: number;
  work: number;
}

const hex = (s: string, bytes: number, what: string): Uint8Array => {
  if (!new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`).test(s)) throw new Error(`the challenge's ${what} is not ${bytes} bytes of 0x-hex: ${s}`);
  return Uint8Array.from(s.slice(2).match(/../g)!, (b) => parseInt(b, 16));
};

/** Refuses a challenge this solver cannot solve (another algorithm, a field out of range). */
export function checkChallenge(c: PowChallenge): void {
  if (c.algorithm !== "argon2id") throw new Error(`the faucet asks for ${c.algorithm}: this solver knows argon2id only`);
  for (const [name, v] of [["work", c.work], ["memoryKiB", c.memoryKiB], ["passes", c.passes]] as const) {
    if (!Number.isSafeInteger(v) || v < 1) throw new Error(`the challenge's ${name} is not a positive integer: ${v}`);
  }
  hex(c.address, 20, "address");
  hex(c.salt, 16, "salt");
}

/** One try: argon2id of the address's 20 bytes and the nonce's 8 (big-endian), salted with the challenge's id. */
export async function powHash(c: PowChallenge, nonce: number): Promise<Uint8Array> {
  const password = new Uint8Array(28);
  password.set(hex(c.address, 20, "address"));
  new DataView(password.buffer).setBigUint64(20, BigInt(nonce));
  return argon2id({ password, salt: hex(c.salt, 16, "salt"), iterations: c.passes, parallelism: 1, memorySize: c.memoryKiB, hashLength: 32, outputType: "binary" });
}

/** Whether a hash meets a work: its first 8 bytes, big-endian, below floor((2^64 − 1) / work) (Go's pow.Meets). */
export function meets(hash: Uint8Array, work: number): boolean {
  if (work <= 1) return true;
  const first = new DataView(hash.buffer, hash.byteOffset, 8).getBigUint64(0);
  return first < 0xffffffffffffffffn / BigInt(work);
}

// A task boundary: a loop of awaited hashes otherwise yields only to microtasks, and a page's
// timers, events and an abort would wait for the whole solve.
const yieldTask = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * Tries nonces from 0 until one meets the challenge's work, here, on this thread: progress about
 * every `reportMs` (100), and stops with the signal's reason when it aborts.
 */
export async function solveHere(
  c: PowChallenge,
  opts: { onProgress?: (p: SolveProgress) => void; signal?: AbortSignal; reportMs?: number } = {},
): Promise<{ nonce: number; tries: number }> {
  checkChallenge(c);
  const every = opts.reportMs ?? 100;
  let last = performance.now();
  for (let nonce = 0; nonce <= Number.MAX_SAFE_INTEGER; nonce++) {
    opts.signal?.throwIfAborted();
    if (meets(await powHash(c, nonce), c.work)) {
      opts.onProgress?.({ tries: nonce + 1, work: c.work });
      return { nonce, tries: nonce + 1 };
    }
    if (performance.now() - last >= every) {
      opts.onProgress?.({ tries: nonce + 1, work: c.work });
      await yieldTask();
      last = performance.now();
    }
  }
  throw new Error("no nonce below 2^53 meets the challenge"); // unreachable at any work a faucet asks
}

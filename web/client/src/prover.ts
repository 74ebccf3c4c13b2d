// @vaultd/client/prover: make a card and prove its reveal where its secrets are, in the page (a
// Web Worker) or in Node (in-process), with the project's own circuit compiled to WebAssembly.
// The proofs are the snarkjs JSON the relayer and zk.Verify accept; cards are the strings
// `card create` prints and `card redeem` reads.
import type { RevealRequest } from "./index.js";
import { answer, assetsWith, startRuntime, type AssetName, type LoadProgress, type ProverAssets, type RawProver } from "./runtime.js";

export { approveCalldata, commitCalldata, balanceOfCalldata, isSpentCalldata } from "./calldata.js";
export { assetsAt, cacheName } from "./runtime.js";
export type { AssetName, LoadProgress, ProverAssets } from "./runtime.js";

/** A card (the note's secrets as one string) and what a wallet needs to commit and follow it. */
export interface Note {
  card: string; // vaultd-card:v1?chain=…&vault=…&token=…&amount=…&secret=…&nullifier=…
  commitment: string; // the third argument of the vault's commit(token, amount, commitment)
  leaf: string; // the leaf the vault inserts into its tree
  nullifier: string; // marked spent once revealed
  tokenId: string;
}

export interface ProveInput {
  card: string;
  leaves: string[]; // every leaf of the tree, in insertion order (leavesFromIndexer)
  recipient: string; // EIP-55 address
  amount?: bigint | string; // less than the card's: a partial reveal; default: all of it
}

export interface ProveOutput {
  request: RevealRequest; // POST it to the relayer's /reveal
  change?: string; // after a partial reveal: the card of what is left (keep it like the first)
}

type Call = (fn: "newNote" | "parseCard" | "prove", arg: string) => Promise<string>;

/** The reveal prover. Load it once (a few MB of wasm and the proving key), then call it. */
export class Prover {
  private constructor(private readonly call: Call, private readonly stop: () => void) {}

  /**
   * Loads the prover: in a Web Worker where there is one (browsers), in-process otherwise
   * (Node). `assets` overrides where the files come from: a production proving key from a URL,
   * say, with its verifying key and both their sha256 (`sha256: {provingKey, verifyingKey}`).
   * Every file is checked against its sha256 before it is used (the package pins its own), and
   * the proving key against the verifying key once loaded: a file changed anywhere is refused.
   * A browser keeps the checked files in Cache Storage (`cacheName`): a second load reads them
   * from there, checked again, and fetches again a copy that is not the pinned one.
   * `onProgress` is told the bytes received and the stages ("downloading", "loading keys",
   * "ready"), a few times a second.
   */
  static async load(opts: {
    assets?: Partial<Omit<ProverAssets, "sha256">> & { sha256?: Partial<Record<AssetName, string>> };
    worker?: boolean;
    onProgress?: (p: LoadProgress) => void;
  } = {}): Promise<Prover> {
    const assets = assetsWith(opts.assets);
    if (opts.worker ?? typeof Worker !== "undefined") {
      const worker = new Worker(new URL("./prover-worker.js", import.meta.url), { type: "module" });
      let next = 0;
      const waiting = new Map<number, { resolve: (v: string) => void; reject: (e: Error) => void }>();
      let failed: Error | undefined;
      worker.onmessage = (e: MessageEvent<{ id: number; result?: string; error?: string; progress?: LoadProgress }>) => {
        if (e.data.progress) {
          opts.onProgress?.(e.data.progress);
          return;
        }
        const w = waiting.get(e.data.id);
        waiting.delete(e.data.id);
        if (e.data.error !== undefined) w?.reject(new Error(e.data.error));
        else w?.resolve(e.data.result!);
      };
      // A worker that cannot start (its script not found, a syntax error, a CSP refusal) fails
      // every call at once, with a clear error, instead of leaving them waiting for ever.
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault?.();
        failed = new Error(`the prover's worker failed: ${e.message || "its script did not load"} (prover-worker.js, next to prover.js)`);
        for (const w of waiting.values()) w.reject(failed);
        waiting.clear();
        worker.terminate();
      };
      const send = (fn: string, arg: unknown) =>
        new Promise<string>((resolve, reject) => {
          if (failed) return reject(failed);
          const id = next++;
          waiting.set(id, { resolve, reject });
          worker.postMessage({ id, fn, args: [arg] });
        });
      try {
        await send("load", assets);
      } catch (e) {
        worker.terminate(); // a prover that did not load leaves nothing running
        throw e;
      }
      return new Prover(send, () => worker.terminate());
    }
    const raw: RawProver = await startRuntime(assets, opts.onProgress);
    return new Prover(async (fn, arg) => raw[fn](arg), () => {});
  }

  /** A fresh card for amount of token (secrets from crypto.getRandomValues). */
  async newNote(n: { chainId: number; vault: string; token: string; amount: bigint | string }): Promise<Note> {
    return answer<Note>(await this.call("newNote", JSON.stringify({ ...n, amount: String(n.amount) })));
  }

  /** Reads a card string (one `card create` printed, say). */
  async parseCard(card: string): Promise<Note> {
    return answer<Note>(await this.call("parseCard", card));
  }

  /** Proves the reveal of a card (all of it, or amount) to recipient: the relayer's request. */
  async prove(p: ProveInput): Promise<ProveOutput> {
    const input = { ...p, amount: p.amount === undefined ? undefined : String(p.amount) };
    return answer<ProveOutput>(await this.call("prove", JSON.stringify(input)));
  }

  /** Stops the worker. */
  terminate(): void {
    this.stop();
  }
}

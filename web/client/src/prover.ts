// @vaultd/client/prover: make a card and prove its reveal where its secrets are, in the page (Web
// Workers) or in Node (worker threads), with the project's own circuit compiled to WebAssembly.
// The proofs are the snarkjs JSON the relayer and zk.Verify accept; cards are the strings
// `card create` prints and `card redeem` reads.
import type { RevealRequest } from "./index.js";
import { nearlyArrived, SectionedKey } from "./key.js";
import { decodedPointsFrom, keepDecodedPoints } from "./decoded.js";
import { answer, assetsWith, openCache, startRuntime, type AssetName, type LoadProgress, type Prefetched, type ProverAssets, type RawProver, type SharedRuntime } from "./runtime.js";
import { Dealer, sectionNames, type Call } from "./share.js";

export { approveCalldata, commitCalldata, balanceOfCalldata, isSpentCalldata, revealCalldata } from "./calldata.js";
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
  // A relayer's fee out of the amount (acceptQuote's): signal [3] then binds the recipient, the
  // fee and its receiver (feeBinding). Send the request with the same fee (revealAndWait's).
  fee?: { amount: bigint | string; receiver: string };
}

export interface ProveOutput {
  request: RevealRequest; // POST it to the relayer's /reveal
  change?: string; // after a partial reveal: the card of what is left (keep it like the first)
}

/**
 * How far a proof is: the witness being solved, then the proving key's points multiplied as
 * they arrive (the bytes of the key received, and of those the ones decoded by the workers,
 * which begin while the witness is solved), then done.
 */
export interface ProveProgress {
  stage: "solving" | "proving" | "done";
  received: number; // the proving key's bytes received (decoded), before the proof began too
  proved: number; // of them, the bytes whose points are decoded, to be multiplied
  total?: number; // the key's size, once known
  multiplied: string[]; // the key's sections multiplied in this proof (A, B1, B2, K, Z: an MSM each), in the order they were
  keyDecodedAt?: number; // when the last of the key's points was decoded (Date.now()): before this proof, if it was dealt ahead of it
  keyPoints?: "decoded" | "stored"; // decoded by the workers from the key, or copied to them decoded already (kept from an earlier load)
  // The key's end, once decided (share.ts, rawTailSooner): the rates that decided it, whether its
  // raw tail was asked for, and whether it came (the workers' CPU did not keep up with the download).
  keyTail?: { decodePerMs: number; bytesPerMs: number; asked: boolean; raw: boolean };
  warm?: boolean; // the runtime had solved a witness before this proof (a proof before it, or the warm-up: Prover.load's warmUpAfterMs)
}

// A worker running the wasm (serve.ts: a Web Worker, a Node worker thread): its calls, and how to stop it.
interface Spawned {
  call: Call;
  stop: () => void; // terminates it: its calls waiting and to come fail
  failed: () => boolean; // it stopped (its script, its runtime's exit, stop): its calls fail at once
  loaded: Promise<void>; // once it can take calls
  points: () => boolean; // once loaded: it has the point module (serve.ts), and takes a key's raw tail
}

/** The reveal prover. Load it once (a few MB of wasm), then call it. */
export class Prover {
  private key: SectionedKey;
  private helpers: Spawned[] = [];
  // The key's points dealt between the workers and kept decoded for every proof (share.ts): in a
  // browser or Node's workers from the load on, while the person makes a wallet; in-process at the first proof.
  private dealer: Dealer | undefined;
  private dealtKey: SectionedKey | undefined;
  private keeping: Promise<boolean> | undefined; // the key's points decoded, being kept for the next load
  private kept: (stored: boolean) => void = () => {};
  private storedFailed = false; // a dealer of the stored decoded points broke: decode the key from now on
  private rawTailFailed = false; // a key whose raw tail came failed: its end compressed from now on
  private progress: ((now?: boolean) => void) | undefined; // the proof under way's
  private turn: Promise<unknown> = Promise.resolve(); // proofs one after another: they share the workers' points
  private terminated = false;
  private asked = 0; // proofs asked for
  private solved = false; // the first worker's runtime has solved a witness (its code warm)
  /** Once the warm-up (Prover.load's warmUpAfterMs) has ended: true if it solved a witness, false if a proof came first or it failed. */
  warmedUp: Promise<boolean> = Promise.resolve(false);
  /**
   * Once the key's points are in Cache Storage decoded, for the next load to copy rather than
   * decode: true (kept after this load's first proof, or read from there), false where they are
   * not kept (no Cache Storage, another key than the package's, storage refused, or the prover
   * terminated first). While the points are not dealt (a key whose download failed, or a worker
   * lost, is dealt again at the next proof) it waits. A page closed before it settles leaves the
   * next load to decode the key again.
   */
  readonly pointsKept: Promise<boolean> = new Promise((resolve) => (this.kept = resolve));
  private cancelWarmUp = () => {};

  private constructor(
    private readonly call: Call,
    private readonly stop: () => void,
    private readonly assets: ProverAssets,
    private readonly cache?: Cache,
    private readonly starting?: Spawned[],
    key?: SectionedKey,
    private readonly takesRawTail = false, // the first worker has the point module: a key's raw tail may be dealt
  ) {
    // The proving key (key: its download begun by load) behind the wasm, its points dealt as
    // they arrive: a proof asked for meanwhile multiplies what has arrived while the rest comes.
    this.key = key ?? new SectionedKey(assets, cache);
    if (!starting) return;
    this.dealt();
    // Each other worker joins as it starts, the points still to come dealt to it too.
    for (const w of starting) {
      w.loaded.then(() => {
        if (this.terminated) return;
        if (this.takesRawTail && !w.points()) return w.stop(); // it could not take a key's raw tail as the others do
        this.helpers.push(w);
        this.dealer?.join(w.call);
      }).catch(() => {}); // a worker that did not start: one fewer
    }
  }

  /**
   * Loads the prover: in Web Workers where there are (browsers), in worker threads in Node
   * (node:worker_threads), in-process otherwise or with `worker: false`, and answers once it can
   * prove; its proving key then downloads in the background, its points decoded as they arrive
   * (in-process: at the first proof) and kept for every proof.
   * `assets` overrides where the files come from: a production proving key from a URL, say (a
   * ceremony's, in the sectioned format: docs/prover.md), with its sha256 (`sha256:
   * {sectionedKey}`). Every file is checked against its sha256 (the package pins its own): the
   * wasm and wasm_exec.js before they run, the key once it has arrived, and no proof made from a
   * key that is not the pinned one is answered. A browser keeps the checked files in Cache Storage (`cacheName`): a second load
   * reads them from there, checked again, and fetches again a copy that is not the pinned one.
   * `onProgress` is told the bytes received and the stages ("downloading", "starting",
   * "ready"), a few times a second. The other cores prove too: `workers` Web Workers or worker
   * threads (default: the device's cores, at most 4), each a runtime of the same wasm, share
   * the work (decoding the key's points, then each proof's multiplications); the first answers
   * once it can prove, the others join as they start. In a browser this thread begins the wasm's
   * download at once, and hands its body to the first worker, which checks and compiles it. In
   * Node a worker thread keeps the process alive only while a call waits on it.
   */
  static async load(opts: {
    assets?: Partial<Omit<ProverAssets, "sha256">> & { sha256?: Partial<Record<AssetName, string>> };
    worker?: boolean;
    workers?: number;
    onProgress?: (p: LoadProgress) => void;
    warmUpAfterMs?: number;
  } = {}): Promise<Prover> {
    const prover = await Prover.start(opts);
    // A browser's default: the person reads the card before asking for a proof.
    const after = opts.warmUpAfterMs ?? (typeof window !== "undefined" ? 1000 : undefined);
    if (after !== undefined) prover.warmUp(after);
    return prover;
  }

  private static async start(opts: Parameters<typeof Prover.load>[0] = {}): Promise<Prover> {
    const assets = assetsWith(opts.assets);
    const node = opts.worker !== false && typeof Worker === "undefined" ? await nodeThreads() : undefined;
    if (opts.worker ?? (typeof Worker !== "undefined" || node !== undefined)) {
      const start = node?.start ?? webWorker;
      // The other workers start at once and wait for the first one's compiled wasm; a proof
      // asked for before they run is dealt to those running, and they join it as they start.
      const cores = node?.cores ?? (typeof navigator !== "undefined" ? navigator.hardwareConcurrency || 1 : 1);
      const more = Math.max(0, Math.min(opts.workers ?? Math.min(cores, 4), 8) - 1);
      let share: (r: Promise<SharedRuntime>) => void = () => {};
      const shared = new Promise<SharedRuntime>((resolve) => (share = resolve));
      const helpers = Array.from({ length: more }, () => spawn(start, assets, shared));
      // The key is read on this thread (the worker's calls would stop its download: key.ts):
      // from Cache Storage at once, from the network once the wasm's last bytes are a round trip
      // away (the network not idle while the runtime starts, nor while the key's request
      // travels; the wasm not slowed by the key's bytes).
      const cache = await openCache();
      let keyMayStart: () => void = () => {};
      const key = new SectionedKey(assets, cache, new Promise<void>((resolve) => (keyMayStart = resolve)));
      // The wasm's request, asked to answered: a round trip on the page's connection (its
      // thread's own delays included, which only ask for the key sooner).
      let roundTrip: number | undefined;
      const asked = Date.now();
      const prefetched = node ? undefined : prefetchWasm(assets, cache).then((p) => ((roundTrip = Date.now() - asked), p));
      const wasmNearlyArrived = nearlyArrived(() => roundTrip);
      const lead = spawn(start, assets, undefined, (p) => {
        if (p.stage !== "downloading" || wasmNearlyArrived(p.received, p.total, p.at ?? Date.now())) keyMayStart();
        opts.onProgress?.(p);
      }, prefetched);
      try {
        await lead.loaded;
      } catch (e) {
        for (const h of helpers) h.stop(); // the others stop too
        key.stop();
        throw e;
      }
      if (more > 0) share(lead.call("runtime") as Promise<SharedRuntime>);
      return new Prover(lead.call, lead.stop, assets, cache, helpers, key, lead.points());
    }
    const raw: RawProver = await startRuntime(assets, opts.onProgress);
    const call: Call = async (fn, ...args) => (raw[fn as keyof RawProver] as (...a: unknown[]) => unknown)(...args);
    return new Prover(call, () => {}, assets, await openCache(), undefined, undefined, typeof raw.shareFeedRaw === "function");
  }

  /** A fresh card for amount of token (secrets from crypto.getRandomValues). */
  async newNote(n: { chainId: number; vault: string; token: string; amount: bigint | string }): Promise<Note> {
    return answer<Note>((await this.call("newNote", JSON.stringify({ ...n, amount: String(n.amount) }))) as string);
  }

  /** Reads a card string (one `card create` printed, say). */
  async parseCard(card: string): Promise<Note> {
    return answer<Note>((await this.call("parseCard", card)) as string);
  }

  /**
   * Proves the reveal of a card (all of it, or amount) to recipient: the relayer's request. The
   * proof begins at once and multiplies the proving key's points as they arrive; it is answered
   * only if the whole key's sha256 is the pinned one. `onProgress` is told its stages and the
   * key's bytes, a few times a second. Proofs asked for together are made one after another.
   */
  async prove(p: ProveInput, opts: { onProgress?: (p: ProveProgress) => void } = {}): Promise<ProveOutput> {
    this.asked++;
    const proof = this.turn.then(() => this.proveNow(p, opts));
    this.turn = proof.catch(() => {});
    return proof;
  }

  /**
   * The first proof of a runtime takes ~4× the next ones' witness time (in Node, 0.6 s of CPU
   * against 0.15 s): the Go heap grows from nothing, the solver's circuit is read, the engine
   * optimizes the hot code. So, afterMs after the load with no proof asked for meanwhile (the person
   * reading the card), the first worker solves a made-up card's witness, which is dropped: the
   * person's own proof then finds the code warm. A proof asked for during it waits for its end.
   */
  private warmUp(afterMs: number): void {
    this.warmedUp = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        if (this.asked > 0 || this.terminated) return resolve(false);
        const warming = this.turn.then(async () => {
          if (this.asked > 0 || this.terminated || this.solved) return false;
          const zero = "0x" + "00".repeat(19) + "01";
          const note = answer<Note>((await this.call("newNote", JSON.stringify({ chainId: 1, vault: zero, token: zero, amount: "1" }))) as string);
          const { handle } = answer<{ handle: number }>((await this.call("proveStreaming", JSON.stringify({ card: note.card, leaves: [note.leaf], recipient: zero }))) as string);
          await this.call("cancel", handle);
          this.solved = true;
          return true;
        }).catch(() => false);
        this.turn = warming;
        resolve(warming);
      }, afterMs);
      this.cancelWarmUp = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });
  }

  /**
   * The least time between two reports of a proof's bytes (its stages are reported at once): five
   * a second move a progress bar smoothly, and each is a redraw of the page, which a phone's CPU
   * pays for while it proves.
   */
  static readonly progressEvery = 200;

  private async proveNow(p: ProveInput, opts: { onProgress?: (p: ProveProgress) => void }): Promise<ProveOutput> {
    const dealer = this.dealt();
    const warm = this.solved;
    const key = this.key;
    let stage: ProveProgress["stage"] = "solving";
    let last = 0;
    let scalarsGiven = false; // the dealer's sections multiplied are this proof's (before: the last one's)
    const report = (often = false) => {
      const now = Date.now();
      if (!opts.onProgress || (often && now - last < Prover.progressEvery)) return;
      last = now;
      const multiplied = scalarsGiven ? dealer.multiplied.map((s) => sectionNames[s] ?? String(s)) : [];
      opts.onProgress({ stage, received: key.received, proved: dealer.decoded, total: key.total, multiplied, keyDecodedAt: dealer.decodedAt, keyPoints: dealer.fromStorage ? "stored" : "decoded", ...(dealer.tailDecision && { keyTail: { ...dealer.tailDecision, raw: key.rawTail } }), warm });
    };
    this.progress = (now) => report(!now);
    report();
    const fee = p.fee && { amount: String(p.fee.amount), receiver: p.fee.receiver }; // a RevealFee's quote stays here
    const input = { ...p, amount: p.amount === undefined ? undefined : String(p.amount), fee };
    // The first worker solves the witness (no pieces for it meanwhile) while the others decode
    // the key's points still arriving.
    const solving = this.call("proveStreaming", JSON.stringify(input)).then((a) => answer<{ handle: number }>(a as string).handle);
    void solving.then(() => (this.solved = true), () => {});
    dealer.busy(0, solving);
    try {
      const header = await dealer.header;
      const handle = await solving;
      stage = "proving";
      report();
      // The proof's scalars: the header read again, by the prover; the workers multiply their
      // points by them, each section once all of it has been dealt.
      answer((await this.call("layout", handle, header)) as string);
      const scalars = await this.call("scalars", handle);
      if (!(scalars instanceof Uint8Array)) answer(scalars as string); // an error
      dealer.setScalars(scalars as Uint8Array);
      scalarsGiven = true;
      // The whole key has arrived, its sha256 the pinned one (the dealer's sums wait for it).
      for (const sums of await dealer.sums()) answer((await this.call("addSums", handle, sums)) as string);
      const out = answer<ProveOutput>((await this.call("finish", handle)) as string);
      stage = "done";
      report();
      return out;
    } catch (e) {
      dealer.reset();
      void solving.then((h) => this.call("cancel", h)).catch(() => {});
      throw e;
    } finally {
      this.progress = undefined;
    }
  }

  // dealt is the dealer of the current key's points, started if there is none: none yet, the
  // key's download failed (a new one is fetched), or a worker's share was lost (dealt again to
  // the workers still running, from the key's bytes kept).
  private dealt(): Dealer {
    // A key whose raw tail came and then failed, or whose dealer broke (its bytes not the key's,
    // a point off the curve, a worker that could not take it): no raw tail is asked for again.
    this.rawTailFailed ||= (this.key.failed || this.dealer?.broken === true) && this.key.rawTail;
    if (this.key.failed) this.key = new SectionedKey(this.assets, this.cache);
    if (this.dealer && !this.dealer.broken && this.dealtKey === this.key) return this.dealer;
    // Points stored decoded that the workers could not take (a worker without the point module,
    // say) fail one proof, not every one: the key is decoded from then on.
    if (this.dealer?.broken && this.dealer.fromStorage) this.storedFailed = true;
    this.dealer?.drop();
    this.helpers = this.helpers.filter((h) => !h.failed());
    // The key's raw tail when the workers' CPU holds the proof back more than its bytes would
    // (share.ts decides), where there is one and the workers take it, unless one failed.
    const rawTail = this.takesRawTail && this.assets.rawTail && !this.rawTailFailed ? this.key : undefined;
    const d = new Dealer([this.call, ...this.helpers.map((h) => h.call)], (now) => this.progress?.(now), rawTail);
    // A failure breaks the dealer: the proof that waits on it fails. Once the workers have
    // decoded the key's points, they are kept for the next load, after the proof under way, if
    // any (copying them out takes the workers' time).
    d.deal(this.key.read(), this.storedFailed ? undefined : decodedPointsFrom(this.assets, this.cache)).then(async () => {
      if (d.fromStorage) return this.kept(true);
      if (!this.cache) return this.kept(false);
      if (this.keeping) return;
      await this.turn;
      this.keeping ??= keepDecodedPoints(d, this.assets, this.cache);
      this.kept(await this.keeping);
    }).catch(() => {});
    [this.dealer, this.dealtKey] = [d, this.key];
    return d;
  }

  /** How many workers share a proof's multiplications (1 in-process). */
  get workers(): number {
    return 1 + this.helpers.filter((h) => !h.failed()).length;
  }

  /** Stops the worker and the key's download. */
  terminate(): void {
    this.terminated = true;
    this.kept(false); // unless kept already
    this.cancelWarmUp();
    this.key.stop();
    this.stop();
    for (const h of this.starting ?? []) h.stop();
  }
}

/**
 * The wasm's download begun on this thread at once, for the first worker (a worker's own fetch
 * waits for its script to arrive and start: a round trip and more on a phone's network); none
 * when Cache Storage holds it (the worker reads it there) or the fetch fails (the worker's own
 * tells why).
 */
async function prefetchWasm(assets: ProverAssets, cache?: Cache): Promise<Prefetched | undefined> {
  try {
    if (await cache?.match(assets.wasm)) return undefined;
    const r = await fetch(assets.wasm);
    if (!r.ok || !r.body) {
      void r.body?.cancel();
      return undefined;
    }
    const headers: [string, string][] = [];
    r.headers.forEach((v, k) => headers.push([k, v]));
    return { status: r.status, headers, body: r.body };
  } catch {
    return undefined;
  }
}

// A worker's answer (serve.ts).
interface Answer {
  id: number;
  result?: unknown;
  error?: string;
  fatal?: boolean;
  progress?: LoadProgress;
}

// A thread the prover's wasm runs in, as spawn drives it: a Web Worker, or a Node worker thread.
interface Thread {
  post(message: unknown, transfer: Transferable[]): void;
  terminate(): void;
  waiting(yes: boolean): void; // a call waits on it (Node: the process stays alive meanwhile, not otherwise)
}

// How a thread is started: told its answers, and why it failed (its script, its exit).
type NewThread = (on: { answer: (a: Answer) => void; failed: (why: string) => void }) => Thread;

// webWorker starts a browser's Web Worker (prover-worker.ts; bundlers find it by this very
// expression, `new Worker(new URL(…, import.meta.url))`).
const webWorker: NewThread = (on) => {
  const worker = new Worker(new URL("./prover-worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (e: MessageEvent<Answer>) => on.answer(e.data);
  // A worker that cannot start (its script not found, a syntax error, a CSP refusal) fails
  // every call at once, with a clear error, instead of leaving them waiting for ever.
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault?.();
    on.failed(`${e.message || "its script did not load"} (prover-worker.js, next to prover.js)`);
  };
  return { post: (m, transfer) => worker.postMessage(m, transfer), terminate: () => worker.terminate(), waiting: () => {} };
};

/**
 * In Node: worker threads (prover-node-worker.ts) and the machine's cores; undefined elsewhere.
 * A thread does not keep the process alive unless a call waits on it: a script that proves and
 * ends need not terminate its Prover.
 */
async function nodeThreads(): Promise<{ start: NewThread; cores: number } | undefined> {
  if (typeof process === "undefined" || !process.versions?.node) return undefined;
  const [threads, os] = ["node:worker_threads", "node:os"]; // variables, so that bundlers for the browser leave them alone
  const { Worker: NodeWorker } = (await import(/* webpackIgnore: true */ threads)) as typeof import("node:worker_threads");
  const { availableParallelism, cpus } = (await import(/* webpackIgnore: true */ os)) as typeof import("node:os");
  const start: NewThread = (on) => {
    // None of the process's own flags: they are its script's (--input-type, say, refused in a
    // worker), and the thread runs the package's code only.
    const worker = new NodeWorker(new URL("./prover-node-worker.js", import.meta.url), { execArgv: [] });
    worker.unref();
    worker.on("message", on.answer);
    worker.on("error", (e: Error) => on.failed(e.message));
    worker.on("exit", (code: number) => on.failed(`its thread exited (${code})`));
    return {
      post: (m, transfer) => worker.postMessage(m, transfer as unknown as import("node:worker_threads").TransferListItem[]),
      terminate: () => void worker.terminate(),
      waiting: (yes) => (yes ? worker.ref() : worker.unref()),
    };
  };
  return { start, cores: availableParallelism?.() ?? cpus().length };
}

/**
 * Starts a worker with the prover (serve.ts) on a thread of start's: from the assets (the
 * wasm's response prefetched, if given: its body moves to the worker), or from another worker's
 * compiled runtime (shared) once there is one. It takes calls once loaded.
 */
function spawn(start: NewThread, assets: ProverAssets, shared?: Promise<SharedRuntime>, onProgress?: (p: LoadProgress) => void, prefetched?: Promise<Prefetched | undefined>): Spawned {
  let next = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let failed: Error | undefined;
  // fail ends the worker: every call waiting and to come fails with err, none waits for ever.
  const fail = (err: Error) => {
    failed ??= err;
    for (const w of waiting.values()) w.reject(failed);
    waiting.clear();
    thread.waiting(false);
    thread.terminate();
  };
  const thread = start({
    answer(a) {
      if (a.progress) {
        onProgress?.(a.progress);
        return;
      }
      // Its runtime exited: this call fails with the others, as a stopped worker (not with the
      // runtime's own words, "Go program has already exited").
      if (a.fatal) return fail(new Error(`the prover's worker stopped: ${a.error}`));
      const w = waiting.get(a.id);
      waiting.delete(a.id);
      if (waiting.size === 0) thread.waiting(false);
      if (a.error !== undefined) w?.reject(new Error(a.error));
      else w?.resolve(a.result);
    },
    failed: (why) => fail(new Error(`the prover's worker failed: ${why}`)),
  });
  const send = (fn: string, args: unknown[], transfer: Transferable[] = []) =>
    new Promise((resolve, reject) => {
      if (failed) return reject(failed);
      const id = next++;
      waiting.set(id, { resolve, reject });
      thread.waiting(true);
      try {
        thread.post({ id, fn, args }, transfer); // a key's piece is copied: the key keeps its own
      } catch (e) {
        waiting.delete(id);
        if (waiting.size === 0) thread.waiting(false);
        reject(e);
      }
    });
  const call: Call = (fn, ...args) => send(fn, args);
  let points = false;
  const loaded = (async () => {
    try {
      const given = await prefetched;
      let loadAnswer: unknown;
      if (!given) loadAnswer = await call("load", assets, await shared);
      else {
        loadAnswer = await send("load", [assets, await shared, given], [given.body as unknown as Transferable]).catch(async (e) => {
          // A browser that cannot move a stream to a worker: the worker fetches the wasm itself.
          if (!(e instanceof DOMException && e.name === "DataCloneError")) throw e;
          void given.body.cancel().catch(() => {});
          return call("load", assets, await shared);
        });
      }
      points = answer<{ points?: boolean }>(loadAnswer as string).points === true;
    } catch (e) {
      fail(e instanceof Error ? e : new Error(String(e))); // a prover that did not load leaves nothing running
      throw e;
    }
  })();
  loaded.catch(() => {}); // the caller awaits it, or not (a worker that does not start: one fewer)
  return { call, stop: () => fail(new Error("the prover was terminated")), failed: () => failed !== undefined, loaded, points: () => points };
}

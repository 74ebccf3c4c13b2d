// Deals a proof's multiplications between workers (docs/prover.md, "Several workers"): the
// proving key's points, as they arrive, go in pieces to whichever worker has the least work
// waiting; each worker decodes its pieces at once (a compressed point's square root is most of
// that: it runs while the first worker solves the witness), and, once the proof's scalars are
// known, multiplies a section's points when the section has been dealt; the prover adds their
// sums. Each worker is a Go runtime of its own (a Web Worker on one of the phone's cores); the
// key's layout comes from its header (zk.Layout).
import { answer } from "./runtime.js";

/** A worker's calls to its wasm (the Prover's Call). */
export type Call = (fn: string, ...args: unknown[]) => Promise<unknown>;

export interface Layout {
  headerSize: number;
  sections: { section: number; offset: number; count: number; pointSize: number }[];
}

// Points in a piece: small enough that the workers share a section evenly, large enough that
// the messages cost nothing beside the work.
const piecePoints = 512;

// The sizes of a point: G1 compressed, G1 raw, G2 raw (docs/prover.md).
const g1Compressed = 32;
const g2 = 128;

// The work a point gives a worker, in units of a raw G1 point's (its share of a multiplication):
// a compressed G1 point costs its square root as well, about as much; a G2 point's
// multiplication about 2.4 times a G1 point's (docs/prover.md, Compressed points).
const weight = (pointSize: number) => (pointSize === g1Compressed ? 2 : pointSize === g2 ? 2.4 : 1);

// The work, in the same units, of solving the witness and computing h: about a tenth of the
// proof's (0.2–0.6 s of a 2–4 s proof in the wasm), counted against the worker that does it
// while pieces are dealt (all at once from a cached key, over seconds from the network).
const busyWork = 7000;

export class Dealer {
  private readonly workers: Call[] = [];
  private readonly shares: Promise<number>[] = []; // each worker's share, once started
  private readonly waiting: number[] = []; // each worker's work dealt and not yet done
  private readonly feeds: Promise<void>[] = [];
  private readonly json: string;
  private carry = new Uint8Array(0);
  private section = 0; // index in layout.sections of the section being dealt
  private got = 0; // its points dealt
  private scalars: Uint8Array | undefined;
  private flushes: number[] = []; // sections dealt before the scalars were known
  private closed = false; // its sums asked for, or dropped: no worker joins any more
  private failed: unknown;

  /** onDone is told the key's bytes a worker has decoded, as it does. */
  constructor(workers: Call[], private readonly layout: Layout, private readonly onDone: (bytes: number) => void) {
    this.json = JSON.stringify(layout);
    for (const w of workers) this.join(w);
    this.skipEmpty();
  }

  /** Adds a worker (one that has started meanwhile): it takes a share of the points still to come. */
  join(w: Call): void {
    if (this.closed) return;
    const share = w("shareStart", this.json).then((a) => answer<{ share: number }>(a as string).share);
    this.track(share.then(() => {}));
    this.workers.push(w);
    this.shares.push(share);
    this.waiting.push(0);
    if (this.scalars) this.send(this.workers.length - 1, "shareScalars", this.scalars);
  }

  /** Counts the solving of the witness against worker i until done settles. */
  busy(i: number, done: Promise<unknown>): void {
    this.waiting[i] += busyWork;
    void done.finally(() => (this.waiting[i] -= busyWork)).catch(() => {});
  }

  /** The proof's scalars (the prover's), once known: every section dealt is then multiplied. */
  setScalars(scalars: Uint8Array): void {
    this.scalars = scalars;
    this.workers.forEach((_, i) => this.send(i, "shareScalars", scalars));
    for (const s of this.flushes) this.flush(s);
    this.flushes = [];
  }

  /** Deals the key's next bytes (after its header): whole points now, a split one with the next. */
  push(bytes: Uint8Array): void {
    if (this.failed) throw this.failed;
    let b = this.carry.length ? join(this.carry, bytes) : bytes;
    const sections = this.layout.sections;
    while (b.length > 0) {
      if (this.section === sections.length) throw new Error("the proving key has bytes after its last section");
      const s = sections[this.section];
      const n = Math.min(Math.floor(b.length / s.pointSize), s.count - this.got, piecePoints);
      if (n === 0) break;
      const piece = b.slice(0, n * s.pointSize); // its own buffer: a view would post the whole chunk's
      const w = this.waiting.indexOf(Math.min(...this.waiting));
      const work = n * weight(s.pointSize);
      this.waiting[w] += work;
      const from = this.got;
      // Calls to a worker are answered in the order they are made: its pieces, then the flush.
      this.track(this.shares[w].then(async (share) => {
        answer((await this.workers[w]("shareFeed", share, s.section, from, piece)) as string);
        this.waiting[w] -= work;
        this.onDone(piece.length);
      }));
      b = b.subarray(piece.length);
      this.got += n;
      if (this.got === s.count) {
        if (this.scalars) this.flush(s.section);
        else this.flushes.push(s.section);
        this.section++;
        this.got = 0;
        this.skipEmpty();
      }
    }
    this.carry = b.slice(); // less than a point: kept (copied: the chunk may be reused)
  }

  /** Once the whole key has been dealt: every worker's sums, for the prover's addSums. */
  async sums(): Promise<string[]> {
    const sections = this.layout.sections;
    if (!this.scalars) throw new Error("the proof's scalars were never given");
    if (this.section < sections.length || this.carry.length) {
      const s = sections[Math.min(this.section, sections.length - 1)];
      throw new Error(`the proving key ends in section ${s.section} (${this.got} of ${s.count} points)`);
    }
    this.closed = true;
    await Promise.all(this.feeds);
    if (this.failed) throw this.failed;
    return Promise.all(this.workers.map(async (w, i) => (await w("shareSums", await this.shares[i])) as string));
  }

  /** Drops every worker's share (a proof that failed). */
  drop(): void {
    this.closed = true;
    this.workers.forEach((w, i) => void this.shares[i].then((share) => w("shareSums", share)).catch(() => {}));
  }

  // Every worker multiplies its points of section s, after the pieces sent before.
  private flush(section: number): void {
    this.workers.forEach((_, i) => this.send(i, "shareFlush", section));
  }

  // send calls fn on worker i's share, after the calls made before (calls to a worker are
  // answered in the order they are made).
  private send(i: number, fn: string, arg: unknown): void {
    this.track(this.shares[i].then(async (share) => void answer((await this.workers[i](fn, share, arg)) as string)));
  }

  private track(p: Promise<void>): void {
    p.catch((e) => (this.failed ??= e));
    this.feeds.push(p);
  }

  private skipEmpty(): void {
    while (this.section < this.layout.sections.length && this.layout.sections[this.section].count === 0) this.section++;
  }
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

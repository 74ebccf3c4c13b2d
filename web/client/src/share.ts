// Deals the proving key's points between workers (docs/prover.md, "Several workers"), once, as
// the key arrives: its points go in pieces to whichever worker has room (a few pieces waiting
// at most, so a worker that starts late or runs slower takes fewer), each worker decodes
// its pieces at once (a compressed point's square root is most of that) and keeps them decoded
// for every proof after. A proof gives every worker its scalars; each multiplies a section's
// points once the section has been dealt, and the prover adds their sums. Each worker is a Go
// runtime of its own (a Web Worker on one of the phone's cores); the key's layout comes from its
// header (zk.Layout).
import type { RawTailChunk } from "./key.js";
import { decodedSize, type DecodedPoints } from "./points.js";
import { answer, concat } from "./runtime.js";

/** A worker's calls to its wasm (the Prover's Call). */
export type Call = (fn: string, ...args: unknown[]) => Promise<unknown>;

export interface Layout {
  headerSize: number;
  sections: { section: number; offset: number; count: number; pointSize: number }[];
}

// Points in a piece: small enough that the workers share a section evenly, large enough that
// the messages cost nothing beside the work.
const piecePoints = 512;

// Calls waiting at a worker before it is given another piece: enough that it never waits for
// the page's thread between pieces (a piece of compressed points is ~20 ms of a worker's work
// on this machine's cores; a phone's page thread may take 100 ms to answer), few enough that the
// pieces go where the cores are free. The first worker, which solves each proof's witness, keeps
// fewer: a proof asked for while the key arrives waits behind them.
const room = 6;
const leadRoom = 2;

/** The key's sections by number (docs/prover.md): the vectors a proof multiplies, one MSM each. */
export const sectionNames: Record<number, string> = { 1: "A", 2: "B1", 3: "B2", 4: "K", 5: "Z" };

interface Worker {
  call: Call;
  room: number; // calls it may have waiting before it is given a piece
  begin: (layout: string) => void; // starts its share, once the key's layout is known
  share: Promise<number>; // its share, once started
  waiting: number; // its calls not yet answered, its proof's solving counted as room
}

interface Piece {
  fn: "shareFeed" | "shareFeedRaw" | "shareLoad"; // points as in the key, to decode; raw (its raw tail's); or decoded already
  section: number;
  from: number;
  count: number;
  bytes: Uint8Array;
  keyBytes: number; // the bytes of its points in the key
  last: boolean; // its section's last
}

// The raw tail's points: G1 uncompressed (docs/prover.md).
const rawG1Size = 64;

// decompresses is whether a piece is compressed G1 points, a square root each.
const decompresses = (p: Piece) => p.fn === "shareFeed" && p.bytes.length === p.count * 32;

/**
 * Where a key's raw tail would begin (key.ts, SectionedKey.switchTail): its sections after B2,
 * if they are all compressed G1 ones; its points; and by when to decide (halfway through B2's
 * bytes: the tail's answer then arrives before the key reaches it, on a phone's network too).
 */
interface TailPlan {
  at: number; // the key's byte where the tail begins
  points: number; // the tail's points
  decideAt: number;
}

function tailPlan(layout: Layout): TailPlan | undefined {
  const i = layout.sections.findIndex((s) => s.section === 3); // B2
  const tail = layout.sections.slice(i + 1);
  if (i < 0 || tail.length === 0 || tail.some((s) => s.pointSize !== 32)) return undefined;
  const b2 = layout.sections[i];
  const at = b2.offset + b2.count * b2.pointSize;
  return { at, points: tail.reduce((n, s) => n + s.count, 0), decideAt: at - (b2.count * b2.pointSize) / 2 };
}

// What a proof's multiplication of a point costs the point module against decompressing one
// (a square root), measured in one Chromium thread on the dev key: decompressing 17.6 µs a
// point; the G1 MSMs 15–16 µs a point (K: 110 ms for 6,909), the G2 one 48 µs (B2: 330 ms for
// 6,902).
const g1MSMPerDecode = 0.9;
const g2MSMPerDecode = 2.7;

/**
 * rawTailSooner decides the key's end, at the rates this device has shown so far: whether the
 * work left would be done sooner with its raw tail (points uncompressed, twice the bytes of its
 * compressed tail, which take a square root each). decodeRate: the workers' points decompressed
 * a ms (their calls' own time, each worker's in parallel); byteRate: the key's bytes arriving a
 * ms; bytesBefore: the key's bytes still to come before the tail; pending: compressed points
 * received and not yet decompressed; msmG1, msmG2: the points the proof under way has still to
 * multiply (none without a proof), which share the CPU with the decompression. Compressed, the
 * end comes when the key and its tail have arrived and every point is decompressed and
 * multiplied; raw, when the key and the tail's twice as many bytes have arrived and the other
 * points are: the download and the CPU's work go on together, and the later of the two is the
 * end. Either rate unmeasured (0 or less): compressed.
 */
export function rawTailSooner(o: { tailPoints: number; bytesBefore: number; pending: number; msmG1: number; msmG2: number; decodeRate: number; byteRate: number }): boolean {
  if (!(o.byteRate > 0) || !(o.decodeRate > 0)) return false;
  const before = o.bytesBefore / o.byteRate; // ms, the key's bytes still to come before the tail
  const compressedTail = (o.tailPoints * 32) / o.byteRate;
  const cpu = (o.pending + o.msmG1 * g1MSMPerDecode + o.msmG2 * g2MSMPerDecode) / o.decodeRate; // in both
  return Math.max(before + 2 * compressedTail, cpu) < Math.max(before + compressedTail, o.tailPoints / o.decodeRate + cpu);
}

/** The key's raw tail, for a dealer that may ask for it (Prover: its SectionedKey). */
export interface RawTailSource {
  switchTail(at: number, bytes: number): boolean; // SectionedKey.switchTail
  byteRate(): number; // the key's bytes a ms as they arrived (SectionedKey.byteRate)
}

export class Dealer {
  /** The key's header, once read: what the prover reads its proof's layout from. */
  readonly header: Promise<Uint8Array>;
  /** The key's bytes decoded by the workers, its header's included. */
  decoded = 0;
  /** When the last of the key's points was decoded (Date.now()), once it was. */
  decodedAt: number | undefined;
  /** Whether the key's points were dealt decoded already (a copy kept from an earlier load), not decoded by the workers. */
  fromStorage = false;
  /** The sections multiplied in the proof under way (every worker's part of each), in the order they were. */
  multiplied: number[] = [];
  /** Whether the key's end came as its raw tail (the workers' CPU did not keep up with its download). */
  rawTail = false;
  /** The rates the key's end was decided by (rawTailSooner), once it was: points decompressed and bytes received a ms, and whether the raw tail was asked for. */
  tailDecision: { decodePerMs: number; bytesPerMs: number; asked: boolean } | undefined;
  private readonly workers: Worker[] = [];
  private readonly pieces: Piece[] = []; // cut, not yet dealt
  private readonly calls = new Set<Promise<unknown>>(); // made, not yet answered
  private layout: Layout | undefined;
  private size = Infinity; // the key's bytes, once its layout is known
  private json = "";
  private dealt: number[] = []; // the sections whose every piece is dealt
  private ended = false; // the key has been read whole (and checked)
  private keyBytes = 0; // the key's bytes read
  private scalars: Uint8Array | undefined; // the proof under way's
  private failure: unknown; // a worker's (a point that is not one, a worker stopped)
  private keyFailure: unknown; // the key's reading (its download, its sha256, its length)
  private dropped = false;
  private wake = () => {};
  private changed = this.next();
  private setHeader: (h: Uint8Array) => void = () => {};
  private headerFailed: (e: unknown) => void = () => {};
  private tail: TailPlan | undefined; // until decided
  // What the workers' decompression has shown (each given compressed points: those done and
  // their calls' own time), the raw tail's decision's rate, with the compressed points cut and
  // not yet decompressed.
  private readonly decompressed = new Map<Worker, { points: number; ms: number }>();
  private firstDecompressAt: number | undefined; // when the first were given
  private compressedPending = 0;
  private proofUnderWay = false; // its witness being solved (busy) or its scalars given, until its sums

  /**
   * onChange is told when the key's bytes arrive or are decoded (a few times a second is
   * enough), and at once (`now`) when the last of them is decoded or a section is multiplied.
   * tailSource, if given, is where the key's raw tail may be asked for: the dealer does, from
   * halfway through section B2's bytes on, once its workers have decompressed points, if the
   * proof would end sooner with it (rawTailSooner).
   */
  constructor(
    workers: Call[],
    private readonly onChange: (now?: boolean) => void = () => {},
    private readonly tailSource?: RawTailSource,
  ) {
    this.header = new Promise((resolve, reject) => ((this.setHeader = resolve), (this.headerFailed = reject)));
    this.header.catch(() => {}); // a proof awaits it, or none does
    for (const w of workers) this.join(w);
  }

  /** Whether a worker or the key failed: its points are not all there; deal the key again. */
  get broken(): boolean {
    return this.failure !== undefined || this.keyFailure !== undefined;
  }

  /**
   * Reads the key's chunks and deals them; the header is read by the first worker. Answers once
   * the whole key has been read (its sha256 is the reader's to check: `chunks` throws if it is not
   * the pinned one) and dealt; throws, and breaks the dealer, if it fails. decoded, if it
   * answers bytes, is the key's points decoded already (points.ts's DecodedPoints, section after
   * section, checked by the caller): those are dealt instead of the key's, which is still read
   * whole (its header, its sha256).
   */
  async deal(chunks: AsyncIterable<Uint8Array | RawTailChunk>, decoded?: Promise<Uint8Array | undefined>): Promise<void> {
    try {
      let head: Uint8Array[] = [];
      let length = 0;
      let need = 0;
      for await (const c of chunks) {
        if (this.dropped) return;
        const chunk = c instanceof Uint8Array ? c : c.raw;
        this.keyBytes += c instanceof Uint8Array ? c.length : c.raw.length / 2; // a raw point counted as its bytes in the key
        if (this.fromStorage || (this.failure !== undefined && this.layout)) continue; // read on, for the key's own error
        if (!(c instanceof Uint8Array) && !this.rawTail) this.rawFromHere();
        if (this.layout) {
          this.push(chunk);
          this.decideTail();
          continue;
        }
        head.push(chunk);
        length += chunk.length;
        if (length < need) continue;
        const prefix = concat(head, length);
        // The header alone goes to the worker (a cached key is one chunk of all of it).
        let a: { need?: number; layout?: Layout };
        for (;;) {
          a = answer((await this.workers[0].call("keyLayout", prefix.slice(0, Math.max(need, 4096)))) as string);
          if (a.layout || a.need! > prefix.length) break;
          need = a.need!;
        }
        if (!a.layout) {
          [head, need] = [[prefix], a.need!];
          continue;
        }
        this.start(a.layout, prefix.slice(0, a.layout.headerSize));
        if (this.dealDecoded(await decoded?.catch(() => undefined))) continue;
        this.push(prefix.subarray(a.layout.headerSize));
      }
      const sections = this.layout?.sections;
      if (!sections) throw new Error("the proving key ends in its header");
      if (this.fromStorage && this.keyBytes !== this.size) throw new Error(`the proving key has ${this.keyBytes} bytes, its layout ${this.size}`);
      if (!this.fromStorage && this.failure === undefined && (this.section < sections.length || this.carry.length)) {
        const s = sections[Math.min(this.section, sections.length - 1)];
        throw new Error(`the proving key ends in section ${s.section} (${this.cut} of ${s.count} points)`);
      }
      this.ended = true;
    } catch (e) {
      this.keyFailure ??= e;
      this.headerFailed(e);
      throw e;
    } finally {
      this.signal();
    }
  }

  /**
   * Once the whole key has been dealt and decoded: its points as the workers hold them, section
   * after section in the key's order (as `deal` takes them decoded); undefined if a worker cannot
   * give them (no point module) or holds what is not its share.
   */
  async held(): Promise<Uint8Array | undefined> {
    while (!this.dropped && this.keyFailure === undefined && !this.ended) await this.changed;
    while (!this.dropped && this.failure === undefined && this.keyFailure === undefined && this.pieces.length > 0) await this.changed;
    if (this.broken || this.dropped) return undefined;
    await Promise.all(this.calls);
    const offsets = new Map<number, { at: number; size: number; count: number; seen: number }>();
    let total = 0;
    for (const s of this.layout!.sections) {
      const size = decodedSize(s.pointSize);
      if (size === undefined) return undefined;
      offsets.set(s.section, { at: total, size, count: s.count, seen: 0 });
      total += s.count * size;
    }
    const out = new Uint8Array(total);
    for (const w of this.workers) {
      const held = await w.call("shareHeld", await w.share).catch(() => "none");
      if (!Array.isArray(held)) return undefined;
      for (const h of held as DecodedPoints[]) {
        const o = offsets.get(h.section);
        if (!o || h.points.length !== h.from.length * o.size) return undefined;
        h.from.forEach((n, i) => out.set(h.points.subarray(i * o.size, (i + 1) * o.size), o.at + n * o.size));
        o.seen += h.from.length;
      }
    }
    return [...offsets.values()].every((o) => o.seen === o.count) ? out : undefined;
  }

  /** Adds a worker (one that has started meanwhile): it takes a share of the points still to come. */
  join(call: Call): void {
    if (this.dropped) return;
    const w: Worker = { call, room: this.workers.length === 0 ? leadRoom : room, begin: () => {}, share: Promise.resolve(0), waiting: 0 };
    const layout = new Promise<string>((resolve) => (w.begin = resolve));
    w.share = layout.then(async (json) => answer<{ share: number }>((await call("shareStart", json)) as string).share);
    this.track(w.share.then(() => {}));
    this.workers.push(w);
    if (this.layout) w.begin(this.json);
    if (this.scalars) this.send(w, "shareScalars", this.scalars);
    this.dealPieces();
  }

  /** Counts worker i busy (its proof's witness being solved) until done settles: no pieces meanwhile. */
  busy(i: number, done: Promise<unknown>): void {
    this.proofUnderWay = true; // a proof's witness being solved: its multiplications to come
    const w = this.workers[i];
    w.waiting += w.room;
    void done.finally(() => {
      w.waiting -= w.room;
      this.dealPieces();
    }).catch(() => {});
  }

  /** A proof's scalars (the prover's): every section dealt is then multiplied, the others once they are. */
  setScalars(scalars: Uint8Array): void {
    if (this.scalars) throw new Error("a proof is already under way on the key's points");
    this.scalars = scalars;
    this.proofUnderWay = true;
    this.multiplied = [];
    for (const w of this.workers) this.send(w, "shareScalars", scalars);
    for (const s of this.dealt) this.flush(s);
  }

  /**
   * Once the whole key has been dealt and decoded: every worker's sums of the proof's
   * multiplications, for the prover's addSums. The workers keep their points for the next proof.
   */
  async sums(): Promise<string[]> {
    if (!this.scalars) throw new Error("the proof's scalars were never given");
    // The key read to its end first: a key changed anywhere is told as such (its sha256), not
    // as the first of its points a worker could not decode.
    while (this.keyFailure === undefined && !this.ended) await this.changed;
    if (this.keyFailure !== undefined) throw this.keyFailure;
    while (this.failure === undefined && this.pieces.length > 0) await this.changed;
    if (this.failure !== undefined) throw this.failure;
    await Promise.all(this.calls);
    const sums = await Promise.all(this.workers.map(async (w) => (await w.call("shareSums", await w.share)) as string));
    this.scalars = undefined;
    this.proofUnderWay = false;
    return sums;
  }

  /** Abandons the proof under way (one that failed): the workers keep their points. */
  reset(): void {
    this.proofUnderWay = false;
    this.multiplied = [];
    if (!this.scalars) return;
    this.scalars = undefined;
    for (const w of this.workers) this.send(w, "shareReset");
  }

  /** Frees every worker's share (a dealer replaced, or broken). */
  drop(): void {
    this.dropped = true;
    this.pieces.length = 0;
    this.signal();
    for (const w of this.workers) void w.share.then((share) => w.call("shareDrop", share)).catch(() => {});
  }

  private cut = 0; // the points of the section being cut, cut so far
  private section = 0; // index in layout.sections of the section being cut
  private carry = new Uint8Array(0);

  // start begins every share from the key's layout, read from its header.
  private start(layout: Layout, header: Uint8Array): void {
    this.layout = layout;
    this.tail = this.tailSource && tailPlan(layout);
    this.json = JSON.stringify(layout);
    for (const w of this.workers) w.begin(this.json);
    this.size = layout.sections.reduce((n, s) => n + s.count * s.pointSize, layout.headerSize);
    this.addDecoded(layout.headerSize);
    this.skipEmpty();
    this.setHeader(header);
  }

  // dealDecoded cuts the key's points decoded already (laid out as `held` gives them) into
  // pieces, if they are as many bytes as the key's layout wants: true if it did.
  private dealDecoded(points: Uint8Array | undefined): boolean {
    if (!points) return false;
    const sizes = this.layout!.sections.map((s) => decodedSize(s.pointSize));
    if (sizes.some((z) => z === undefined)) return false;
    const want = this.layout!.sections.reduce((n, s, i) => n + s.count * sizes[i]!, 0);
    if (points.length !== want) return false;
    let at = 0;
    for (const [i, s] of this.layout!.sections.entries()) {
      const size = sizes[i]!;
      for (let from = 0; from < s.count; from += piecePoints) {
        const n = Math.min(piecePoints, s.count - from);
        this.pieces.push({ fn: "shareLoad", section: s.section, from, count: n, bytes: points.slice(at, at + n * size), keyBytes: n * s.pointSize, last: from + n === s.count });
        at += n * size;
      }
    }
    this.fromStorage = true;
    this.dealPieces();
    return true;
  }

  // decideTail decides the key's end (rawTailSooner) from when its bytes are halfway through B2,
  // once each worker given compressed points has decompressed some (their rates measured, not
  // guessed), while there is time to ask: the key read up to where the tail begins, it is
  // compressed.
  private decideTail(): void {
    const t = this.tail;
    if (!t || this.keyBytes < t.decideAt || this.fromStorage || this.dropped || this.failure !== undefined || this.keyFailure !== undefined) return;
    if (this.keyBytes >= t.at) {
      this.tail = undefined; // too late to ask: a dealer reading the key back, say
      return;
    }
    // Each worker given compressed points has answered some (its rate, not a guess), then the
    // rates of the workers in parallel added: points a ms.
    let decodeRate = 0;
    let decoded = 0;
    for (const d of this.decompressed.values()) {
      if (d.points === 0) return; // the next answer decides
      if (d.ms > 0) decodeRate += d.points / d.ms;
      decoded += d.points;
    }
    // With pieces waiting for a worker with room (every worker busy), what they got through since
    // the first were given is what this device decompresses beside the rest of its work (a
    // call's own time misses the time its thread waited for the CPU, as in a throttled
    // browser's bursts).
    if (this.pieces.some(decompresses) && this.firstDecompressAt !== undefined && Date.now() > this.firstDecompressAt) {
      decodeRate = Math.min(decodeRate, decoded / (Date.now() - this.firstDecompressAt));
    }
    this.tail = undefined;
    const byteRate = this.tailSource!.byteRate();
    // The proof under way's multiplications still to do (its witness maybe still being solved):
    // every section not multiplied yet.
    let msmG1 = 0;
    let msmG2 = 0;
    if (this.proofUnderWay) for (const s of this.layout!.sections) if (!this.multiplied.includes(s.section)) s.pointSize === 128 ? (msmG2 += s.count) : (msmG1 += s.count);
    const sooner = rawTailSooner({ tailPoints: t.points, bytesBefore: t.at - this.keyBytes, pending: this.compressedPending, msmG1, msmG2, decodeRate, byteRate });
    this.tailDecision = { decodePerMs: decodeRate, bytesPerMs: byteRate, asked: sooner && this.tailSource!.switchTail(t.at, t.points * rawG1Size) };
  }

  // rawFromHere takes the key's next bytes as its raw tail: the sections still to come, raw
  // G1 points (each piece still counted as its points' bytes in the key, as the key's progress
  // is). The tail begins where a section does.
  private rawFromHere(): void {
    const sections = this.layout?.sections;
    if (!sections || this.cut !== 0 || this.carry.length !== 0 || sections.slice(this.section).some((s) => s.pointSize !== 32)) {
      throw new Error("the proving key's raw tail does not begin where its compressed sections do");
    }
    let offset = this.section < sections.length ? sections[this.section].offset : this.size;
    const raw = sections.slice(this.section).map((s) => {
      const r = { ...s, offset, pointSize: rawG1Size };
      offset += s.count * rawG1Size;
      return r;
    });
    this.layout = { ...this.layout!, sections: [...sections.slice(0, this.section), ...raw] };
    this.rawTail = true;
  }

  // push cuts the key's next bytes (after its header) into pieces: whole points now, a split one
  // with the next.
  private push(bytes: Uint8Array): void {
    if (this.failure !== undefined) return; // no use dealing more: read on, for the key's own error
    const sections = this.layout!.sections;
    let b = this.carry.length ? concat([this.carry, bytes], this.carry.length + bytes.length) : bytes;
    while (b.length > 0) {
      if (this.section === sections.length) throw new Error("the proving key has bytes after its last section");
      const s = sections[this.section];
      const n = Math.min(Math.floor(b.length / s.pointSize), s.count - this.cut, piecePoints);
      if (n === 0) break;
      // Its own buffer: a view would post the whole chunk's.
      const raw = this.rawTail && s.pointSize === rawG1Size;
      const p: Piece = { fn: raw ? "shareFeedRaw" : "shareFeed", section: s.section, from: this.cut, count: n, bytes: b.slice(0, n * s.pointSize), keyBytes: n * (raw ? 32 : s.pointSize), last: this.cut + n === s.count };
      if (decompresses(p)) this.compressedPending += n;
      this.pieces.push(p);
      b = b.subarray(n * s.pointSize);
      this.cut += n;
      if (this.cut === s.count) {
        this.section++;
        this.cut = 0;
        this.skipEmpty();
      }
    }
    this.carry = b.slice(); // less than a point: kept (copied: the chunk may be reused)
    this.onChange();
    this.dealPieces();
  }

  // dealPieces gives the pieces cut to the workers with room, the least busy first.
  private dealPieces(): void {
    while (this.pieces.length > 0 && !this.dropped && this.layout) {
      let w: Worker | undefined;
      for (const x of this.workers) if (x.waiting < x.room && (!w || x.waiting - x.room < w.waiting - w.room)) w = x;
      if (!w) return;
      const p = this.pieces.shift()!;
      const worker = w;
      if (decompresses(p)) {
        if (!this.decompressed.has(worker)) this.decompressed.set(worker, { points: 0, ms: 0 });
        this.firstDecompressAt ??= Date.now();
      }
      this.send(worker, p.fn, p.section, p.from, p.bytes).then((a) => {
        if (decompresses(p)) {
          this.compressedPending -= p.count;
          const ms = (a as { ms?: number }).ms; // the module's time (points.ts); none from the Go wasm's
          const d = this.decompressed.get(worker)!;
          if (ms !== undefined) [d.points, d.ms] = [d.points + p.count, d.ms + ms];
          this.decideTail();
        }
        this.addDecoded(p.keyBytes);
      }, () => {});
      if (p.last) {
        this.dealt.push(p.section);
        if (this.scalars) this.flush(p.section);
      }
    }
  }

  // Every worker multiplies its points of a section, after the pieces sent before.
  private flush(section: number): void {
    const scalars = this.scalars;
    void Promise.all(this.workers.map((w) => this.send(w, "shareFlush", section))).then(() => {
      if (this.scalars !== scalars) return; // a proof abandoned meanwhile
      this.multiplied.push(section);
      this.onChange(true);
    }, () => {});
  }

  private addDecoded(bytes: number): void {
    this.decoded += bytes;
    const all = this.decoded === this.size;
    if (all) this.decodedAt ??= Date.now();
    this.onChange(all);
  }

  // send calls fn on a worker's share, after the calls made to it before (calls to a worker are
  // answered in the order they are made); a call waiting counts against the worker's room.
  private send(w: Worker, fn: string, ...args: unknown[]): Promise<unknown> {
    w.waiting++;
    const call = w.share.then(async (share) => answer((await w.call(fn, share, ...args)) as string));
    const done = call.finally(() => {
      w.waiting--;
      this.dealPieces();
    });
    this.track(done);
    return done;
  }

  private track(p: Promise<unknown>): void {
    this.calls.add(p);
    p.catch((e) => this.fail(e)).finally(() => {
      this.calls.delete(p);
      this.signal();
    });
  }

  private fail(e: unknown): void {
    this.failure ??= e;
    this.headerFailed(e);
    this.pieces.length = 0;
    this.signal();
  }

  private next(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private signal(): void {
    const wake = this.wake;
    this.changed = this.next();
    wake();
  }

  private skipEmpty(): void {
    while (this.section < this.layout!.sections.length && this.layout!.sections[this.section].count === 0) this.section++;
  }
}

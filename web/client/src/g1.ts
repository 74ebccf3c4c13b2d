// A compressed key's G1 points, decoded and multiplied by a small WebAssembly module of the
// project's own (service/vault/zk/g1module, written at build into g1module.gen.ts) rather than by
// the Go wasm, which has no 64-bit multiply-high and is ~3× slower at square roots, ~2× at
// multi-scalar multiplication. A worker's share keeps its G1 points in the module's memory and
// multiplies them there; the Go wasm's share keeps the G2 points (section B2) and the proof.
// docs/prover.md, "The G1 points in a module of our own".
import { g1ModuleBase64 } from "./g1module.gen.js";
import type { RawProver } from "./runtime.js";

const bufferAt = 4096; // g1module.BufferAt: below it, the module's own constants and working space
const compressedSize = 32;
const affineSize = 144; // a point as the module keeps it: x, y in Montgomery form
const jacobianSize = 216;
const scalarSize = 32;

interface G1Exports {
  memory: WebAssembly.Memory;
  decodeAffine(src: number, dst: number, n: number): number;
  msm(points: number, digits: number, n: number, c: number, windows: number, buckets: number, out: number): void;
  add(p: number, q: number): void;
  toAffine(p: number, dst: number): void;
}

/** The module, compiled and instantiated: one a worker. */
export async function g1Module(): Promise<G1Exports> {
  const bytes = Uint8Array.from(atob(g1ModuleBase64), (c) => c.charCodeAt(0));
  return (await WebAssembly.instantiate(bytes)).instance.exports as unknown as G1Exports;
}

// windowBits is the window of the bucket method for n points: measured in Node on the 2-core
// machine (n 1 000: 7–8 bits; 3 500 and 5 000: 8–9).
const windowBits = (n: number) => (n <= 16 ? 2 : n <= 64 ? 4 : n <= 256 ? 5 : n <= 1024 ? 7 : n <= 4096 ? 8 : 9);

interface Section {
  count: number; // the section's points in the key
  scalarsAt: number; // its first scalar's offset in a proof's scalars
  points: number; // where this share's points of it are, in the module's memory
  from: Int32Array; // their numbers in the section, in the order held
  held: number;
  done: number; // of them, multiplied in the proof under way
  sum: number; // where their sum is (Jacobian)
}

/** A worker's share of a compressed key's G1 sections, in the module's memory. */
class G1Share {
  sections = new Map<number, Section>();
  scalars: Uint8Array | undefined;

  constructor(
    private readonly g1: G1Memory,
    layout: { sections: { section: number; count: number; pointSize: number }[] },
  ) {
    let at = 0;
    for (const s of layout.sections) {
      if (s.pointSize === compressedSize) {
        this.sections.set(s.section, { count: s.count, scalarsAt: at, points: g1.alloc(affineSize * s.count), from: new Int32Array(s.count), held: 0, done: 0, sum: g1.alloc(jacobianSize) });
      }
      at += s.count * scalarSize;
    }
  }

  // feed decodes points of a section from its point number from on: false if the module
  // refused one (the Go wasm says why).
  feed(number: number, section: Section, from: number, points: Uint8Array): boolean {
    const n = points.length / compressedSize;
    if (!Number.isInteger(n) || from < 0 || from + n > section.count || section.held + n > section.count) {
      throw new Error(`share: ${points.length} bytes from point ${from} of section ${number} (${section.count} points of ${compressedSize} bytes, ${section.held} held)`);
    }
    const src = this.g1.scratch(points.length);
    new Uint8Array(this.g1.exports.memory.buffer).set(points, src);
    if (this.g1.exports.decodeAffine(src, section.points + affineSize * section.held, n) !== -1) return false;
    for (let i = 0; i < n; i++) section.from[section.held + i] = from + i;
    section.held += n;
    return true;
  }

  // flush multiplies the section's points not yet multiplied in this proof, and adds them to its sum.
  flush(section: Section): void {
    const n = section.held - section.done;
    if (n === 0) return;
    if (!this.scalars) throw new Error("share: no scalars given (SetScalars) to multiply the points by");
    const c = windowBits(n);
    const windows = Math.ceil(254 / c);
    const digits = this.g1.scratch(2 * windows * n + jacobianSize * (1 << c) + jacobianSize);
    const buckets = digits + 2 * windows * n;
    const out = buckets + jacobianSize * (1 << c);
    const d = new Uint16Array(this.g1.exports.memory.buffer, digits, windows * n);
    const s = this.scalars;
    const words = new Uint32Array(9);
    for (let i = 0; i < n; i++) {
      // The scalar, big-endian, as little-endian 32-bit words (and a 0 above, for the last window).
      const at = section.scalarsAt + scalarSize * section.from[section.done + i];
      for (let k = 0; k < 8; k++) words[k] = ((s[at + 28 - 4 * k] << 24) | (s[at + 29 - 4 * k] << 16) | (s[at + 30 - 4 * k] << 8) | s[at + 31 - 4 * k]) >>> 0;
      for (let w = 0; w < windows; w++) {
        const bit = w * c;
        const lo = words[bit >>> 5] >>> (bit & 31);
        const hi = (bit & 31) + c > 32 ? words[(bit >>> 5) + 1] << (32 - (bit & 31)) : 0;
        d[w * n + i] = (lo | hi) & ((1 << c) - 1);
      }
    }
    const e = this.g1.exports;
    e.msm(section.points + affineSize * section.done, digits, n, c, windows, buckets, out);
    if (section.done === 0) new Uint8Array(e.memory.buffer, section.sum, jacobianSize).fill(0); // infinity
    e.add(section.sum, out);
    section.done += n;
  }

  // sums flushes every section and gives their sums (as the Go wasm's shareSums: raw points,
  // base64), ready for the next proof.
  sums(): { section: number; count: number; point: string }[] {
    const out = [];
    for (const [number, s] of this.sections) {
      this.flush(s);
      if (s.done === 0) continue;
      const raw = this.g1.scratch(64);
      this.g1.exports.toAffine(s.sum, raw);
      out.push({ section: number, count: s.done, point: btoa(String.fromCharCode(...new Uint8Array(this.g1.exports.memory.buffer, raw, 64))) });
    }
    this.reset();
    return out;
  }

  reset(): void {
    this.scalars = undefined;
    for (const s of this.sections.values()) s.done = 0;
  }
}

/** The module's memory: the shares' points, and scratch space for a call. */
class G1Memory {
  private top = bufferAt;
  private scratchAt = 0;
  private scratchSize = 0;
  shares = 0;
  constructor(readonly exports: G1Exports) {}

  private grow(to: number): void {
    const m = this.exports.memory;
    if (to > m.buffer.byteLength) m.grow(Math.ceil((to - m.buffer.byteLength) / 65536));
  }

  alloc(bytes: number): number {
    if (this.scratchSize) [this.top, this.scratchSize] = [this.scratchAt, 0]; // scratch goes above
    const at = this.top;
    this.top += bytes;
    this.grow(this.top);
    return at;
  }

  scratch(bytes: number): number {
    if (bytes > this.scratchSize) {
      this.scratchAt = this.top;
      this.scratchSize = bytes;
      this.grow(this.scratchAt + bytes);
    }
    return this.scratchAt;
  }

  // dropped frees every share's memory once none is left.
  dropped(): void {
    if (--this.shares === 0) [this.top, this.scratchSize] = [bufferAt, 0];
  }
}

/**
 * The prover's functions with a compressed key's G1 points decoded and multiplied by the module:
 * the Go wasm's shares get the G2 points only, and a share's sums are the Go wasm's and the
 * module's. Points the module refuses (not points, or outside their section) go to the Go wasm
 * as they came, whose error says which and why.
 */
export function withG1(raw: RawProver, exports: G1Exports): RawProver {
  const g1 = new G1Memory(exports);
  const shares = new Map<number, G1Share>();
  const json = (v: unknown) => JSON.stringify(v);
  return {
    ...raw,
    shareStart(layout) {
      const answer = raw.shareStart(layout);
      const { share } = JSON.parse(answer) as { share?: number };
      const l = JSON.parse(layout) as { version: number; sections: { section: number; count: number; pointSize: number }[] };
      if (share !== undefined && l.version === 2) {
        g1.shares++;
        shares.set(share, new G1Share(g1, l));
      }
      return answer;
    },
    shareFeed(share, section, from, points) {
      const sh = shares.get(share);
      const s = sh?.sections.get(section);
      if (!sh || !s) return raw.shareFeed(share, section, from, points);
      try {
        return sh.feed(section, s, from, points) ? "{}" : raw.shareFeed(share, section, from, points);
      } catch (e) {
        return json({ error: String((e as Error).message ?? e) });
      }
    },
    shareScalars(share, scalars) {
      const answer = raw.shareScalars(share, scalars);
      const sh = shares.get(share);
      if (sh && !("error" in JSON.parse(answer))) sh.scalars = scalars.slice();
      return answer;
    },
    shareFlush(share, section) {
      const sh = shares.get(share);
      const s = sh?.sections.get(section);
      if (!sh || !s) return raw.shareFlush(share, section);
      try {
        sh.flush(s);
        return "{}";
      } catch (e) {
        return json({ error: String((e as Error).message ?? e) });
      }
    },
    shareSums(share) {
      const sh = shares.get(share);
      if (!sh) return raw.shareSums(share);
      let sums;
      try {
        sums = sh.sums();
      } catch (e) {
        sh.reset();
        raw.shareReset(share);
        return json({ error: String((e as Error).message ?? e) });
      }
      const answer = JSON.parse(raw.shareSums(share)) as { sums?: unknown[]; error?: string };
      if (answer.error !== undefined) return json(answer);
      return json({ sums: [...(answer.sums ?? []), ...sums] });
    },
    shareReset(share) {
      shares.get(share)?.reset();
      return raw.shareReset(share);
    },
    shareDrop(share) {
      if (shares.delete(share)) g1.dropped();
      return raw.shareDrop(share);
    },
  };
}

// The proving key's points, decoded and multiplied by a small WebAssembly module of the project's
// own (service/vault/zk/pointwasm, written at build into pointwasm.gen.ts) rather than by the Go
// wasm, which has no 64-bit multiply-high: ~4× slower at the square roots of the compressed G1
// points, ~2× at multi-scalar multiplications. A worker's share keeps its points in the module's
// memory and multiplies them there; the Go wasm solves the witness, computes h, gives the scalars
// and makes the proof from the shares' sums. docs/prover.md, "The points in a module of our own".
import { pointWasmBase64 } from "./pointwasm.gen.js";
import type { DecodedPoints, RawProver } from "./raw.js";

const bufferAt = 8192; // pointwasm.BufferAt: below it, the module's own constants and working space
const scalarSize = 32;
const frSize = 32; // a scalar as gnark-crypto keeps it in memory: the quotient's elements
// r, the scalar field's order, big-endian: a scalar given is below it (as the Go wasm checks).
const r = Uint8Array.from("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001".match(/../g)!, (h) => parseInt(h, 16));

// belowR reports whether the 32 big-endian bytes at at are below r.
function belowR(b: Uint8Array, at: number): boolean {
  for (let i = 0; i < scalarSize; i++) if (b[at + i] !== r[i]) return b[at + i] < r[i];
  return false;
}

interface Exports {
  memory: WebAssembly.Memory;
  decodeAffine(src: number, dst: number, n: number): number;
  loadG1(src: number, dst: number, n: number): number;
  loadG2(src: number, dst: number, n: number): number;
  msm(points: number, digits: number, n: number, c: number, windows: number, scratch: number, out: number): void;
  msmG2(points: number, digits: number, n: number, c: number, windows: number, scratch: number, out: number): void;
  msmScratch(c: number, windows: number): number;
  msmScratchG2(c: number, windows: number): number;
  add(p: number, q: number): void;
  addG2(p: number, q: number): void;
  toAffine(p: number, dst: number): void;
  toAffineG2(p: number, dst: number): void;
  quotient(input: number, n: number, logn: number, work: number): void;
  quotientScratch(n: number): number;
}

/** The module compiled: once a page, its workers instantiating the same (SharedRuntime's points). */
export function compilePointModule(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(Uint8Array.from(atob(pointWasmBase64), (c) => c.charCodeAt(0)));
}

/**
 * The module instantiated, one a worker: from compiled, the one the first worker compiled (the
 * engine then optimizes its hot functions once for every worker, not once each), or compiled
 * here.
 */
export async function pointModule(compiled?: WebAssembly.Module): Promise<Exports> {
  return (await WebAssembly.instantiate(compiled ?? (await compilePointModule()))).exports as unknown as Exports;
}

// A group's points in the module: as the key gives them (compressed or raw G1, raw G2), as the module
// keeps them (affine, Montgomery form), their sums (Jacobian) and as the Go wasm takes a sum (raw).
interface Group {
  inSize: number;
  affineSize: number;
  jacobianSize: number;
  rawSize: number;
  load: (e: Exports) => (src: number, dst: number, n: number) => number;
  msm: (e: Exports) => Exports["msm"];
  msmScratch: (e: Exports) => Exports["msmScratch"];
  add: (e: Exports) => Exports["add"];
  toAffine: (e: Exports) => Exports["toAffine"];
}
const g1: Group = { inSize: 32, affineSize: 144, jacobianSize: 216, rawSize: 64, load: (e) => e.decodeAffine, msm: (e) => e.msm, msmScratch: (e) => e.msmScratch, add: (e) => e.add, toAffine: (e) => e.toAffine };
const g1Raw: Group = { ...g1, inSize: 64, load: (e) => e.loadG1 };
const g2: Group = { inSize: 128, affineSize: 288, jacobianSize: 432, rawSize: 128, load: (e) => e.loadG2, msm: (e) => e.msmG2, msmScratch: (e) => e.msmScratchG2, add: (e) => e.addG2, toAffine: (e) => e.toAffineG2 };
// groupOf is the group of a section in a key's layout, by the size of its points: the G1
// sections, compressed (version 2) or raw (version 1), and the raw G2 section (B2).
const groupOf = (pointSize: number) => [g1, g1Raw, g2].find((g) => g.inSize === pointSize);

// windowBits is the window of the bucket method for n points: measured in Node on the 2-core
// machine (G1: n 1 000, 7–8 bits; 3 500 and 5 000, 8–9; with the batched affine buckets and
// signed digits, whole sections of ~7 000 points, 8, 9 and 10 bits the same). At most 15 bits
// (msm's digits carry their sign in their top bit).
const windowBits = (n: number) => (n <= 16 ? 2 : n <= 64 ? 4 : n <= 256 ? 5 : n <= 1024 ? 7 : n <= 4096 ? 8 : 9);

interface Section {
  group: Group;
  count: number; // the section's points in the key
  scalarsAt: number; // its first scalar's offset in a proof's scalars
  points: number; // where this share's points of it are, in the module's memory
  from: Int32Array; // their numbers in the section, in the order held
  held: number;
  done: number; // of them, multiplied in the proof under way
  sum: number; // where their sum is (Jacobian)
}

/**
 * A worker's share of a key's sections, in the module's memory: room for every point of each
 * section it takes (5.9 MB for the dev key), as the share cannot know which of them it will be
 * dealt.
 */
class Share {
  sections = new Map<number, Section>();
  scalars: Uint8Array | undefined;
  // Whether the Go wasm's share holds points (those the module does not take), and so needs a
  // proof's scalars, and whether it has this proof's: converting them takes the Go wasm ~10 ms
  // a proof, for nothing when it holds none.
  goHolds = false;
  goScalars = false;
  private readonly scalarBytes: number;

  constructor(
    private readonly memory: ModuleMemory,
    layout: { sections: { section: number; count: number; pointSize: number }[] },
  ) {
    let at = 0;
    for (const s of layout.sections) {
      const group = groupOf(s.pointSize);
      if (group) {
        this.sections.set(s.section, { group, count: s.count, scalarsAt: at, points: memory.alloc(group.affineSize * s.count), from: new Int32Array(s.count), held: 0, done: 0, sum: memory.alloc(group.jacobianSize) });
      }
      at += s.count * scalarSize;
    }
    this.scalarBytes = at;
  }

  // feed decodes points of a section from its point number from on, in its group's encoding
  // (or in group's: raw G1, the key's raw tail): the module's answer, -1 if it took them all,
  // else 4 × the first refused one's index plus why (the Go wasm says why in words).
  feed(number: number, section: Section, from: number, points: Uint8Array, group = section.group): number {
    const size = group.inSize;
    const n = points.length / size;
    if (!Number.isInteger(n) || from < 0 || from + n > section.count || section.held + n > section.count) {
      throw new Error(`share: ${points.length} bytes from point ${from} of section ${number} (${section.count} points of ${size} bytes, ${section.held} held)`);
    }
    const src = this.memory.scratch(points.length);
    new Uint8Array(this.memory.exports.memory.buffer).set(points, src);
    const answer = group.load(this.memory.exports)(src, section.points + group.affineSize * section.held, n);
    if (answer !== -1) return answer;
    for (let i = 0; i < n; i++) section.from[section.held + i] = from + i;
    section.held += n;
    return -1;
  }

  // load copies points of a section, already decoded (affine, as the module keeps them), from
  // its point number from on.
  load(number: number, section: Section, from: number, affine: Uint8Array): void {
    const size = section.group.affineSize;
    const n = affine.length / size;
    if (!Number.isInteger(n) || from < 0 || from + n > section.count || section.held + n > section.count) {
      throw new Error(`share: ${affine.length} decoded bytes from point ${from} of section ${number} (${section.count} points of ${size} bytes, ${section.held} held)`);
    }
    new Uint8Array(this.memory.exports.memory.buffer).set(affine, section.points + size * section.held);
    for (let i = 0; i < n; i++) section.from[section.held + i] = from + i;
    section.held += n;
  }

  // held is a copy of each section's points held, decoded, with their numbers in the section.
  held(): DecodedPoints[] {
    const buffer = this.memory.exports.memory.buffer;
    return [...this.sections].map(([section, s]) => ({ section, from: s.from.slice(0, s.held), points: new Uint8Array(buffer, s.points, s.held * s.group.affineSize).slice() }));
  }

  // setScalars keeps a proof's scalars, once the Go wasm has taken them (each below r, once a
  // proof, the length its layout says).
  setScalars(scalars: Uint8Array): void {
    if (this.scalars) throw new Error("share: its scalars were already given");
    if (scalars.length !== this.scalarBytes) throw new Error(`share: ${scalars.length} bytes of scalars for a layout of ${this.scalarBytes}`);
    for (let at = 0; at < scalars.length; at += scalarSize) {
      if (!belowR(scalars, at)) throw new Error(`share: scalar ${at / scalarSize} is not below the scalar field's order`);
    }
    this.scalars = scalars.slice();
  }

  // flush multiplies the section's points not yet multiplied in this proof, and adds them to its sum.
  flush(section: Section): void {
    const n = section.held - section.done;
    if (n === 0) return;
    if (!this.scalars) throw new Error("share: no scalars given (SetScalars) to multiply the points by");
    const { group } = section;
    const c = windowBits(n);
    const windows = Math.ceil(255 / c); // a bit more than r's 254: the signed top digit's carry
    const scratchSize = group.msmScratch(this.memory.exports)(c, windows); // the buckets, every window's at once
    const digitBytes = (2 * windows * n + 7) & ~7; // the buckets 8-byte aligned after them
    const digits = this.memory.scratch(digitBytes + scratchSize + group.jacobianSize);
    const scratch = digits + digitBytes;
    const out = scratch + scratchSize;
    const d = new Uint16Array(this.memory.exports.memory.buffer, digits, windows * n);
    const s = this.scalars;
    const words = new Uint32Array(9);
    for (let i = 0; i < n; i++) {
      // The scalar, big-endian, as little-endian 32-bit words (and a 0 above, for the last window).
      const at = section.scalarsAt + scalarSize * section.from[section.done + i];
      for (let k = 0; k < 8; k++) words[k] = ((s[at + 28 - 4 * k] << 24) | (s[at + 29 - 4 * k] << 16) | (s[at + 30 - 4 * k] << 8) | s[at + 31 - 4 * k]) >>> 0;
      // Signed digits (msm's): a digit above 2^(c−1) is taken less 2^c, and 1 carried to the next.
      let carry = 0;
      for (let w = 0; w < windows; w++) {
        const bit = w * c;
        const lo = words[bit >>> 5] >>> (bit & 31);
        const hi = (bit & 31) + c > 32 ? words[(bit >>> 5) + 1] << (32 - (bit & 31)) : 0;
        let digit = ((lo | hi) & ((1 << c) - 1)) + carry;
        carry = digit > 1 << (c - 1) ? 1 : 0;
        if (carry) digit -= 1 << c;
        d[w * n + i] = digit < 0 ? 0x8000 | -digit : digit;
      }
    }
    const e = this.memory.exports;
    group.msm(e)(section.points + group.affineSize * section.done, digits, n, c, windows, scratch, out);
    if (section.done === 0) new Uint8Array(e.memory.buffer, section.sum, group.jacobianSize).fill(0); // infinity
    group.add(e)(section.sum, out);
    section.done += n;
  }

  // sums flushes every section and gives their sums (as the Go wasm's shareSums: raw points,
  // base64), ready for the next proof.
  sums(): { section: number; count: number; point: string }[] {
    const out = [];
    for (const [number, s] of this.sections) {
      this.flush(s);
      if (s.done === 0) continue;
      const raw = this.memory.scratch(s.group.rawSize);
      s.group.toAffine(this.memory.exports)(s.sum, raw);
      out.push({ section: number, count: s.done, point: btoa(String.fromCharCode(...new Uint8Array(this.memory.exports.memory.buffer, raw, s.group.rawSize))) });
    }
    this.reset();
    return out;
  }

  reset(): void {
    this.scalars = undefined;
    this.goScalars = false; // the Go wasm's share resets with it (shareSums, shareReset)
    for (const s of this.sections.values()) s.done = 0;
  }
}

export type { DecodedPoints } from "./raw.js";

// Why the module refused a raw point (its answer's low two bits: pointwasm.Reason; the second
// comes from compressed points only).
const rawRefusals = ["is not in the raw encoding", "is infinity with a coordinate", "has a coordinate not below the field's modulus", "is not on the curve"];

/** The size of a section's point decoded by the module, for its size in the key (undefined: the Go wasm keeps it). */
export const decodedSize = (pointSize: number): number | undefined => groupOf(pointSize)?.affineSize;

/** The module's memory: the shares' points, and scratch space for a call. */
class ModuleMemory {
  private top = bufferAt;
  private scratchAt = 0;
  private scratchSize = 0;
  constructor(readonly exports: Exports) {}

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

  // reset frees every share's memory (none is left).
  reset(): void {
    [this.top, this.scratchSize] = [bufferAt, 0];
  }
}

/**
 * The prover's functions with a key's points decoded (or, raw, loaded) and multiplied by the
 * module: the Go wasm's shares get no point of them, and a share's sums are the module's (and
 * the Go wasm's, for points it keeps). Points the module refuses go to the Go wasm as they
 * came, whose error says which and why. As in the Go wasm, a share that is given what is not its
 * points (refused, outside their section) is dropped.
 */
export function withPointModule(raw: RawProver, exports: Exports): RawProver {
  const memory = new ModuleMemory(exports);
  // The Go wasm computes a proof's h with the module where this is set (cmd/proverwasm's
  // quotientByPointModule): the number-theoretic transforms, two thirds of a witness's time in
  // its emulated 64-bit arithmetic (docs/prover.md).
  (globalThis as { vaultdQuotient?: (input: Uint8Array, n: number) => Uint8Array }).vaultdQuotient = (input, n) => {
    const logn = Math.log2(n);
    if (!Number.isInteger(logn)) throw new Error(`quotient: a domain of ${n}`);
    const at = memory.scratch(input.length + exports.quotientScratch(n));
    new Uint8Array(exports.memory.buffer).set(input, at);
    exports.quotient(at, n, logn, at + input.length);
    return new Uint8Array(exports.memory.buffer, at, n * frSize).slice(); // h, written over the input
  };
  const shares = new Map<number, Share>();
  const error = (e: unknown) => JSON.stringify({ error: String((e as Error)?.message ?? e) });
  const drop = (share: number) => {
    if (shares.delete(share) && shares.size === 0) memory.reset();
  };
  return {
    ...raw,
    shareStart(layout) {
      const answer = raw.shareStart(layout);
      const { share } = JSON.parse(answer) as { share?: number };
      if (share === undefined) return answer;
      try {
        shares.set(share, new Share(memory, JSON.parse(layout)));
      } catch (e) {
        raw.shareDrop(share);
        return error(e);
      }
      return answer;
    },
    shareFeed(share, section, from, points) {
      const sh = shares.get(share);
      const s = sh?.sections.get(section);
      // Points the module does not take go to the Go wasm's share, with the proof's scalars if
      // it has them and had none.
      const toGo = () => {
        if (sh) {
          sh.goHolds = true;
          if (sh.scalars && !sh.goScalars) {
            const given = raw.shareScalars(share, sh.scalars);
            if ("error" in JSON.parse(given)) return given;
            sh.goScalars = true;
          }
        }
        return raw.shareFeed(share, section, from, points);
      };
      if (!sh || !s) return toGo();
      let answer;
      try {
        // How long the module took (its thread's time, throttling included): the dealer's
        // measure of how fast this device decodes (share.ts, the raw tail).
        const t = performance.now();
        answer = sh.feed(section, s, from, points) === -1 ? JSON.stringify({ ms: performance.now() - t }) : toGo();
      } catch (e) {
        raw.shareDrop(share);
        answer = error(e);
      }
      if ("error" in JSON.parse(answer)) drop(share);
      return answer;
    },
    shareFeedRaw(share, section, from, points) {
      const sh = shares.get(share);
      const s = sh?.sections.get(section);
      try {
        if (!sh || !s || s.group !== g1) throw new Error(`share ${share} holds no G1 points of section ${section}`);
        const answer = sh.feed(section, s, from, points, g1Raw);
        if (answer !== -1) throw new Error(`point ${from + (answer >> 2)} of section ${section}, in the key's raw tail, ${rawRefusals[answer & 3]}`);
        return "{}";
      } catch (e) {
        raw.shareDrop(share);
        drop(share);
        return error(e);
      }
    },
    shareLoad(share, section, from, affine) {
      const sh = shares.get(share);
      const s = sh?.sections.get(section);
      try {
        if (!sh || !s) throw new Error(`share ${share} holds no decoded points of section ${section}`);
        sh.load(section, s, from, affine);
        return "{}";
      } catch (e) {
        raw.shareDrop(share);
        drop(share);
        return error(e);
      }
    },
    shareHeld(share) {
      const sh = shares.get(share);
      return sh ? sh.held() : error(`share ${share}: no points in the module`);
    },
    shareScalars(share, scalars) {
      const sh = shares.get(share);
      if (!sh) return raw.shareScalars(share, scalars);
      try {
        sh.setScalars(scalars);
      } catch (e) {
        return error(e);
      }
      if (!sh.goHolds) return "{}";
      const answer = raw.shareScalars(share, scalars);
      if ("error" in JSON.parse(answer)) sh.reset();
      else sh.goScalars = true;
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
        return error(e);
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
        return error(e);
      }
      const answer = JSON.parse(raw.shareSums(share)) as { sums?: unknown[]; error?: string };
      if (answer.error !== undefined) return JSON.stringify(answer);
      return JSON.stringify({ sums: [...(answer.sums ?? []), ...sums] });
    },
    shareReset(share) {
      shares.get(share)?.reset();
      return raw.shareReset(share);
    },
    shareDrop(share) {
      drop(share);
      return raw.shareDrop(share);
    },
  };
}

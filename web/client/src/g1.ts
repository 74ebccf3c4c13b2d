// The proving key's compressed G1 points decoded by a small WebAssembly module of the project's
// own (service/vault/zk/g1decode, written at build into g1decode.gen.ts), before the Go wasm
// keeps them: a point's y is a square root in Fp, which the Go wasm computes ~3× slower (it has
// no 64-bit multiply-high). docs/prover.md, "Compressed points".
import { g1DecodeModule } from "./g1decode.gen.js";
import type { RawProver } from "./runtime.js";

const bufferAt = 4096; // g1decode.BufferAt: below it, the module's own constants and working space
const compressedSize = 32;
const rawSize = 64;

/** Decodes compressed G1 points into raw ones, or answers undefined for points that are not. */
export type G1Decoder = (points: Uint8Array) => Uint8Array | undefined;

/** A decoder of its own (an instance of the module: each worker has one). */
export async function g1Decoder(): Promise<G1Decoder> {
  const bytes = Uint8Array.from(atob(g1DecodeModule), (c) => c.charCodeAt(0));
  const { instance } = await WebAssembly.instantiate(bytes);
  const { memory, decode } = instance.exports as { memory: WebAssembly.Memory; decode: (src: number, dst: number, n: number) => number };
  return (points) => {
    const n = points.length / compressedSize;
    const need = bufferAt + (compressedSize + rawSize) * n;
    if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
    new Uint8Array(memory.buffer).set(points, bufferAt);
    const dst = bufferAt + compressedSize * n;
    if (decode(bufferAt, dst, n) !== -1) return undefined;
    return new Uint8Array(memory.buffer, dst, rawSize * n).slice();
  };
}

/**
 * The prover's functions with a compressed key's G1 points decoded by decoder before the Go wasm
 * is given them (shareFeedDecoded). Points the decoder refuses go to the Go wasm as they came
 * (shareFeed), whose error says which and why.
 */
export function decodingG1(raw: RawProver, decoder: G1Decoder): RawProver {
  const compressed = new Map<number, Set<number>>(); // a share's sections of compressed G1 points
  return {
    ...raw,
    shareStart(layout) {
      const answer = raw.shareStart(layout);
      const started = JSON.parse(answer) as { share?: number };
      if (started.share !== undefined) {
        const l = JSON.parse(layout) as { version: number; sections: { section: number; pointSize: number }[] };
        compressed.set(started.share, new Set(l.version === 2 ? l.sections.filter((s) => s.pointSize === compressedSize).map((s) => s.section) : []));
      }
      return answer;
    },
    shareFeed(share, section, from, points) {
      const decoded = compressed.get(share)?.has(section) ? decoder(points) : undefined;
      return decoded ? raw.shareFeedDecoded(share, section, from, decoded) : raw.shareFeed(share, section, from, points);
    },
    shareDrop(share) {
      compressed.delete(share);
      return raw.shareDrop(share);
    },
  };
}

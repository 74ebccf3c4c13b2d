// The functions cmd/proverwasm's Go wasm gives JavaScript: what runtime.ts starts and points.ts
// stands in front of, in a file of its own so that neither imports the other for it.

/** The wasm's functions (cmd/proverwasm). */
export interface RawProver {
  newNote(json: string): string;
  parseCard(card: string): string;
  // A proof (its handle) from the sectioned key's (sectionedKey) points dealt between workers
  // (share.ts, docs/prover.md): every worker's share keeps them for the proofs after.
  proveStreaming(json: string): string; // {handle}: the witness solved
  finish(handle: number): string; // once every share's sums are added: as prove's answer
  cancel(handle: number): string;
  keyLayout(prefix: Uint8Array): string; // {need} or {layout}
  layout(handle: number, prefix: Uint8Array): string; // as keyLayout, for the proof
  scalars(handle: number): Uint8Array | string; // a string is an error
  addSums(handle: number, sums: string): string;
  shareStart(layout: string): string; // {share}
  shareFeed(share: number, section: number, from: number, points: Uint8Array): string;
  shareScalars(share: number, scalars: Uint8Array): string;
  shareFlush(share: number, section: number): string;
  shareSums(share: number): string; // {sums}
  // With the point module (points.ts): points already decoded (a copy kept from an earlier
  // load), and a copy of the share's points as decoded.
  shareLoad?(share: number, section: number, from: number, affine: Uint8Array): string;
  // With the point module: raw G1 points of a section whose share holds it compressed (the key's
  // raw tail, key.ts), loaded and checked on the curve instead of decompressed.
  shareFeedRaw?(share: number, section: number, from: number, points: Uint8Array): string;
  shareHeld?(share: number): DecodedPoints[] | string;
  shareReset(share: number): string;
  shareDrop(share: number): string;
}

/** A share's points of a section, decoded (affine, as the point module keeps them), and their numbers in it. */
export interface DecodedPoints {
  section: number;
  from: Int32Array;
  points: Uint8Array;
}

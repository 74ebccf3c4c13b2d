// The sectioned proving key (reveal.<hash>.pks, docs/prover.md) as it arrives, for the prover's
// workers to decode while the rest is on its way. It is read where the workers' calls do not
// stop it (the page's thread when the prover is in Workers: a call runs up to a second, and a
// download read by a busy thread stalls), its sha256 taken once it has all arrived (by the
// platform's own code, not on the page's thread, slow on a phone); a proof made from it is
// answered only once that hash is the pinned one. Its bytes are kept for the next proof,
// and, once checked, in the page's Cache Storage, from which a later load reads them whole and
// checks them again before use.
import { concat, fileBytes, ownSize, pin, sha256Hex, type ProverAssets } from "./runtime.js";

/**
 * nearlyArrived watches a download's progress: it answers true once what is left should arrive
 * within a request's round trip (roundTripMs: how long the download's own request took to be
 * answered, once known), or once all of it has arrived. The download asked for then begins as this
 * one ends, not a round trip after it: ~0.56 s on a slow phone network. Each report's time is when
 * its bytes were read (a worker's reports may reach the page late and together), and a rate is
 * trusted over minRateMs of them only.
 */
export function nearlyArrived(roundTripMs: () => number | undefined): (received: number, total: number | undefined, at: number) => boolean {
  let first: { at: number; received: number } | undefined;
  return (received, total, at) => {
    if (total !== undefined && received >= total) return true;
    if (received === 0 || total === undefined) return false;
    if (!first) {
      first = { at, received };
      return false;
    }
    if (at - first.at < minRateMs) return false;
    const rate = (received - first.received) / (at - first.at); // bytes a ms since the first report
    const roundTrip = roundTripMs();
    return roundTrip !== undefined && rate > 0 && (total - received) / rate <= roundTrip;
  };
}

/** The least time over which nearlyArrived measures a download's rate. */
export const minRateMs = 200;

/** Bytes of the key's raw tail (SectionedKey.switchTail), as read: its G1 points uncompressed. */
export interface RawTailChunk {
  raw: Uint8Array;
}

// (p − 1)/2 for BN254's base field, big-endian: a y above it is the larger of y and p − y.
const halfP = Uint8Array.from("183227397098d014dc2822db40c0ac2ecbc0b548b438e5469e10460b6c3e7ea3".match(/../g)!, (h) => parseInt(h, 16));

/**
 * compressG1 is raw G1 points (x ‖ y, 64 bytes each, big-endian; infinity all zeros) in the
 * sectioned key's compressed encoding (docs/prover.md): x with its two top bits saying which y
 * (10: the smaller of y and p − y, 11: the larger; 01 and zeros: infinity).
 */
export function compressG1(raw: Uint8Array): Uint8Array {
  if (raw.length % 64 !== 0) throw new Error(`the key's raw tail has ${raw.length} bytes: not whole points of 64`);
  const out = new Uint8Array(raw.length / 2);
  for (let at = 0; at < raw.length; at += 64) {
    const x = raw.subarray(at, at + 32);
    const y = raw.subarray(at + 32, at + 64);
    const o = at / 2;
    if (x.every((b) => b === 0) && y.every((b) => b === 0)) {
      out[o] = 0x40;
      continue;
    }
    let larger = false;
    for (let i = 0; i < 32; i++) {
      if (y[i] !== halfP[i]) {
        larger = y[i] > halfP[i];
        break;
      }
    }
    out.set(x, o);
    out[o] |= larger ? 0xc0 : 0x80;
  }
  return out;
}

// decodedLength is a response's size as its Content-Length says, NaN when it does not (none, or
// the answer is compressed: the length is the compressed one's).
const decodedLength = (r: Response) => (r.headers.get("content-encoding") ? NaN : Number(r.headers.get("content-length") ?? NaN));

export class SectionedKey {
  /** The key's bytes received so far (decoded; a raw tail's counted as the key's bytes of its points, half of them). */
  received = 0;
  /** Its size once known (the package's own key: from its build; another: its Content-Length). */
  total: number | undefined;
  /** Whether the key's end comes as its raw tail (switchTail, the tail answered): its chunks then end in RawTailChunks. */
  rawTail = false;
  private chunks: (Uint8Array | RawTailChunk)[] = [];
  private tail: { at: number; bytes: number; answer: Promise<Response | undefined>; abort: AbortController } | undefined;
  private tailBytes = 0; // the raw tail's bytes received (received counts half of them)
  private firstByte: { at: number; received: number } | undefined; // from the network: when, and the bytes by then
  private end: "open" | "checked" | Error = "open";
  private wake = () => {};
  private changed = this.next();
  private readonly abort = new AbortController();

  /**
   * Starts fetching the key of assets (from cache first, where it was kept checked; from the
   * network once `fetchAfter` settles, if given: behind the wasm, say).
   */
  constructor(private readonly assets: ProverAssets, private readonly cache?: Cache, private readonly fetchAfter?: Promise<unknown>) {
    this.total = ownSize(assets, "sectionedKey");
    void this.run();
  }

  /** Whether its download failed or its hash was not the pinned one: a new one must be started. */
  get failed(): boolean {
    return this.end instanceof Error;
  }

  /**
   * Asks for the key's raw tail (assets.rawTail: its sections after B2, uncompressed, `bytes`
   * of them) to take the place of its bytes from `at` (where B2 ends) on: a device whose CPU
   * cannot keep up with the download (share.ts's Dealer decides) then loads those points
   * instead of taking their square roots, for more bytes. False where there is no raw tail, the
   * key is not being downloaded, or `at` has passed. The download stops at `at` only if the tail
   * has been answered by then (else the key comes whole, and the tail's request is dropped); the
   * tail's points are compressed again (compressG1) to check the key's pinned sha256, and the
   * point module checks each raw point on the curve (points.ts): with its x and flag vouched for
   * by the hash, its y is the key's.
   */
  switchTail(at: number, bytes: number): boolean {
    const url = this.assets.rawTail;
    if (!url || this.tail || this.end !== "open" || this.received >= at || url.startsWith("file:")) return false;
    const abort = new AbortController();
    this.abort.signal.addEventListener("abort", () => abort.abort(this.abort.signal.reason));
    // Only what can be the tail takes the key's place: not a page answered for any path, nor a
    // file of another size.
    const canBe = (r: Response) => r.ok && r.body && !(r.headers.get("content-type") ?? "").startsWith("text/html") && [NaN, bytes].includes(decodedLength(r));
    const answer = fetch(url, { signal: abort.signal }).then(
      (r) => (canBe(r) ? r : void r.body?.cancel().catch(() => {})),
      () => undefined,
    );
    this.tail = { at, bytes, answer, abort };
    return true;
  }

  /** The key's bytes a ms as they arrived from the network, since its first (0 until there are two reads). */
  byteRate(): number {
    const f = this.firstByte;
    const ms = f ? Date.now() - f.at : 0;
    return f && ms > 0 ? (this.received - f.received) / ms : 0;
  }

  /**
   * The key's chunks, those already received first, then each as it arrives (after a switch,
   * the raw tail's as RawTailChunks); throws once the download fails, or after the last chunk if
   * the whole key's sha256 is not the pinned one.
   */
  async *read(): AsyncGenerator<Uint8Array | RawTailChunk> {
    const chunks = this.chunks; // all of them once checked (then one): the array a reader began with stays whole
    for (let i = 0; ; ) {
      if (this.end instanceof Error) throw this.end;
      if (i < chunks.length) yield chunks[i++];
      else if (this.end === "checked") return;
      else await this.changed;
    }
  }

  /** Stops the download (a prover terminated). */
  stop(): void {
    this.abort.abort(new Error("the prover was terminated"));
  }

  // tailFrom reads the raw tail in place of the key's bytes from t.at on (chunk: the key's chunk
  // that reaches it, reader: the key's, stopped), if the tail has been answered by then: false
  // if not (the key is then read whole, and the tail's request dropped), as the key's download
  // does not wait for it.
  private async tailFrom(t: NonNullable<SectionedKey["tail"]>, chunk: Uint8Array, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<boolean> {
    const answer = await Promise.race([t.answer, Promise.resolve(undefined)]);
    if (!answer) {
      this.tail = undefined;
      t.abort.abort(new Error("the key's end came first"));
      return false;
    }
    this.push(chunk.subarray(0, t.at - this.received));
    void reader.cancel().catch(() => {});
    this.rawTail = true;
    const tail = answer.body!.getReader();
    for (let c = await tail.read(); !c.done; c = await tail.read()) this.push({ raw: c.value });
    if (this.tailBytes !== t.bytes) throw new Error(`the proving key's raw tail at ${this.assets.rawTail} has ${this.tailBytes} bytes, not ${t.bytes}`);
    return true;
  }

  // compressed is the key as its pinned bytes: the ones received before the raw tail, then the
  // tail's points compressed.
  private compressed(): Uint8Array {
    const key = this.chunks.filter((c): c is Uint8Array => c instanceof Uint8Array);
    const raw = this.chunks.flatMap((c) => (c instanceof Uint8Array ? [] : [c.raw]));
    const tail = compressG1(concat(raw, raw.reduce((n, c) => n + c.length, 0)));
    return concat([...key, tail], key.reduce((n, c) => n + c.length, tail.length));
  }

  private next(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private push(chunk: Uint8Array | RawTailChunk): void {
    this.chunks.push(chunk);
    if (chunk instanceof Uint8Array) this.received += chunk.length;
    else {
      this.tailBytes += chunk.raw.length;
      this.received = this.tail!.at + (this.tailBytes >> 1); // a raw point's bytes in the key: half
    }
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.changed = this.next();
    wake();
  }

  private async run(): Promise<void> {
    const url = this.assets.sectionedKey;
    const want = this.assets.sha256.sectionedKey.toLowerCase();
    try {
      // A cached copy is local: read and checked whole (by the platform's sha256) before any of
      // it is used.
      const hit = await this.cache?.match(url).catch(() => undefined);
      if (hit) {
        const data = new Uint8Array(await hit.arrayBuffer());
        if ((await sha256Hex(data)) === want) {
          this.total = data.length;
          this.push(data);
          this.end = "checked";
          return;
        }
        await this.cache!.delete(url).catch(() => {}); // not the pinned one: fetched again
      }
      await this.fetchAfter?.catch(() => {});
      if (url.startsWith("file:")) {
        const data = await fileBytes(url);
        pin(this.assets, "sectionedKey", await sha256Hex(data));
        this.total = data.length;
        this.push(data);
        this.end = "checked";
        return;
      }
      const r = await fetch(url, { signal: this.abort.signal });
      if (!r.ok) throw new Error(`${url}: ${r.status}`);
      const length = decodedLength(r);
      this.total ??= Number.isFinite(length) ? length : undefined;
      const reader = r.body!.getReader();
      for (let c = await reader.read(); !c.done; c = await reader.read()) {
        this.firstByte ??= { at: Date.now(), received: this.received + c.value.length };
        const t = this.tail;
        if (t && this.received + c.value.length >= t.at && (await this.tailFrom(t, c.value, reader))) break;
        this.push(c.value);
      }
      // One piece from now on: a later reader deals it from one chunk, not hundreds.
      const whole = this.rawTail ? this.compressed() : concat(this.chunks as Uint8Array[], this.received);
      const hex = await sha256Hex(whole);
      if (this.rawTail && hex !== want) throw new Error(`the prover's sectionedKey at ${url}, its end from its raw tail at ${this.assets.rawTail}, has sha256 ${hex}, not the pinned ${want}: refused (the key or its raw tail is not the pinned key's)`);
      pin(this.assets, "sectionedKey", hex);
      this.total = this.received;
      this.chunks = [whole];
      this.end = "checked";
      if (this.cache) {
        const headers = { "content-type": "application/octet-stream", "content-length": String(whole.length) };
        // A full quota or a failed write: the network next time.
        this.cache.put(url, new Response(whole as BodyInit, { headers })).catch(() => {});
      }
    } catch (e) {
      this.end = e instanceof Error ? e : new Error(String(e));
      this.tail?.abort.abort(this.end);
    } finally {
      this.signal();
    }
  }
}

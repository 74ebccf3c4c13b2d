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

export class SectionedKey {
  /** The key's bytes received so far (decoded). */
  received = 0;
  /** Its size once known (the package's own key: from its build; another: its Content-Length). */
  total: number | undefined;
  private chunks: Uint8Array[] = [];
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
   * The key's chunks, those already received first, then each as it arrives; throws once the
   * download fails, or after the last chunk if the whole key's sha256 is not the pinned one.
   */
  async *read(): AsyncGenerator<Uint8Array> {
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

  private next(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.received += chunk.length;
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
      // A compressed answer's Content-Length is not its decoded size.
      const length = r.headers.get("content-encoding") ? NaN : Number(r.headers.get("content-length") ?? NaN);
      this.total ??= Number.isFinite(length) ? length : undefined;
      const reader = r.body!.getReader();
      for (let c = await reader.read(); !c.done; c = await reader.read()) this.push(c.value);
      // One piece from now on: a later reader deals it from one chunk, not hundreds.
      const whole = concat(this.chunks, this.received);
      pin(this.assets, "sectionedKey", await sha256Hex(whole));
      this.total = this.received;
      this.chunks = [whole];
      this.end = "checked";
      if (this.cache) {
        const headers = { "content-type": "application/octet-stream", "content-length": String(this.received) };
        // A full quota or a failed write: the network next time.
        this.cache.put(url, new Response(whole as BodyInit, { headers })).catch(() => {});
      }
    } catch (e) {
      this.end = e instanceof Error ? e : new Error(String(e));
    } finally {
      this.signal();
    }
  }
}

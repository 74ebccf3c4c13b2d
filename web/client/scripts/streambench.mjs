// The stream prover (proveStreaming/feed/finish, docs/prover.md) against today's prove, in Node,
// from the built package's assets (npm run build), calling the wasm's functions directly.
//  (a) runs × interleaved: prove (the keys loaded once before, by init) and the stream prover
//      given the whole sectioned key in one feed; wall ms, and the process's CPU ms (user +
//      system, all threads) beside it, steadier on a busy machine.
//  (b) the sectioned key fed in 64 KB chunks as they would arrive at each rate (bytes/s),
//      starting when the proof is asked for: when the last byte arrives, when the proof is
//      ready, and the difference. At 4 MB/s the ratio of download to CPU is a phone's at
//      1 MB/s with a CPU 4× slower.
//   node scripts/streambench.mjs [runs] [rates: bytes/s,…] [batches: points,…]
import { readFileSync } from "node:fs";
import { files } from "../dist/pinned.gen.js";

const runs = Number(process.argv[2] ?? 5);
const rates = (process.argv[3] ?? "1000000,4000000").split(",").map(Number);
const batches = (process.argv[4] ?? "0").split(",").map(Number); // proveStreaming's batch: 0 the default, -1 a whole section
const assets = new URL("../dist/assets/", import.meta.url);
const read = (name) => readFileSync(new URL(files[name], assets));
const ok = (s) => {
  const v = JSON.parse(s);
  if (v.error) throw new Error(v.error);
  return v;
};
const ms = (t) => Math.round(performance.now() - t);
const cpuSince = (c) => {
  const d = process.cpuUsage(c);
  return Math.round((d.user + d.system) / 1000);
};
const sleep = (d) => new Promise((r) => setTimeout(r, Math.max(0, d)));

await import(new URL(files.wasmExec, assets).href); // defines globalThis.Go
const go = new globalThis.Go();
const { instance } = await WebAssembly.instantiate(read("wasm"), go.importObject);
void go.run(instance);
const raw = globalThis.vaultdProver;
let t = performance.now();
ok(raw.init(read("provingKey"), read("verifyingKey")));
console.log(JSON.stringify({ initMs: ms(t) }));

const key = read("sectionedKey");
const note = ok(raw.newNote(JSON.stringify({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: "1000" })));
const input = JSON.stringify({ card: note.card, leaves: ["0x1", note.leaf, "0x2", "0x3"], recipient: "0x2222222222222222222222222222222222222222" });

for (let i = 0; i < runs; i++) {
  t = performance.now();
  let c = process.cpuUsage();
  const today = ok(raw.prove(input));
  const proveMs = ms(t);
  const proveCpuMs = cpuSince(c);
  t = performance.now();
  c = process.cpuUsage();
  const h = ok(raw.proveStreaming(input)).handle;
  ok(raw.feed(h, key));
  const streamed = ok(raw.finish(h));
  const streamMs = ms(t);
  const streamCpuMs = cpuSince(c);
  if (JSON.stringify(streamed.request.publicSignals) !== JSON.stringify(today.request.publicSignals)) throw new Error("the two provers' signals differ");
  console.log(JSON.stringify({ run: i + 1, proveMs, proveCpuMs, streamWholeKeyMs: streamMs, streamCpuMs }));
}

const chunk = 64 << 10;
for (const rate of rates) {
  for (let i = 0; i < runs * batches.length; i++) {
    const batch = batches[i % batches.length];
    const t0 = performance.now();
    const arrives = (end) => t0 + (end / rate) * 1000; // when byte end-1 has arrived
    const h = ok(raw.proveStreaming(JSON.stringify({ ...JSON.parse(input), batch }))).handle;
    const solvedMs = ms(t0);
    let backlog = 0; // chunks already waiting when fed: the prover behind the download
    for (let off = 0; off < key.length; off += chunk) {
      const end = Math.min(off + chunk, key.length);
      const wait = arrives(end) - performance.now();
      if (wait > 0) await sleep(wait);
      else backlog++;
      ok(raw.feed(h, key.subarray(off, end)));
    }
    ok(raw.finish(h));
    const ready = performance.now();
    const last = arrives(key.length);
    console.log(JSON.stringify({ rate, batch, run: Math.floor(i / batches.length) + 1, solvedAndHMs: solvedMs, lastByteMs: Math.round(last - t0), proofMs: Math.round(ready - t0), afterLastByteMs: Math.round(ready - last), chunksBehind: backlog }));
  }
}
process.exit(0);

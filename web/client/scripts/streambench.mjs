// The stream prover (proveStreaming/feed/finish, docs/prover.md), in Node, from the built
// package's assets (npm run build), calling the wasm's functions directly. (The figures against
// gnark's own prover in docs/prover.md were taken when the wasm still had it.)
//  (a) runs × the stream prover given the whole sectioned key in one feed; wall ms, and the
//      process's CPU ms (user + system, all threads) beside it, steadier on a busy machine.
//  (c) per section: the key fed one section at a time, each feed's wall ms (its points decoded
//      and multiplied).
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
let t;

const key = read("sectionedKey");
const note = ok(raw.newNote(JSON.stringify({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: "1000" })));
const input = JSON.stringify({ card: note.card, leaves: ["0x1", note.leaf, "0x2", "0x3"], recipient: "0x2222222222222222222222222222222222222222" });

for (let i = 0; i < runs; i++) {
  t = performance.now();
  const c = process.cpuUsage();
  const h = ok(raw.proveStreaming(input)).handle;
  ok(raw.feed(h, key));
  ok(raw.finish(h));
  console.log(JSON.stringify({ run: i + 1, streamWholeKeyMs: ms(t), streamCpuMs: cpuSince(c) }));
}

// The sections' byte ranges, from the header (docs/prover.md).
const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
const wires = view.getUint32(20);
const count = { 1: view.getUint32(28), 2: view.getUint32(32), 3: view.getUint32(32), 4: view.getUint32(36), 5: view.getUint32(40) };
const names = { 1: "A", 2: "B1", 3: "B2", 4: "K", 5: "Z" };
let at = 8 + 4 + 8 + 4 + 4 + 16 + 5 + 3 * 64 + 2 * 128 + 2 * Math.ceil(wires / 8);
const sections = [{ name: "header", from: 0, to: at }];
for (let i = 0; i < 5; i++) {
  const id = key[44 + i];
  const size = count[id] * (id === 3 ? 128 : 64);
  sections.push({ name: names[id], from: at, to: at + size });
  at += size;
}
for (let i = 0; i < runs; i++) {
  const h = ok(raw.proveStreaming(input)).handle;
  const feedMs = {};
  for (const s of sections) {
    t = performance.now();
    ok(raw.feed(h, key.subarray(s.from, s.to)));
    feedMs[s.name] = ms(t);
  }
  ok(raw.finish(h));
  console.log(JSON.stringify({ run: i + 1, feedMs }));
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

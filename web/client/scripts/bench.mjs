// The prover's load and proof times in Node, from the built package (npm run build), without a
// chain: a fresh card in a tree of a few leaves, proved whole then in part, on one thread
// (in-process, `worker: false`) and on every core (worker threads, the default), the two in
// turns. Each proof is verified by snarkjs's groth16 verifier against the dev verifying key
// (outside the time taken): a bench of wrong proofs fails. Prints, per run and way, the wasm's
// compile, the prover's load and each proof (the first reads the key): wall time in ms, the
// process's CPU time (user + system, all threads) beside it, and the load average (a figure
// taken on a busy machine says so); then each way's medians.
//   npm --prefix service/vault/zk/testdata/snarkjs ci   (once: snarkjs, which CI installs too)
//   node scripts/bench.mjs [runs] [one|all|both]
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { Prover } from "../dist/prover.js";
import { files } from "../dist/pinned.gen.js";

const runs = Number(process.argv[2] ?? 3);
const ways = { one: [["one thread", { worker: false }]], all: [["all cores", {}]] };
ways.both = [...ways.one, ...ways.all];
const chosen = ways[process.argv[3] ?? "both"];
if (!chosen) throw new Error(`${process.argv[3]}: want one, all or both`);

const assets = new URL("../dist/assets/", import.meta.url);
const vkey = JSON.parse(readFileSync(new URL("verification_key.json", assets), "utf8"));
let snarkjs;
try {
  snarkjs = createRequire(new URL("../../../service/vault/zk/testdata/snarkjs/package.json", import.meta.url))("snarkjs");
} catch (e) {
  throw new Error(`snarkjs, to verify the proofs, is not installed: npm --prefix service/vault/zk/testdata/snarkjs ci (${e.message})`);
}
// verified throws unless snarkjs accepts the relayer's request's proof for its public signals.
const verified = async (request, what) => {
  if (!(await snarkjs.groth16.verify(vkey, request.publicSignals, request.proof))) throw new Error(`${what}: snarkjs refused the proof`);
};

const now = () => ({ wall: performance.now(), cpu: process.cpuUsage() });
const took = (t) => {
  const c = process.cpuUsage(t.cpu);
  return { ms: Math.round(performance.now() - t.wall), cpuMs: Math.round((c.user + c.system) / 1000) };
};
const recipient = "0x2222222222222222222222222222222222222222";
const seen = new Map(); // way → figures of each run
for (let i = 0; i < runs; i++) {
  for (const [way, opts] of chosen) {
    const load1 = loadavg()[0];
    let t = now();
    await WebAssembly.compile(readFileSync(new URL(files.wasm, assets))); // what the load below compiles again
    const compile = took(t);
    t = now();
    const prover = await Prover.load(opts);
    const load = took(t);
    const note = await prover.newNote({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: 1000n });
    const leaves = ["0x1", note.leaf, "0x2", "0x3"];
    t = now();
    const whole = await prover.prove({ card: note.card, leaves, recipient });
    const prove = took(t);
    await verified(whole.request, `${way}, run ${i + 1}, the first proof`);
    t = now();
    const part = await prover.prove({ card: note.card, leaves, recipient, amount: 400n });
    const partial = took(t);
    await verified(part.request, `${way}, run ${i + 1}, the partial proof`);
    const figures = { run: i + 1, way, workers: prover.workers, compile, load, prove, partial, loadAverage: load1 };
    prover.terminate();
    console.log(JSON.stringify(figures));
    seen.set(way, [...(seen.get(way) ?? []), figures]);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor((a.length - 1) / 2)];
for (const [way, all] of seen) {
  const m = (k) => median(all.map((f) => f[k].ms));
  console.log(`${way} (${all[0].workers} worker${all[0].workers === 1 ? "" : "s"}), medians of ${all.length} runs (load average ${all.map((f) => f.loadAverage.toFixed(1)).join(", ")}): load ${m("load")} ms, first proof ${m("prove")} ms, next proof ${m("partial")} ms; every proof verified by snarkjs`);
}
process.exit(0);

// The prover's load and proof times in Node, from the built package (npm run build), without a
// chain: a fresh card in a tree of a few leaves, proved whole then in part. Prints, per run, the
// wasm's compile, the prover's load (compile, start) and each proof (the first reads the key): wall time in ms,
// and the process's CPU time (user + system, all threads) beside it, steadier on a busy machine.
//   node scripts/bench.mjs [runs]
import { readFileSync } from "node:fs";
import { Prover } from "../dist/prover.js";
import { files } from "../dist/pinned.gen.js";

const runs = Number(process.argv[2] ?? 3);
const assets = new URL("../dist/assets/", import.meta.url);
const now = () => ({ wall: performance.now(), cpu: process.cpuUsage() });
const ms = (t) => {
  const c = process.cpuUsage(t.cpu);
  return `${Math.round(performance.now() - t.wall)} (cpu ${Math.round((c.user + c.system) / 1000)})`;
};
for (let i = 0; i < runs; i++) {
  let t = now();
  await WebAssembly.compile(readFileSync(new URL(files.wasm, assets))); // what the load below compiles again
  const compile = ms(t);
  t = now();
  const prover = await Prover.load({ worker: false });
  const load = ms(t);
  const note = await prover.newNote({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: 1000n });
  const leaves = ["0x1", note.leaf, "0x2", "0x3"];
  t = now();
  await prover.prove({ card: note.card, leaves, recipient: "0x2222222222222222222222222222222222222222" });
  const prove = ms(t);
  t = now();
  await prover.prove({ card: note.card, leaves, recipient: "0x2222222222222222222222222222222222222222", amount: 400n });
  console.log(JSON.stringify({ run: i + 1, compileMs: compile, loadMs: load, proveMs: prove, partialProveMs: ms(t) }));
}
process.exit(0);

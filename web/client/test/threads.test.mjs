// The prover in Node on worker threads (node:worker_threads, prover-node-worker.js), as a
// browser's on Web Workers: the key's points dealt between the threads and each proof's
// multiplications shared; a script that proves and ends exits without terminating its Prover
// (a thread keeps the process alive only while a call waits on it). Needs the built package
// (npm run build).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Prover } from "../dist/prover.js";

const recipient = "0x2222222222222222222222222222222222222222";
// The cards proved below, made beforehand (a prover's own newNote would leave it idle meanwhile).
const note = await (await Prover.load({ worker: false })).newNote({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: 1000n });

test("in Node the prover proves on worker threads, sharing the MSMs between them", async () => {
  // A warm-up due at once, but a proof asked for first: none (the proof is not held back by it).
  const p = await Prover.load({ workers: 2, warmUpAfterMs: 0 });
  try {
    for (const amount of [undefined, 400n]) {
      const seen = [];
      const out = await p.prove({ card: note.card, leaves: ["0x1", note.leaf], recipient, amount }, { onProgress: (x) => seen.push(x) });
      assert.equal(out.request.amount, String(amount ?? 1000n));
      assert.equal(BigInt(out.request.publicSignals[3]), BigInt(recipient));
      assert.deepEqual([...seen.at(-1).multiplied].sort(), ["A", "B1", "B2", "K", "Z"]);
      assert.equal(seen.at(-1).warm, amount !== undefined); // warm from the first proof on
    }
    assert.equal(await p.warmedUp, false);
    assert.equal(p.workers, 2, "the second thread did not join");
  } finally {
    p.terminate();
  }
});

test("a prover left idle warms up: it solves a made-up witness, so that its first proof finds the runtime warm", async () => {
  const p = await Prover.load({ workers: 1, warmUpAfterMs: 0 });
  try {
    assert.equal(await p.warmedUp, true);
    const seen = [];
    const out = await p.prove({ card: note.card, leaves: ["0x1", note.leaf], recipient }, { onProgress: (x) => seen.push(x) });
    assert.equal(BigInt(out.request.publicSignals[1]), BigInt(note.nullifier)); // the card's own proof, not the made-up one's
    assert.equal(seen.at(-1).warm, true);
  } finally {
    p.terminate();
  }
});

test("a Node script that proves on worker threads ends without terminating its Prover", async () => {
  const script = `
    import { Prover } from ${JSON.stringify(new URL("../dist/prover.js", import.meta.url).href)};
    const p = await Prover.load({ workers: 2 });
    const note = await p.newNote({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: 1n });
    await p.prove({ card: note.card, leaves: [note.leaf], recipient: ${JSON.stringify(recipient)} });
    console.log("proved on", p.workers, "workers");`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  // A process still running long after its proof (minutes under load) is kept alive by a thread.
  const hung = setTimeout(() => child.kill("SIGKILL"), 180_000);
  const [code, signal] = await new Promise((resolve) => child.on("exit", (c, s) => resolve([c, s])));
  clearTimeout(hung);
  assert.equal(signal, null, `the script did not end: ${out}`);
  assert.equal(code, 0);
  assert.match(out, /proved on 2 workers/);
});

// The prover's files over HTTP, as a browser's page fetches them (in-process here, `worker: false`:
// the workers take the same messages). The wasm compiles while it downloads
// (WebAssembly.compileStreaming): loaded when its bytes are the pinned ones, refused when one byte
// differs, whether it is sent as application/wasm (streamed) or as anything else (compiled from
// the checked bytes). The sectioned proving key is proved while it arrives, and no proof is
// answered from a key whose sha256 is not the pinned one. Needs the built package (npm run build).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { assetsAt, Prover } from "../dist/prover.js";
import { sizes } from "../dist/pinned.gen.js";

const base = new URL("../dist/assets/", import.meta.url);
const names = assetsAt(base.href);
const file = (url) => readFileSync(new URL(url.slice(url.lastIndexOf("/") + 1), base));
const isKey = (url) => url.endsWith(".pks");
const keyPath = names.sectionedKey.slice(names.sectionedKey.lastIndexOf("/"));

// serve answers the package's assets: the wasm changed by tamper and sent with type, the key
// changed by tamperKey and sent in chunks of 64 KB every pace ms (0: at once). served counts
// each file's requests.
const serve = ({ tamper = () => {}, type = "application/wasm", tamperKey = (d) => d, pace = 0 } = {}) =>
  new Promise((resolve) => {
    const served = {};
    const server = createServer(async (req, res) => {
      served[req.url] = (served[req.url] ?? 0) + 1;
      let data = Buffer.from(file(req.url));
      if (req.url.endsWith(".wasm")) {
        tamper(data);
        res.writeHead(200, { "content-type": type });
      }
      if (!isKey(req.url) || pace === 0) return res.end(isKey(req.url) ? tamperKey(data) : data);
      data = tamperKey(data);
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": data.length });
      for (let at = 0; at < data.length; at += 64 << 10) {
        res.write(data.subarray(at, at + (64 << 10)));
        await new Promise((r) => setTimeout(r, pace));
      }
      res.end();
    });
    server.listen(0, "127.0.0.1", () => resolve({ base: `http://127.0.0.1:${server.address().port}/`, served, close: () => server.close() }));
  });

for (const type of ["application/wasm", "application/octet-stream"]) {
  test(`the wasm sent as ${type}: loaded as pinned, refused with one byte changed`, async () => {
    const good = await serve({ type });
    try {
      const p = await Prover.load({ assets: assetsAt(good.base), worker: false });
      p.terminate();
    } finally {
      good.close();
    }
    const bad = await serve({ tamper: (d) => (d[d.length - 100] ^= 1), type });
    try {
      await assert.rejects(Prover.load({ assets: assetsAt(bad.base), worker: false }), /wasm at .* not the pinned/);
    } finally {
      bad.close();
    }
  });
}

const recipient = "0x2222222222222222222222222222222222222222";
const cardOf = (p) => p.newNote({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: 1000n });

test("the proof multiplies the key's points while the rest of it arrives", async () => {
  const site = await serve({ pace: 30 });
  // The key's end compressed, whatever this machine's rates (its raw tail: rawtail.test.mjs).
  const p = await Prover.load({ assets: { ...assetsAt(site.base), rawTail: "" }, worker: false });
  try {
    const note = await cardOf(p);
    const seen = [];
    const out = await p.prove({ card: note.card, leaves: ["0x1", note.leaf], recipient, amount: 400n }, { onProgress: (x) => seen.push(x) });
    assert.equal(out.request.amount, "400");
    assert.match(out.change, /^vaultd-card:v1\?/);
    assert.equal(BigInt(out.request.publicSignals[3]), BigInt(recipient));
    assert.equal(seen[0].stage, "solving");
    const size = sizes.sectionedKey;
    const { multiplied, keyDecodedAt, ...last } = seen.at(-1);
    assert.deepEqual(last, { stage: "done", received: size, proved: size, total: size, keyPoints: "decoded", warm: false }); // Node keeps no Cache Storage, nor warms up unless told: decoded each load, its first proof cold
    // Each section's MSM told as it ended, in the order they did; the key's points all decoded by then.
    assert.deepEqual([...multiplied].sort(), ["A", "B1", "B2", "K", "Z"]);
    for (let n = 1; n <= 5; n++) assert.ok(seen.some((s) => s.stage === "proving" && s.multiplied.join() === multiplied.slice(0, n).join()), `no report after ${n} MSMs: ${JSON.stringify(seen)}`);
    assert.ok(keyDecodedAt <= Date.now() && seen.some((s) => s.keyDecodedAt === undefined), JSON.stringify(seen));
    // Some of the key was multiplied before the last of it had arrived.
    assert.ok(seen.some((s) => s.stage === "proving" && s.proved > 0 && s.received < s.total), JSON.stringify(seen));
    // A second proof uses the key already received: no second request.
    const again = await p.prove({ card: note.card, leaves: [note.leaf], recipient });
    assert.equal(again.request.amount, "1000");
    assert.equal(site.served[keyPath], 1);
    assert.equal(await p.pointsKept, false); // nowhere to keep them
  } finally {
    p.terminate();
    site.close();
  }
});

for (const [what, tamperKey] of [
  ["one byte changed", (d) => ((d[d.length - 1] ^= 1), d)],
  ["cut short", (d) => d.subarray(0, d.length - 64)],
]) {
  test(`a key ${what} gives no proof: its sha256 is not the pinned one; the next proof fetches it again`, async () => {
    let tampering = true;
    const site = await serve({ pace: 5, tamperKey: (d) => (tampering ? tamperKey(d) : d) });
    const p = await Prover.load({ assets: { ...assetsAt(site.base), rawTail: "" }, worker: false });
    try {
      const note = await cardOf(p);
      await assert.rejects(p.prove({ card: note.card, leaves: [note.leaf], recipient }), /the prover's sectionedKey at http:.*reveal\.[0-9a-f]{16}\.pks has sha256 [0-9a-f]{64}, not the pinned [0-9a-f]{64}: refused/);
      tampering = false;
      const out = await p.prove({ card: note.card, leaves: [note.leaf], recipient });
      assert.equal(out.request.amount, "1000");
      assert.equal(site.served[keyPath], 2);
    } finally {
      p.terminate();
      site.close();
    }
  });
}

test("a file that is not a sectioned key, pinned as one, ends the proof with the prover's error", async () => {
  const site = await serve();
  const other = file(names.wasmExec);
  const { createHash } = await import("node:crypto");
  const p = await Prover.load({ assets: { ...assetsAt(site.base), sectionedKey: names.wasmExec.replace(base.href, site.base), sha256: { sectionedKey: createHash("sha256").update(other).digest("hex") } }, worker: false });
  try {
    const note = await cardOf(p);
    await assert.rejects(p.prove({ card: note.card, leaves: [note.leaf], recipient }), /sectioned proving key/);
  } finally {
    p.terminate();
    site.close();
  }
});

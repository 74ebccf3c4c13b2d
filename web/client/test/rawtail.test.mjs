// The key's raw tail (key.ts, share.ts; docs/prover.md, "The raw tail"): when a device's workers
// decompress the key's points slower than the download brings them, its sections after B2 come
// uncompressed from reveal.tail.<hash>.pks instead. Here: the decision's arithmetic, the tail's
// points compressed again being the key's own end (so the key's pin checks them), and the
// switch over HTTP: the key's download stops where the tail begins, the tail follows, and a tail
// that is not there leaves the key whole; a tail changed anywhere fails the key's pin.
//   npm test (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { compressG1, SectionedKey } from "../dist/key.js";
import { rawTailSooner } from "../dist/share.js";
import { files, pinned, rawTail } from "../dist/pinned.gen.js";

const base = new URL("../dist/assets/", import.meta.url);
const key = readFileSync(new URL(files.sectionedKey, base));
const tail = readFileSync(new URL(rawTail, base));
const at = key.length - tail.length / 2; // where the tail begins in the key
const tailPoints = tail.length / 64;

test("the raw tail's points compressed are the key's end; infinity compresses to its flag", () => {
  assert.equal(tailPoints, 8191 + 6902 + 4863); // Z, B1, A of the reveal circuit's dev key
  assert.deepEqual(Buffer.from(compressG1(tail)), key.subarray(at));
  assert.deepEqual([...compressG1(new Uint8Array(64))], [0x40, ...new Array(31).fill(0)]);
  assert.throws(() => compressG1(new Uint8Array(65)), /not whole points of 64/);
});

test("the raw tail is chosen where the CPU, not the network, would hold the proof back", () => {
  // Decided halfway through B2: its other half still to come. A proof under way: K, B2 and the tail to multiply.
  const proof = { tailPoints, bytesBefore: (6902 * 128) / 2, pending: 0, msmG1: tailPoints + 6909, msmG2: 6902 };
  // The phone test's browser at half a core on Fast 4G (as measured there: 6.5–11 points
  // decompressed a ms, 0.4–0.7 MB/s; the tail came raw and the proof was done ~0.5 s sooner).
  assert.equal(rawTailSooner({ ...proof, decodeRate: 8.4, byteRate: 615 }), true);
  assert.equal(rawTailSooner({ ...proof, decodeRate: 20, byteRate: 800 }), true);
  // Its cores whole, the same network: the decompression keeps up.
  assert.equal(rawTailSooner({ ...proof, decodeRate: 100, byteRate: 800 }), false);
  // The slow CPU on Slow 4G (as measured: 7.5 points a ms, 172 bytes a ms): twice the bytes
  // would cost more than the square roots.
  assert.equal(rawTailSooner({ ...proof, decodeRate: 7.5, byteRate: 172 }), false);
  // No proof under way, a slow CPU: only if the raw bytes arrive before the square roots are done.
  assert.equal(rawTailSooner({ ...proof, msmG1: 0, msmG2: 0, decodeRate: 20, byteRate: 800 }), false);
  assert.equal(rawTailSooner({ ...proof, msmG1: 0, msmG2: 0, decodeRate: 5, byteRate: 800 }), true);
  // Points still waiting for their square roots count against the CPU either way: with the
  // whole of K's waiting (6,909), a device at 30 points a ms is behind; with none, it is not.
  assert.equal(rawTailSooner({ ...proof, decodeRate: 30, byteRate: 800 }), false);
  assert.equal(rawTailSooner({ ...proof, pending: 6909, decodeRate: 30, byteRate: 800 }), true);
  // A rate not measured: no.
  assert.equal(rawTailSooner({ ...proof, decodeRate: 0, byteRate: 800 }), false);
  assert.equal(rawTailSooner({ ...proof, decodeRate: 20, byteRate: 0 }), false);
});

// serve answers the key in chunks of 64 KB every 20 ms and the raw tail (changed by tamper; 404
// when missing; a page, as a server that answers any path with one, when html); served counts
// the requests by path.
const serve = ({ tamper = (d) => d, missing = false, html = false, chunked = false, tailAfterMs = 0 } = {}) =>
  new Promise((resolve) => {
    const served = {};
    const server = createServer(async (req, res) => {
      served[req.url] = (served[req.url] ?? 0) + 1;
      if (req.url.endsWith(rawTail)) {
        await new Promise((r) => setTimeout(r, tailAfterMs));
        if (missing) return res.writeHead(404).end();
        if (html) return res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>Not here");
        if (chunked) res.write(new Uint8Array(0)); // no Content-Length: its size is not told before
        return res.end(tamper(Buffer.from(tail)));
      }
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": key.length });
      for (let off = 0; off < key.length && !res.destroyed; off += 64 << 10) {
        res.write(key.subarray(off, off + (64 << 10)));
        await new Promise((r) => setTimeout(r, 20));
      }
      res.end();
    });
    server.listen(0, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}/`;
      resolve({ assets: { sectionedKey: url + files.sectionedKey, rawTail: url + rawTail, wasm: "", wasmExec: "", sha256: { ...pinned } }, served, close: () => server.close() });
    });
  });

// readAll reads a key as a dealer does, asking for its raw tail once 100 KB have arrived: the
// key's bytes, then the raw tail's, as read.
const readAll = async (k) => {
  const keyBytes = [];
  const rawBytes = [];
  let asked;
  for await (const c of k.read()) {
    if (c instanceof Uint8Array) keyBytes.push(c);
    else rawBytes.push(c.raw);
    if (asked === undefined && k.received >= 100_000) asked = k.switchTail(at, tail.length);
  }
  return { key: Buffer.concat(keyBytes), raw: Buffer.concat(rawBytes), asked };
};

test("switched, the key stops where its raw tail begins and the tail follows; kept whole as the pinned key", async () => {
  const site = await serve();
  try {
    const k = new SectionedKey(site.assets);
    const got = await readAll(k);
    assert.equal(got.asked, true);
    assert.deepEqual(got.key, key.subarray(0, at));
    assert.deepEqual(got.raw, tail);
    assert.equal(k.rawTail, true);
    assert.equal(k.received, key.length); // a raw point counted as its bytes in the key
    assert.equal(k.switchTail(at, tail.length), false); // once
    // A later reader gets the key itself, checked.
    const again = [];
    for await (const c of k.read()) again.push(c);
    assert.equal(again.length, 1);
    assert.deepEqual(Buffer.from(again[0]), key);
    assert.equal(site.served[`/${rawTail}`], 1);
  } finally {
    site.close();
  }
});

test("a raw tail that is not there, or a page answered in its place, leaves the key whole; one changed fails the key's pin", async () => {
  for (const how of [{ missing: true }, { html: true }]) {
    const none = await serve(how);
    try {
      const k = new SectionedKey(none.assets);
      const got = await readAll(k);
      assert.equal(got.asked, true);
      assert.deepEqual(got.key, key);
      assert.equal(got.raw.length, 0);
      assert.equal(k.rawTail, false);
      assert.equal(k.failed, false);
    } finally {
      none.close();
    }
  }
  // One byte of an x changed: the key's bytes rebuilt are not the pinned ones.
  const changed = await serve({ tamper: (d) => ((d[64 * 100 + 5] ^= 1), d) });
  try {
    const k = new SectionedKey(changed.assets);
    await assert.rejects(readAll(k), /the prover's sectionedKey at http:.*reveal\.[0-9a-f]{16}\.pks, its end from its raw tail at http:.*reveal\.tail\.[0-9a-f]{16}\.pks, has sha256 [0-9a-f]{64}, not the pinned [0-9a-f]{64}: refused \(the key or its raw tail is not the pinned key's\)/);
    assert.equal(k.failed, true);
  } finally {
    changed.close();
  }
  // Cut short: not taken when its Content-Length says so; said so after, when none did.
  for (const chunked of [false, true]) {
    const short = await serve({ tamper: (d) => d.subarray(0, d.length - 64), chunked });
    try {
      const k = new SectionedKey(short.assets);
      if (chunked) await assert.rejects(readAll(k), /raw tail at http:.* has \d+ bytes, not \d+/);
      else assert.deepEqual((await readAll(k)).key, key);
    } finally {
      short.close();
    }
  }
});

test("a raw tail answered after the key has reached where it begins is not waited for: the key comes whole", async () => {
  const site = await serve({ tailAfterMs: 5000 });
  try {
    const k = new SectionedKey(site.assets);
    const got = await readAll(k);
    assert.equal(got.asked, true);
    assert.deepEqual(got.key, key);
    assert.equal(k.rawTail, false);
    assert.equal(k.failed, false);
  } finally {
    site.close();
  }
});

test("the package's raw tail goes with the package's key only", async () => {
  const { assetsAt, assetsWith } = await import("../dist/runtime.js");
  const own = { ...assetsAt("https://cdn.example/"), sectionedKey: "https://cdn.example/ceremony.pks", sha256: { sectionedKey: "ab".repeat(32) } };
  assert.equal(assetsWith(own).rawTail, undefined);
  assert.equal(assetsWith({ ...own, rawTail: "https://cdn.example/ceremony.tail.pks" }).rawTail, "https://cdn.example/ceremony.tail.pks");
  assert.equal(assetsWith(assetsAt("https://cdn.example/")).rawTail, `https://cdn.example/${rawTail}`);
});

test("a raw tail is asked for once, before the key has passed where it begins, and only where there is one", async () => {
  const site = await serve();
  try {
    const k = new SectionedKey(site.assets);
    let twice, late;
    for await (const c of k.read()) {
      void c;
      if (twice === undefined && k.received > 0) twice = [k.switchTail(at, tail.length), k.switchTail(at, tail.length)];
    }
    assert.deepEqual(twice, [true, false]);
    const passed = new SectionedKey(site.assets);
    for await (const c of passed.read()) {
      void c;
      if (late === undefined && passed.received > at && passed.received < key.length) late = passed.switchTail(at, tail.length); // the download still open
    }
    assert.equal(late, false);
    assert.equal(passed.rawTail, false);
    const without = new SectionedKey({ ...site.assets, rawTail: "" });
    assert.equal(without.switchTail(at, tail.length), false);
    without.stop();
  } finally {
    site.close();
  }
});

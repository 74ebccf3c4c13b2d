// The wasm's prover (docs/prover.md) called as a page's workers call it (the key's points
// decoded and multiplied by points.ts's module, refused ones left to the Go wasm): the sectioned key dealt
// between several shares (share.ts's Dealer; here the shares are in this one runtime) in chunks
// of random sizes, and proofs from the points the shares keep. A proof gives the relayer's
// request with the card's signals; a key that is not one, cut short or too long is an error that
// names it. The proofs themselves are checked against the verifier by the Go tests of the same
// prover (service/vault/zk/share_test.go), and by the relayer in node-smoke.mjs and the
// browser's journeys.
//   npm test (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { keccak_256 } from "@noble/hashes/sha3";
import { createHash } from "node:crypto";
import { decodedPoints, files, pinned, rawTail } from "../dist/pinned.gen.js";
const { Dealer } = await import("../dist/share.js");
const { pointModule, withPointModule } = await import("../dist/points.js");

const assets = new URL("../dist/assets/", import.meta.url);
const read = (name) => readFileSync(new URL(files[name], assets));
await import(new URL(files.wasmExec, assets).href); // defines globalThis.Go
const go = new globalThis.Go();
void go.run((await WebAssembly.instantiate(read("wasm"), go.importObject)).instance);
// As a worker has it: the key's points decoded and multiplied by pointwasm's module.
const raw = withPointModule(globalThis.vaultdProver, await pointModule());
const parse = (s) => JSON.parse(s);
const ok = (s) => {
  const v = parse(s);
  if (v.error) throw new Error(v.error);
  return v;
};
const call = async (fn, ...args) => raw[fn](...args);

const key = read("sectionedKey");
const note = ok(raw.newNote(JSON.stringify({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: "1000" })));
const input = { card: note.card, leaves: ["0x1", note.leaf, "0x2"], recipient: "0x2222222222222222222222222222222222222222" };

// chunksOf yields data in chunks of random sizes, a third of them shorter than a point (the
// header and points split across chunks), calling at(i) before chunk i.
async function* chunksOf(data, at = () => {}) {
  for (let off = 0, i = 0; off < data.length; i++) {
    await at(i);
    const n = Math.random() < 0.3 ? 1 + Math.floor(Math.random() * 200) : 1 + Math.floor(Math.random() * 40000);
    yield data.subarray(off, off + n);
    off += n;
  }
}
// proveOn proves inputOf with a dealer's points (the scalars given once solved, as a page does);
// a handle proves once, and one whose proof failed is dropped.
const proveOn = async (dealer, inputOf) => {
  const h = ok(raw.proveStreaming(JSON.stringify(inputOf))).handle;
  try {
    ok(raw.layout(h, await dealer.header));
    dealer.setScalars(raw.scalars(h));
    for (const sums of await dealer.sums()) ok(raw.addSums(h, sums));
  } catch (e) {
    raw.cancel(h);
    throw e;
  }
  const got = ok(raw.finish(h));
  assert.match(parse(raw.finish(h)).error, /no proof under way/);
  return got;
};
// dealt deals data to workers shares (joining more after the first chunks, as a page's that
// start late) and proves inputOf while the key is dealt (from its 21st chunk on).
const dealt = async (data, workers, inputOf = input, joining = 0) => {
  const dealer = new Dealer(Array(workers).fill(call));
  let proof;
  const dealing = dealer.deal(chunksOf(data, (i) => {
    if (i === 3) for (let j = 0; j < joining; j++) dealer.join(call);
    if (i === 20) (proof = proveOn(dealer, inputOf)).catch(() => {}); // awaited below
  }));
  dealing.catch(() => {});
  await Promise.race([dealing, new Promise((r) => setTimeout(r, 10))]);
  proof ??= proveOn(dealer, inputOf);
  return { dealer, got: await proof };
};

// One key dealt once to three shares, its points kept for the proofs below, as a page's Prover
// keeps them.
const kept = new Dealer([call, call, call]);
kept.deal(chunksOf(key)).catch(() => {}); // a failure fails the proofs

test("the key dealt in chunks of random sizes proves the card's reveal, again from the points kept", async () => {
  const got = await proveOn(kept, input);
  // The signals: the tree's root, the card's nullifier, the amount, the recipient, no change, the token.
  const [root, nullifier, amount, recipient, change, tokenId] = got.request.publicSignals.map(BigInt);
  assert.deepEqual([nullifier, amount, recipient, change, tokenId], [BigInt(note.nullifier), 1000n, BigInt(input.recipient), 0n, BigInt(note.tokenId)]);
  assert.equal(got.request.amount, "1000");
  assert.equal(got.change, undefined);
  assert.equal(got.request.proof.pi_a.length, 3);
  const again = await proveOn(kept, input);
  assert.deepEqual(again.request.publicSignals, got.request.publicSignals);
  assert.equal(BigInt(again.request.publicSignals[0]), root);
  assert.notDeepEqual(again.request.proof, got.request.proof); // fresh randomizers
});

test("the module's sums are the Go wasm's, point for point, section by section, over the whole key and a proof's scalars", () => {
  const goOnly = globalThis.vaultdProver; // gnark-crypto's multiplications, in the Go wasm
  const { layout } = ok(goOnly.keyLayout(key));
  const h = ok(goOnly.proveStreaming(JSON.stringify(input))).handle;
  ok(goOnly.layout(h, key));
  const scalars = goOnly.scalars(h);
  goOnly.cancel(h);
  const sumsOf = (p) => {
    const share = ok(p.shareStart(JSON.stringify(layout))).share;
    ok(p.shareScalars(share, scalars));
    for (const s of layout.sections) {
      // Three pieces a section, the first two flushed before the next arrives: the module's
      // windows of 7, 5 and 8 or 9 bits.
      const piece = (from, to) => ok(p.shareFeed(share, s.section, from, key.subarray(s.offset + from * s.pointSize, s.offset + to * s.pointSize)));
      piece(0, 700);
      ok(p.shareFlush(share, s.section));
      piece(700, 800);
      ok(p.shareFlush(share, s.section));
      piece(800, s.count);
    }
    // Through the module, the Go wasm's own share holds none of the points.
    if (p === raw) assert.deepEqual(ok(goOnly.shareSums(share)), { sums: null });
    const { sums } = ok(p.shareSums(share));
    ok(p.shareDrop(share));
    return sums.sort((a, b) => a.section - b.section || b.count - a.count);
  };
  const want = sumsOf(goOnly);
  assert.equal(want.length, layout.sections.length);
  assert.deepEqual(sumsOf(raw), want);
});

test("through the module, scalars the Go wasm refuses are refused, and a share given what is not its points is dropped", () => {
  const { layout } = ok(raw.keyLayout(key));
  const h = ok(raw.proveStreaming(JSON.stringify(input))).handle;
  ok(raw.layout(h, key));
  const scalars = raw.scalars(h);
  raw.cancel(h);
  const k = layout.sections.find((s) => s.pointSize === 32);
  const start = () => {
    const share = ok(raw.shareStart(JSON.stringify(layout))).share;
    ok(raw.shareFeed(share, k.section, 0, key.subarray(k.offset, k.offset + 10 * 32)));
    return share;
  };
  const share = start();
  const above = scalars.slice();
  above.fill(0xff, 0, 32); // the first scalar above r
  assert.match(parse(raw.shareScalars(share, above)).error, /scalar/);
  assert.match(parse(raw.shareFlush(share, k.section)).error, /no scalars/);
  ok(raw.shareScalars(share, scalars));
  const reversed = scalars.slice().reverse();
  assert.match(parse(raw.shareScalars(share, reversed)).error, /already given/);
  const once = ok(raw.shareSums(share)); // the scalars first given, not the ones refused
  ok(raw.shareScalars(share, scalars));
  assert.deepEqual(ok(raw.shareSums(share)), once);
  // Points past the section's end, then a point that is not one: the share is gone.
  assert.match(parse(raw.shareFeed(share, k.section, k.count - 1, key.subarray(k.offset, k.offset + 64))).error, /section/);
  assert.match(parse(raw.shareFlush(share, k.section)).error, /no share with handle/);
  const other = start();
  const bad = Buffer.from(key.subarray(k.offset + 10 * 32, k.offset + 11 * 32));
  bad[0] &= 0b00111111; // a raw point's flags
  assert.match(parse(raw.shareFeed(other, k.section, 10, bad)).error, /not in the compressed encoding/);
  assert.match(parse(raw.shareFlush(other, k.section)).error, /no share with handle/);
});

test("the points the shares hold decoded are the build's pinned copy; dealt decoded to other shares, none is decoded again and they give the same sums and proofs", async () => {
  await proveOn(kept, input); // the key dealt whole
  const held = await kept.held();
  assert.equal(held.length, decodedPoints.size);
  assert.equal(createHash("sha256").update(held).digest("hex"), decodedPoints.sha256);
  // Shares given the decoded copy multiply as the ones that decoded the key.
  const stored = new Dealer([call, call]);
  await stored.deal(chunksOf(key), Promise.resolve(held));
  assert.equal(stored.fromStorage, true);
  assert.equal(kept.fromStorage, false);
  const h = ok(raw.proveStreaming(JSON.stringify(input))).handle;
  ok(raw.layout(h, key));
  const scalars = raw.scalars(h);
  raw.cancel(h);
  const sumsOf = async (d) => {
    d.setScalars(scalars);
    const bySection = new Map();
    for (const s of await d.sums()) {
      for (const { section, count } of ok(s).sums) bySection.set(section, (bySection.get(section) ?? 0) + count);
    }
    return bySection;
  };
  assert.deepEqual(await sumsOf(stored), await sumsOf(kept)); // every point, once
  // The sums themselves: one share of each kind, the same scalars.
  const { layout } = ok(raw.keyLayout(key));
  const one = (feed) => {
    const share = ok(raw.shareStart(JSON.stringify(layout))).share;
    ok(raw.shareScalars(share, scalars));
    let at = 0;
    for (const s of layout.sections) {
      const size = s.pointSize === 32 ? 144 : 288;
      feed(share, s, at, size);
      at += s.count * size;
    }
    const { sums } = ok(raw.shareSums(share));
    ok(raw.shareDrop(share));
    return sums;
  };
  const fed = one((share, s) => ok(raw.shareFeed(share, s.section, 0, key.subarray(s.offset, s.offset + s.count * s.pointSize))));
  const loaded = one((share, s, at, size) => ok(raw.shareLoad(share, s.section, 0, held.subarray(at, at + s.count * size))));
  assert.equal(fed.length, layout.sections.length);
  assert.deepEqual(loaded, fed);
  const got = await proveOn(stored, input);
  assert.equal(BigInt(got.request.publicSignals[1]), BigInt(note.nullifier));
  // A copy of another size is not used: the key's points are decoded.
  const short = new Dealer([call]);
  await short.deal(chunksOf(key), Promise.resolve(held.subarray(0, held.length - 144)));
  assert.equal(short.fromStorage, false);
  await proveOn(short, input);
});

test("a partial reveal gives its change card", async () => {
  const got = await proveOn(kept, { ...input, amount: "400" });
  assert.equal(got.request.amount, "400");
  assert.match(got.change, /^vaultd-card:v1\?/);
});

// The vault's feeBinding, written here from its definition (keccak256 of abi.encode(recipient,
// fee, feeReceiver), reduced into BN254's scalar field), not from the prover's code.
const scalarField = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
const word = (v) => BigInt(v).toString(16).padStart(64, "0");
const feeBinding = (recipient, fee, receiver) =>
  BigInt("0x" + Buffer.from(keccak_256(Buffer.from(word(recipient) + word(fee) + word(receiver), "hex"))).toString("hex")) % scalarField;

test("a reveal paying a fee carries the binding of recipient, fee and receiver as signal [3]", async () => {
  const fee = { amount: "30", receiver: "0x3333333333333333333333333333333333333333" };
  for (const amount of [undefined, "400"]) {
    const got = await proveOn(kept, { ...input, amount, fee });
    const s = got.request.publicSignals.map(BigInt);
    assert.equal(s[3], feeBinding(input.recipient, 30n, fee.receiver));
    assert.notEqual(s[3], BigInt(input.recipient));
    assert.equal(s[2], BigInt(amount ?? "1000")); // the amount revealed, the fee in it
    assert.equal(got.request.recipient.toLowerCase(), input.recipient); // the relayer's request names the recipient
  }
});

test("a fee the vault would refuse is refused before proving", () => {
  const refused = (fee, amount) => parse(raw.proveStreaming(JSON.stringify({ ...input, amount, fee }))).error;
  assert.match(refused({ amount: "1000", receiver: "0x" + "33".repeat(20) }), /less than the amount revealed/);
  assert.match(refused({ amount: "400", receiver: "0x" + "33".repeat(20) }, "400"), /less than the amount revealed/);
  assert.match(refused({ amount: "0", receiver: "0x" + "33".repeat(20) }), /fee: its amount/);
  assert.match(refused({ amount: "1", receiver: "0x" + "00".repeat(20) }), /fee: its receiver/);
  assert.match(refused({ amount: "1", receiver: "nobody" }), /fee: its receiver/);
});

test("a key that is not one is an error that names it; a handle proves only while its proof is under way", async () => {
  const bad = Buffer.from(key);
  bad[0] ^= 1; // the magic
  assert.match(parse(raw.keyLayout(bad)).error, /sectioned proving key: it does not start with/);
  await assert.rejects(dealt(bad, 2), /sectioned proving key: it does not start with/);
  const h = ok(raw.proveStreaming(JSON.stringify(input))).handle;
  assert.match(parse(raw.layout(h, bad.subarray(0, 1000))).error, /sectioned proving key/);
  ok(raw.cancel(h));
  assert.match(parse(raw.layout(h, key)).error, /no proof under way/);
  assert.match(parse(raw.finish(h)).error, /no proof under way/);
  assert.match(parse(raw.finish("1")).error, /finish\(handle\)/);
});

test("the key dealt between three workers' shares proves the card's reveal, then another card's from the points kept", async () => {
  const { dealer, got } = await dealt(key, 1, { ...input, amount: "400" }, 2); // two of them join late
  assert.equal(raw.shareSums(1 << 30), JSON.stringify({ error: `no share with handle ${1 << 30}` }));
  const [, nullifier, amount] = got.request.publicSignals.map(BigInt);
  assert.deepEqual([nullifier, amount], [BigInt(note.nullifier), 400n]);
  assert.match(got.change, /^vaultd-card:v1\?/);
  // A proof abandoned once its scalars are given (reset), then another card's from the same points.
  const h = ok(raw.proveStreaming(JSON.stringify(input))).handle;
  ok(raw.layout(h, await dealer.header));
  dealer.setScalars(raw.scalars(h));
  assert.throws(() => dealer.setScalars(raw.scalars(h)), /a proof is already under way/);
  dealer.reset();
  ok(raw.cancel(h));
  const other = ok(raw.newNote(JSON.stringify({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: "700" })));
  const again = await proveOn(dealer, { ...input, card: other.card, leaves: ["0x1", other.leaf] });
  assert.deepEqual(again.request.publicSignals.slice(1, 3).map(BigInt), [BigInt(other.nullifier), 700n]);
  dealer.drop();
});

test("a worker lost while the key is dealt fails the proof; the key dealt again to the others proves", async () => {
  let alive = true;
  const dying = async (fn, ...args) => {
    if (!alive) throw new Error("the prover's worker stopped: exit code 2");
    return raw[fn](...args);
  };
  const dealer = new Dealer([call, dying]);
  dealer.deal(chunksOf(key, (i) => void (i === 10 && (alive = false)))).catch(() => {});
  const h = ok(raw.proveStreaming(JSON.stringify(input))).handle;
  ok(raw.layout(h, await dealer.header));
  dealer.setScalars(raw.scalars(h));
  await assert.rejects(dealer.sums(), /worker stopped/);
  assert.equal(dealer.broken, true);
  dealer.reset();
  dealer.drop();
  ok(raw.cancel(h));
  const again = new Dealer([call]);
  again.deal(chunksOf(key)).catch(() => {});
  const got = await proveOn(again, input);
  assert.equal(BigInt(got.request.publicSignals[1]), BigInt(note.nullifier));
  again.drop();
});

test("a dealt key cut short, with bytes after its end, or with a point not in its encoding, is refused", async () => {
  const { layout } = ok(raw.keyLayout(key));
  const rawPoint = Buffer.from(key);
  rawPoint[layout.headerSize] &= 0b00111111; // a raw point's flags where compressed points are
  await assert.rejects(dealt(rawPoint, 2), /sectioned proving key: a point that is not in the compressed encoding/);
  await assert.rejects(dealt(key.subarray(0, layout.headerSize + 100 * 32 + 5), 2), /ends in section 4 \(100 of 6909 points\)/);
  await assert.rejects(dealt(Buffer.concat([key, Buffer.from([0])]), 2), /bytes after its last section/);
  await assert.rejects(dealt(key.subarray(0, 300), 2), /ends in its header/);
  assert.deepEqual(ok(raw.keyLayout(key.subarray(0, 10))), { need: 497 });
  const h = ok(raw.proveStreaming(JSON.stringify(input))).handle;
  assert.match(parse(raw.finish(h)).error, /sectioned proving key: its header was never read/); // no layout read
});

// The key's raw tail (key.ts, docs/prover.md): its sections after B2 uncompressed.
const tail = readFileSync(new URL(rawTail, assets));
const tailAt = key.length - tail.length / 2;
// withTail yields the key up to where its raw tail begins, then the tail (as SectionedKey.read
// does once switched), in chunks of random sizes.
async function* withTail() {
  yield* chunksOf(key.subarray(0, tailAt));
  for await (const c of chunksOf(tail)) yield { raw: c };
}
const sumsOf = async (d, scalars) => {
  d.setScalars(scalars);
  return (await d.sums()).map((s) => ok(s).sums.sort((a, b) => a.section - b.section));
};

test("a key dealt with its raw tail gives the sums of the key dealt compressed, and the same points decoded", async () => {
  const h = ok(raw.proveStreaming(JSON.stringify(input))).handle;
  ok(raw.layout(h, key));
  const scalars = raw.scalars(h);
  raw.cancel(h);
  const compressed = new Dealer([call]);
  await compressed.deal(chunksOf(key));
  const switched = new Dealer([call]);
  await switched.deal(withTail());
  assert.equal(switched.rawTail, true);
  assert.equal(compressed.rawTail, false);
  assert.deepEqual(await sumsOf(switched, scalars), await sumsOf(compressed, scalars));
  const held = await switched.held();
  assert.equal(createHash("sha256").update(held).digest("hex"), decodedPoints.sha256);
  const got = await proveOn(switched, input);
  assert.equal(BigInt(got.request.publicSignals[1]), BigInt(note.nullifier));
  // A raw point off the curve (its y changed) is refused, by its place in the key.
  const bad = Buffer.from(tail);
  bad[64 * 7 + 63] ^= 1;
  const refusing = new Dealer([call]);
  await refusing.deal((async function* () {
    yield key.subarray(0, tailAt);
    yield { raw: bad };
  })());
  await assert.rejects(proveOn(refusing, input), /point 7 of section 5, in the key's raw tail, is not on the curve/);
  for (const d of [compressed, switched, refusing]) d.drop();
});

// paced yields the key in chunks of 16 KB, one every ms ms.
async function* paced(ms) {
  for (let at = 0; at < key.length; at += 16 << 10) {
    await new Promise((r) => setTimeout(r, ms));
    yield key.subarray(at, at + (16 << 10));
  }
}
// timed is call with each decompression's time (the module's answer) said to be msPerPoint a point.
const timed = (msPerPoint) => async (fn, ...args) => {
  const a = await call(fn, ...args);
  if (fn !== "shareFeed" || parse(a).error) return a;
  return JSON.stringify({ ms: (args[3].length / 32) * msPerPoint });
};

test("the dealer asks for the raw tail, once, when its workers decompress slower than the key arrives, and not when they keep up", async () => {
  for (const [msPerPoint, want] of [[0.2, true], [0.0005, false]]) {
    const asked = [];
    // The key's bytes said to arrive at 3.2 KB a ms.
    const source = { byteRate: () => 3200, switchTail: (at, bytes) => (asked.push([at, bytes]), true) };
    const d = new Dealer([timed(msPerPoint), timed(msPerPoint)], () => {}, source);
    await d.deal(paced(0));
    assert.deepEqual(asked, want ? [[tailAt, tail.length]] : [], `${msPerPoint} ms a point`);
    const { decodePerMs, ...rest } = d.tailDecision;
    assert.deepEqual(rest, { bytesPerMs: 3200, asked: want });
    assert.ok(Math.abs(decodePerMs * msPerPoint - 1) < 1e-6 || Math.abs(decodePerMs * msPerPoint - 2) < 1e-6, `${decodePerMs} points a ms`); // one worker's rate, or both's
    d.drop();
  }
});

test("over HTTP, a dealer whose workers fall behind asks the key for its raw tail where it begins, and multiplies the same points", async () => {
  const { createServer } = await import("node:http");
  const { SectionedKey } = await import("../dist/key.js");
  const server = createServer(async (req, res) => {
    if (req.url.endsWith(rawTail)) return res.end(tail);
    for (let off = 0; off < key.length && !res.destroyed; off += 16 << 10) {
      res.write(key.subarray(off, off + (16 << 10)));
      await new Promise((r) => setTimeout(r, 2));
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  try {
    const k = new SectionedKey({ sectionedKey: url + files.sectionedKey, rawTail: url + rawTail, wasm: "", wasmExec: "", sha256: { ...pinned } });
    const d = new Dealer([timed(0.2), timed(0.2)], () => {}, k); // said to decompress 5 points a ms each
    await d.deal(k.read());
    assert.equal(d.tailDecision?.asked, true);
    assert.equal(d.rawTail, true);
    assert.equal(k.rawTail, true);
    assert.equal(k.failed, false);
    // The points the workers hold are the key's, decoded (the build's pinned copy), and prove.
    assert.equal(createHash("sha256").update(await d.held()).digest("hex"), decodedPoints.sha256);
    const got = await proveOn(d, input);
    assert.equal(BigInt(got.request.publicSignals[1]), BigInt(note.nullifier));
    // The key kept is the pinned one.
    const again = [];
    for await (const c of k.read()) again.push(c);
    assert.deepEqual(Buffer.concat(again), key);
    d.drop();
  } finally {
    server.close();
  }
});

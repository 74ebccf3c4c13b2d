// The faucet's proof of work in Node: the solver against the vectors the Go reference writes
// (service/faucet/pow/testdata/vectors.json): the same hashes, the same first nonce; progress,
// cancel and a refused challenge; then claimWithWork's exchange with a faucet.
//   npm test (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createClients, VaultdError } from "../dist/index.js";
import { claimWithWork, meets, powHash, solveChallenge } from "../dist/pow.js";

const doc = JSON.parse(readFileSync(new URL("../../../service/faucet/pow/testdata/vectors.json", import.meta.url), "utf8"));
const hex = (b) => "0x" + Buffer.from(b).toString("hex");
const challengeOf = (v) => ({ challenge: v.challenge, address: v.address, salt: v.salt, algorithm: "argon2id", work: v.work, memoryKiB: v.memoryKiB, passes: v.passes });

for (const v of doc.vectors) {
  test(`Go's vectors: ${v.name}`, async () => {
    const c = challengeOf(v);
    for (const h of v.hashes) {
      const got = await powHash(c, h.nonce);
      assert.equal(hex(got), h.hash, `nonce ${h.nonce}`);
      assert.equal(meets(got, v.work), h.meets, `nonce ${h.nonce} meets ${v.work}`);
    }
    const seen = [];
    const solution = await solveChallenge(c, { worker: false, onProgress: (p) => seen.push(p) });
    assert.deepEqual(solution, { challenge: v.challenge, nonce: v.firstNonce });
    assert.deepEqual(seen.at(-1), { tries: v.firstNonce + 1, work: v.work });
  });
}

test("meets is Go's pow.Meets at the target's edge: below floor((2^64 - 1) / work)", () => {
  const at = (first) => {
    const h = new Uint8Array(32);
    new DataView(h.buffer).setBigUint64(0, first);
    return h;
  };
  const target = 0xffffffffffffffffn / 3n;
  assert.equal(meets(at(target - 1n), 3), true);
  assert.equal(meets(at(target), 3), false);
  assert.equal(meets(at(0xffffffffffffffffn), 1), true);
});

test("a solve reports its tries and stops when its signal aborts", async () => {
  const c = { ...challengeOf(doc.vectors[2]), work: 2 ** 40, memoryKiB: 8 };
  const abort = new AbortController();
  const seen = [];
  const solving = solveChallenge(c, {
    worker: false,
    signal: abort.signal,
    onProgress: (p) => {
      seen.push(p);
      if (seen.length === 2) abort.abort(new Error("cancelled by the user"));
    },
  });
  await assert.rejects(solving, /cancelled by the user/);
  assert.equal(seen.length, 2);
  assert.ok(seen[1].tries > seen[0].tries && seen[1].work === 2 ** 40, JSON.stringify(seen));
  await assert.rejects(solveChallenge(c, { worker: false, signal: AbortSignal.abort(new Error("before it started")) }), /before it started/);
});

test("a challenge the solver cannot solve is refused with a clear error", async () => {
  const c = challengeOf(doc.vectors[0]);
  await assert.rejects(solveChallenge({ ...c, algorithm: "scrypt" }, { worker: false }), /asks for scrypt: this solver knows argon2id only/);
  await assert.rejects(solveChallenge({ ...c, salt: "0x1234" }, { worker: false }), /salt is not 16 bytes/);
  await assert.rejects(solveChallenge({ ...c, work: 0 }, { worker: false }), /work is not a positive integer/);
});

// A stand-in for the faucet's two routes, on loopback, that says what it is: it answers a
// script of challenges and claim answers, and checks each claim's nonce against Go's first nonce.
// The real faucet is run by web/example's browser test (the claim with a solve); a stand-in
// here because its POW_EXPIRED takes its TTL (at least a minute) to happen, and POW_USED a
// second claim for an address that was paid.
async function standIn(script) {
  const seen = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url, "http://x");
    seen.push({ method: req.method, path: url.pathname, address: url.searchParams.get("address") ?? undefined, body: body ? JSON.parse(body) : undefined });
    const [status, answer, headers] = script.shift();
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(answer));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const faucet = createClients({ faucet: `http://127.0.0.1:${server.address().port}` }).faucet;
  return { faucet, seen, close: () => server.close() };
}

const v = doc.vectors[1];
const claimed = { address: v.address, status: "pending", txHash: "0x" + "ab".repeat(32) };
const refused = (code) => [403, { error: `the stand-in refuses: ${code}`, code }];

test("claimWithWork claims without proof of work from a faucet that asks none (404)", async () => {
  const s = await standIn([[404, { error: "this faucet asks no proof of work: claim without one", code: "NOT_FOUND" }], [202, claimed]]);
  try {
    let asked = false;
    assert.deepEqual(await claimWithWork(s.faucet, v.address, { worker: false, onChallenge: () => (asked = true) }), claimed);
    assert.equal(asked, false);
    assert.deepEqual(s.seen.map((r) => [r.method, r.path, r.address]), [["GET", "/api/faucet/challenge", v.address], ["POST", "/api/faucet/claim", undefined]]);
    assert.deepEqual(s.seen[1].body, { address: v.address });
  } finally {
    s.close();
  }
});

test("claimWithWork solves the challenge and claims with it; an expired one is asked again, once", async () => {
  const s = await standIn([[200, challengeOf(v)], refused("POW_EXPIRED"), [200, challengeOf(v)], [202, claimed]]);
  try {
    const progress = [];
    assert.deepEqual(await claimWithWork(s.faucet, v.address, { worker: false, onProgress: (p) => progress.push(p) }), claimed);
    const claims = s.seen.filter((r) => r.method === "POST");
    assert.equal(claims.length, 2);
    for (const c of claims) assert.deepEqual(c.body, { address: v.address, pow: { challenge: v.challenge, nonce: v.firstNonce } });
    assert.deepEqual(progress.at(-1), { tries: v.firstNonce + 1, work: v.work });
  } finally {
    s.close();
  }
  for (const code of ["POW_USED", "POW_EXPIRED"]) {
    const twice = await standIn([[200, challengeOf(v)], refused(code), [200, challengeOf(v)], refused(code)]);
    try {
      await assert.rejects(claimWithWork(twice.faucet, v.address, { worker: false }), (e) => e instanceof VaultdError && e.status === 403 && e.code === code);
      assert.equal(twice.seen.length, 4);
    } finally {
      twice.close();
    }
  }
});

test("claimWithWork passes any other refusal on, asking nothing again", async () => {
  const s = await standIn([[200, challengeOf(v)], [409, { error: "already claimed", code: "ALREADY_CLAIMED" }]]);
  try {
    await assert.rejects(claimWithWork(s.faucet, v.address, { worker: false }), (e) => e instanceof VaultdError && e.code === "ALREADY_CLAIMED");
    assert.equal(s.seen.length, 2);
  } finally {
    s.close();
  }
});

test("claimWithWork sends the same solution again after a short Retry-After (the faucet busy checking), 3 times at most", async () => {
  const busy = [503, { error: "the faucet is checking as many proofs of work as it can at once; try again in a moment", code: "UNAVAILABLE" }, { "retry-after": "1" }];
  const s = await standIn([[200, challengeOf(v)], busy, busy, [202, claimed]]);
  try {
    assert.deepEqual(await claimWithWork(s.faucet, v.address, { worker: false }), claimed);
    assert.deepEqual(s.seen.map((r) => r.method), ["GET", "POST", "POST", "POST"]);
    for (const c of s.seen.slice(1)) assert.deepEqual(c.body, { address: v.address, pow: { challenge: v.challenge, nonce: v.firstNonce } });
  } finally {
    s.close();
  }
  const always = await standIn([[200, challengeOf(v)], busy, busy, busy, busy]);
  try {
    await assert.rejects(claimWithWork(always.faucet, v.address, { worker: false }), (e) => e instanceof VaultdError && e.status === 503);
    assert.equal(always.seen.length, 5);
  } finally {
    always.close();
  }
  const bare = await standIn([[200, challengeOf(v)], [503, { error: "a proxy's 503", code: "UNAVAILABLE" }]]);
  try {
    await assert.rejects(claimWithWork(bare.faucet, v.address, { worker: false }), (e) => e instanceof VaultdError && e.status === 503);
    assert.equal(bare.seen.length, 2, "a 503 without Retry-After is not sent again");
  } finally {
    bare.close();
  }
  const long = await standIn([[200, challengeOf(v)], [429, { error: "rate limit exceeded", code: "RATE_LIMITED" }, { "retry-after": "3600" }]]);
  try {
    await assert.rejects(claimWithWork(long.faucet, v.address, { worker: false }), (e) => e instanceof VaultdError && e.status === 429);
    assert.equal(long.seen.length, 2);
  } finally {
    long.close();
  }
});

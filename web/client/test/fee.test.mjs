// A relayer's fee in the client: the binding the proof carries, read from the Go vectors
// (service/vault/zk/testdata/feebinding.json, zk.FeeBinding's), and a quote accepted or refused
// against the person's maximum before anything is proved. The fee paid on the chain is in
// node-smoke.mjs, against a devstack whose relayer charges.
//   npm test (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { acceptQuote, createClients, feeBinding, FeeError, readCard, revealAndWait, VaultdError, VoucherError } from "../dist/index.js";

const vectors = JSON.parse(readFileSync(new URL("../../../service/vault/zk/testdata/feebinding.json", import.meta.url), "utf8"));

test("feeBinding is zk.FeeBinding: the Go vectors", () => {
  assert.ok(vectors.cases.length > 0);
  for (const c of vectors.cases) assert.equal(feeBinding(c.recipient, c.fee, c.receiver).toString(), c.binding, JSON.stringify(c));
});

const token = "0x2D66D37637CE3979e9D15B91221e77fbbc827d5a";
const receiver = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const now = Date.parse("2026-11-26T05:00:00Z");
const quote = {
  chainId: 1337, vault: "0x" + "11".repeat(20), tokenAddress: token, amount: "1000", partial: false, fee: "30", feeReceiver: receiver,
  expiresAt: now / 1000 + 60, gas: 300000, feePerGas: "1000000000", price: "1000000", marginBps: 2000, signer: receiver, signature: "0x" + "00".repeat(65),
};

test("acceptQuote: a fee at most the person's maximum, for this reveal, not expired", () => {
  assert.deepEqual(acceptQuote(quote, 30n, { tokenAddress: token.toLowerCase(), amount: 1000n }, now), { amount: "30", receiver, quote });
  const refused = (q, max, reveal = { tokenAddress: token, amount: "1000" }) => {
    try {
      acceptQuote(q, max, reveal, now);
    } catch (e) {
      assert.ok(e instanceof FeeError, String(e));
      return e;
    }
    assert.fail("accepted");
  };
  const high = refused(quote, "29");
  assert.equal(high.problem, "too-high");
  assert.equal(high.fee, 30n);
  assert.match(high.message, /30 is above the 29 accepted/);
  assert.equal(refused({ ...quote, expiresAt: now / 1000 }, 100n).problem, "expired");
  assert.equal(refused(quote, 100n, { tokenAddress: token, amount: 999n }).problem, "mismatch");
  assert.equal(refused(quote, 100n, { tokenAddress: receiver, amount: 1000n }).problem, "mismatch");
  assert.equal(refused({ ...quote, fee: "1000" }, 1000n).problem, "mismatch"); // the whole amount
  assert.equal(refused({ ...quote, feeReceiver: "0x" + "00".repeat(20) }, 100n).problem, "mismatch");
});

test("revealAndWait sends nothing when the request was not proved with the fee", async () => {
  let sent = 0;
  const { relayer } = createClients({ relayer: "http://127.0.0.1:9" }, { fetch: async () => (sent++, new Response("{}", { status: 500 })) });
  const recipient = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
  const fee = acceptQuote(quote, 30n, { tokenAddress: token, amount: 1000n }, now);
  const request = (signal3) => ({
    proof: { pi_a: [], pi_b: [], pi_c: [], protocol: "groth16", curve: "bn128" },
    publicSignals: ["1", "2", "1000", signal3.toString(), "0", "5"],
    recipient, tokenAddress: token, amount: "1000",
  });
  for (const signal3 of [BigInt(recipient), feeBinding(recipient, 29n, receiver), feeBinding(recipient, 30n, token)]) {
    await assert.rejects(revealAndWait(relayer, request(signal3), { fee }), (e) => e instanceof FeeError && e.problem === "mismatch");
  }
  const other = { ...request(feeBinding(recipient, 30n, receiver)), amount: "999" };
  await assert.rejects(revealAndWait(relayer, other, { fee }), (e) => e instanceof FeeError && /reveals 999/.test(e.message));
  assert.equal(sent, 0);
});

// A sponsor's voucher (a card's, readCard's) goes in the reveal's body as the relayer's document
// has it, and a refusal of it is a VoucherError saying what it means. The relayer's answers here
// are written by the test's fetch (the real relayer's refusal of a voucher is in the browser
// journey, web/example/test/voucher.mjs).
test("revealAndWait sends a card's voucher, and tells the relayer's refusal of it", async () => {
  const links = JSON.parse(readFileSync(new URL("../../../service/vault/card/note/testdata/links.json", import.meta.url), "utf8"));
  const card = readCard(links.cases.find((c) => c.want?.voucher).input, links.home);
  assert.ok(card.voucher);
  const bodies = [];
  const answers = [
    [409, "VOUCHER_USED", /already paid for another reveal/],
    [402, "VOUCHER_EXPIRED", /has expired/],
    [402, "VOUCHER_ALLOWANCE_LOW", /allows less than this reveal may cost/],
    [422, "VOUCHER_INVALID", /not valid here/],
  ];
  let answer;
  const fetch = async (req) => {
    bodies.push(await req.json());
    return new Response(JSON.stringify({ error: "refused", code: answer[1] }), { status: answer[0], headers: { "content-type": "application/json" } });
  };
  const { relayer } = createClients({ relayer: "http://127.0.0.1:9" }, { fetch });
  const request = { proof: { pi_a: [], pi_b: [], pi_c: [], protocol: "groth16", curve: "bn128" }, publicSignals: ["1", card.nullifier, "1234", "5", "0", "6"], recipient: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", tokenAddress: card.token, amount: "1234" };
  const problems = [];
  for (answer of answers) {
    await assert.rejects(revealAndWait(relayer, request, { voucher: card.voucher }), (e) => {
      assert.ok(e instanceof VoucherError && e instanceof VaultdError, String(e));
      assert.equal(e.code, answer[1]);
      assert.match(e.message, answer[2]);
      assert.match(e.message, /nothing was sent/);
      problems.push(e.problem);
      return true;
    });
  }
  assert.deepEqual(problems, ["used", "expired", "allowance-low", "invalid"]);
  assert.equal(bodies.length, answers.length); // each posted once, not followed nor posted again
  for (const b of bodies) assert.deepEqual(b, { ...request, voucher: card.voucher });

  // A fee and a voucher together: refused before anything is sent.
  const fee = acceptQuote(quote, 30n, { tokenAddress: token, amount: 1000n }, now);
  await assert.rejects(revealAndWait(relayer, request, { voucher: card.voucher, fee }), /not both/);
  assert.equal(bodies.length, answers.length);
});

// The installed package in Node against a devstack whose relayer charges (RELAYER_FUNDING=fee,
// RELAYER_TOKEN_PRICES for the card's token; .ci/ts-smoke runs it): a card from `card create`
// proved without a fee is refused 402 PAYMENT_REQUIRED and nothing sent; a quote above the
// person's maximum is refused before proving (FeeError); the quote accepted, the card is proved
// paying it and the relayer sends it: the chain shows the recipient holding amount − fee and the
// fee's receiver the fee. Prints the time from the quote to the reveal mined.
//   node fee-smoke.mjs <chain RPC URL> <relayer URL> <indexer URL> <card>
import { acceptQuote, createClients, FeeError, leavesIncluding, quote, revealAndWait, VaultdError } from "@vaultd/client";
import { balanceOfCalldata, Prover } from "@vaultd/client/prover";

const [rpcUrl, relayerUrl, indexerUrl, card] = process.argv.slice(2);
const log = (...a) => console.error(...a);
const fail = (msg) => {
  throw new Error(msg);
};
const clients = createClients({ relayer: relayerUrl, indexer: indexerUrl });
const recipient = "0x4444444444444444444444444444444444444444";

const balanceOf = async (token, owner) => {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: token, data: balanceOfCalldata(owner) }, "latest"] }),
  });
  const { result, error } = await res.json();
  if (error) fail(`balanceOf: ${JSON.stringify(error)}`);
  return BigInt(result);
};

const prover = await Prover.load();
const note = await prover.parseCard(card);
const params = new URL(card.replace("vaultd-card:v1", "http://x/")).searchParams;
const token = params.get("token");
const amount = BigInt(params.get("amount"));
const leaves = await leavesIncluding(clients.indexer, note.leaf);

// Treasury off: a reveal without a fee is refused, nothing sent (the same card pays below).
const unpaid = await prover.prove({ card, leaves, recipient });
try {
  await revealAndWait(clients.relayer, unpaid.request);
  fail("a reveal without a fee was accepted by a relayer that pays for none");
} catch (e) {
  if (!(e instanceof VaultdError) || e.status !== 402 || e.code !== "PAYMENT_REQUIRED") throw e;
  log("ok  a reveal without a fee: 402 PAYMENT_REQUIRED, a typed VaultdError");
}

// A fee above the person's maximum: refused before anything is proved.
const t = performance.now();
const q = await quote(clients.relayer, { tokenAddress: token, amount });
const fee = BigInt(q.fee);
try {
  acceptQuote(q, fee - 1n, { tokenAddress: token, amount });
  fail("a fee above the maximum was accepted");
} catch (e) {
  if (!(e instanceof FeeError) || e.problem !== "too-high" || e.fee !== fee) throw e;
  log(`ok  a fee of ${fee} above a maximum of ${fee - 1n}: FeeError too-high, nothing proved`);
}

const accepted = acceptQuote(q, fee, { tokenAddress: token, amount });
const receiverBefore = await balanceOf(token, q.feeReceiver);
const recipientBefore = await balanceOf(token, recipient);
const { request } = await prover.prove({ card, leaves, recipient, fee: accepted });
const res = await revealAndWait(clients.relayer, request, { fee: accepted, intervalMs: 200 });
const ms = Math.round(performance.now() - t);
if (res.state !== "mined") fail(`the reveal paying a fee: ${JSON.stringify(res)}`);
const got = (await balanceOf(token, recipient)) - recipientBefore;
const earned = (await balanceOf(token, q.feeReceiver)) - receiverBefore;
if (got !== amount - fee || earned !== fee) fail(`the recipient got ${got} (want ${amount - fee}), the fee's receiver ${earned} (want ${fee})`);
log(`ok  a reveal paying the quoted fee: the recipient holds ${got} = ${amount} − ${fee}, the relayer's receiver ${earned} (gas ${res.gasUsed})`);
log(`ok  from the quote to the reveal mined: ${ms} ms (proving included)`);
prover.terminate();
process.exit(0);

// The installed package in Node choosing among a devstack's relayers (`devstack --relayers 3`:
// relayer-2 charges a 60 % margin against the others' 10 %; .ci/ts-smoke runs it), as
// docs/choosing.md says:
// - from the registry's directory and a relayer whose port is closed: relayer-3, paused, and the
//   closed one are dropped with their reasons; relayer-1, the cheapest, is chosen, relayer-2 next;
//   a maximum fee below relayer-2's drops it (`fee-cap`);
// - a relayer down before it answers anything, tried first: the connection is refused, the next
//   (relayer-1) pays, proved once (the same fee and receiver); the chain shows the recipient paid
//   once; the time the down one cost is printed;
// - every relayer down: a RelayersError naming each one's problem, nothing proved or sent.
//   node choice-smoke.mjs <devnet.json> <registry URL> <indexer URL> <admin key> <card>
import { readFileSync } from "node:fs";
import net from "node:net";
import { chooseRelayers, createClients, leavesIncluding, relayerDirectory, RelayersError, revealAndWait, rpcChain } from "@vaultd/client";
import { balanceOfCalldata, Prover } from "@vaultd/client/prover";

const [devnetFile, registryUrl, indexerUrl, adminKey, card] = process.argv.slice(2);
const devnet = JSON.parse(readFileSync(devnetFile, "utf8"));
const { rpcUrl, chainId } = devnet;
const vault = devnet.contracts.vault;
const log = (...a) => console.error(...a);
const fail = (msg) => {
  throw new Error(msg);
};
const clients = createClients({ registry: registryUrl, indexer: indexerUrl });
const recipient = "0x5555555555555555555555555555555555555555";
const rpc = async (method, params) => {
  const res = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const { result, error } = await res.json();
  if (error) fail(`${method}: ${JSON.stringify(error)}`);
  return result;
};
const balanceOf = async (token, owner) => BigInt(await rpc("eth_call", [{ to: token, data: balanceOfCalldata(owner) }, "latest"]));
// closedPort: a loopback URL nothing listens on (a port taken and let go).
const closedPort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(`http://127.0.0.1:${port}`));
    });
  });

const params = new URL(card.replace("vaultd-card:v1", "http://x/")).searchParams;
const token = params.get("token");
const amount = BigInt(params.get("amount"));
const names = (cs) => cs.map((c) => c.relayer.name).join(",");

const directory = await relayerDirectory(clients.registry);
if (names(directory.map((relayer) => ({ relayer }))) !== "relayer-1,relayer-2,relayer-3") fail(`the directory: ${JSON.stringify(directory)}`);
const third = directory[2].url;
const paused = await fetch(`${third}/admin/pause`, { method: "POST", headers: { authorization: `Bearer ${adminKey}` } });
if (paused.status !== 200) fail(`POST /admin/pause at relayer-3: ${paused.status} ${await paused.text()}`);
const gone = { url: await closedPort(), name: "gone" };

const payment = { by: "fee", tokenAddress: token, amount, maxFee: amount / 2n };
const choice = await chooseRelayers([...directory, gone], { chainId, vault, payment, random: () => 0 });
const why = Object.fromEntries(choice.dropped.map((c) => [c.relayer.name, c.dropped.reason]));
if (names(choice.ranked) !== "relayer-1,relayer-2" || why["relayer-3"] !== "paused" || why.gone !== "unreachable" || choice.ranked[0].cost >= choice.ranked[1].cost) {
  fail(`the choice: ranked ${names(choice.ranked)} (${choice.ranked.map((c) => c.cost)}), dropped ${JSON.stringify(why)}`);
}
const [cheapest, dearer] = choice.ranked;
log(`ok  chosen: relayer-1 (fee ${cheapest.cost}), then relayer-2 (fee ${dearer.cost}); dropped: relayer-3 (paused), gone (unreachable)`);

const capped = await chooseRelayers(directory, { chainId, vault, payment: { ...payment, maxFee: dearer.cost - 1n } });
const cappedWhy = Object.fromEntries(capped.dropped.map((c) => [c.relayer.name, c.dropped.reason]));
if (names(capped.ranked) !== "relayer-1" || cappedWhy["relayer-2"] !== "fee-cap") fail(`with a maximum of ${dearer.cost - 1n}: ranked ${names(capped.ranked)}, dropped ${JSON.stringify(cappedWhy)}`);
log(`ok  a maximum fee of ${dearer.cost - 1n}: relayer-2 dropped (fee-cap)`);

// A relayer that went down after its status was read, tried first: its connection is refused,
// and the next pays. Its fee and receiver are relayer-1's, so the one proof serves both.
const prover = await Prover.load();
const note = await prover.parseCard(card);
const leaves = await leavesIncluding(clients.indexer, note.leaf);
let proofs = 0;
const prove = async (fee) => {
  proofs++;
  return (await prover.prove({ card, leaves, recipient, fee })).request;
};
const downFirst = { ...choice, ranked: [{ ...cheapest, relayer: gone, client: createClients({ relayer: gone.url }).relayer }, ...choice.ranked] };
const before = await balanceOf(token, recipient);
const t = performance.now();
// The chain's head read before the proof (fromBlock), as a page does when Redeem is tapped: the
// chain is not asked again between the proof and the first request.
const chain = rpcChain(rpcUrl, vault);
let headsAfter = 0;
const fromBlock = chain.head();
const counted = { ...chain, head: () => (headsAfter++, chain.head()) };
const done = await revealAndWait(downFirst, prove, { chain: counted, fromBlock, intervalMs: 200 });
if (headsAfter !== 0) fail(`the chain's head was read ${headsAfter} times after the proof, though given (fromBlock)`);
const ms = Math.round(performance.now() - t);
const got = (await balanceOf(token, recipient)) - before;
if (done.status.state !== "mined" || done.relayer.name !== "relayer-1" || proofs !== 1 || got !== amount - cheapest.cost) {
  fail(`the failover: ${JSON.stringify({ state: done.status.state, relayer: done.relayer, proofs, got: String(got), attempts: done.attempts })}`);
}
const [lost, sent] = done.attempts;
if (lost.outcome !== "passed" || !/refused/.test(lost.detail) || sent.outcome !== "sent") fail(`the attempts: ${JSON.stringify(done.attempts)}`);
log(`ok  the first choice down (connection refused): relayer-1 paid, the recipient got ${got} once, one proof, the head given not read again; the down one cost ${lost.ms} ms of the ${ms} ms to tokens (proving included)`);

// Every relayer down: nothing to send through, each one's problem named, nothing proved.
const all = await chooseRelayers([gone, { url: await closedPort(), name: "gone-too" }], { chainId, vault, payment });
try {
  await revealAndWait(all, prove, { chain: rpcChain(rpcUrl, vault) });
  fail("a reveal went through with every relayer down");
} catch (e) {
  if (!(e instanceof RelayersError) || e.dropped.length !== 2 || e.problems.join() !== "gone: the connection was refused,gone-too: the connection was refused" || proofs !== 1) throw e;
  log(`ok  every relayer down: RelayersError, nothing proved or sent:\n    ${e.message.split("\n").join("\n    ")}`);
}
prover.terminate();
process.exit(0);

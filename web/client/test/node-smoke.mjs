// The installed package in Node, against a running devstack (.ci/ts-smoke packs and installs it):
// a card made by the Go tool (`card create`) is read, proved from the indexer's leaves in part
// (the change goes to a new card the wasm made) and posted to the relayer; the repeat is refused;
// the change card is printed for the Go tool to redeem, so the format is tested both ways.
//   node node-smoke.mjs <relayer URL> <indexer URL> <card>   →  prints the change card
import { createClients, leavesIncluding, nullifierOf, ok, revealAndWait, VaultdError } from "@vaultd/client";
import { assetsAt, Prover } from "@vaultd/client/prover";

const [relayerUrl, indexerUrl, card] = process.argv.slice(2);
const log = (...a) => console.error(...a);
const clients = createClients({ relayer: relayerUrl, indexer: indexerUrl });

// A proving key changed anywhere (here a copy with one byte flipped) gives no proof: the package
// pins its assets' sha256, and the key's is taken as it is fed to the proof.
const { readFile, writeFile, mkdtemp, rm } = await import("node:fs/promises");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const { fileURLToPath, pathToFileURL } = await import("node:url");
const keyUrl = assetsAt(new URL("./assets/", import.meta.resolve("@vaultd/client/prover")).href).sectionedKey;
const tampered = await readFile(fileURLToPath(keyUrl));
tampered[tampered.length - 1] ^= 1;
const tamperedDir = await mkdtemp(join(tmpdir(), "vaultd-smoke-"));
const tamperedFile = join(tamperedDir, "reveal.pks");
await writeFile(tamperedFile, tampered);
const wrong = await Prover.load({ assets: { sectionedKey: pathToFileURL(tamperedFile).href } });
try {
  const n = await wrong.newNote({ chainId: 1, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: 1n });
  await wrong.prove({ card: n.card, leaves: [n.leaf], recipient: "0x2222222222222222222222222222222222222222" });
  throw new Error("a tampered proving key gave a proof");
} catch (e) {
  if (!String(e?.message ?? e).includes("not the pinned")) throw e;
  log("ok  a tampered proving key gives no proof: its sha256 is not the pinned one");
}
wrong.terminate();
await rm(tamperedDir, { recursive: true, force: true });

let t = performance.now();
const prover = await Prover.load();
log(`ok  the prover loads in Node (${Math.round(performance.now() - t)} ms), every asset's sha256 checked`);
const note = await prover.parseCard(card);
if (!note.card.startsWith("vaultd-card:v1?") || !note.leaf.startsWith("0x")) throw new Error(`parseCard: ${JSON.stringify(note)}`);
log("ok  a card from `card create` is read by the wasm prover");

// The card was committed a moment ago: the indexer may still be a block behind.
const leaves = await leavesIncluding(clients.indexer, note.leaf);
const amount = BigInt(new URL(card.replace("vaultd-card:v1", "http://x/")).searchParams.get("amount"));
t = performance.now();
const { request, change } = await prover.prove({ card, leaves, recipient: "0x2222222222222222222222222222222222222222", amount: amount - 1n });
log(`ok  a partial reveal proved in Node (${Math.round(performance.now() - t)} ms), change card ${change ? "made" : "MISSING"}`);
if (!change) process.exit(1);

// The POST reaches the relayer, which sends the reveal, but its answer is lost on the way back
// (a fetch that throws after the real one): revealAndWait follows the reveal by its nullifier
// (GET /reveal/{nullifier}) instead of sending it again, until it is mined.
let posts = 0;
const lossy = createClients({ relayer: relayerUrl }, {
  fetch: async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const answer = await fetch(req);
    if (req.method === "POST") {
      posts++;
      await answer.arrayBuffer();
      throw new TypeError("fetch failed: the connection was lost before the answer");
    }
    return answer;
  },
});
const res = await revealAndWait(lossy.relayer, request, { intervalMs: 200 });
if (res.state !== "mined" || !res.txHash || !res.blockNumber || posts !== 1) throw new Error(`revealAndWait: ${JSON.stringify(res)}, ${posts} posts`);
const status = ok(await clients.relayer.GET("/reveal/{nullifier}", { params: { path: { nullifier: nullifierOf(request) } } }));
if (status.state !== "mined" || status.txHash !== res.txHash) throw new Error(`status: ${JSON.stringify(status)}`);
log(`ok  the relayer pays the wasm's proof (${res.txHash}); its answer lost, revealAndWait followed it to mined, posting once`);
try {
  await revealAndWait(clients.relayer, request);
  throw new Error("the repeat was accepted");
} catch (e) {
  if (!(e instanceof VaultdError) || e.status !== 409 || e.code !== "NULLIFIER_USED") throw e;
  log("ok  the repeat is refused: 409 NULLIFIER_USED, as a typed VaultdError");
  // The client sent a request id and a traceparent of its own; the error carries the id back
  // and the trace the relayer answered in (its traceresponse), to find the log line and trace.
  if (!/^[0-9a-f]{16}$/.test(e.requestId ?? "") || !/^[0-9a-f]{32}$/.test(e.traceId ?? "")) throw new Error(`the error's requestId ${e.requestId}, traceId ${e.traceId}`);
  log(`ok  the VaultdError names its request (${e.requestId}) and trace (${e.traceId})`);
}
// A caller's own traceparent and X-Request-Id are sent as given; the relayer, which does not
// trust this caller's trace (TRUST_TRACEPARENT unset, no proxy), answers in a trace of its own
// (linked to the caller's), named in traceresponse.
const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const own = createClients({ relayer: relayerUrl }, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "X-Request-Id": "smoke-1" } });
const answered = await own.relayer.GET("/reveal/{nullifier}", { params: { path: { nullifier: nullifierOf(request) } } });
const answeredTrace = answered.response.headers.get("traceresponse")?.split("-")[1] ?? "";
if (answered.response.headers.get("X-Request-Id") !== "smoke-1" || !/^[0-9a-f]{32}$/.test(answeredTrace) || answeredTrace === traceId) {
  throw new Error(`the caller's traceparent and request id: ${answered.response.headers.get("traceresponse")}, ${answered.response.headers.get("X-Request-Id")}`);
}
log("ok  a caller's X-Request-Id is kept, and an untrusted caller's traceparent starts the service's own trace (traceresponse)");
console.log(change);
prover.terminate();
process.exit(0);

// leavesIncluding against an indexer that fails a moment (a stub HTTP server on loopback: a 503
// on cue is a fault the real indexer does not make): it asks again until the leaf is indexed,
// rather than throwing, which a redeem page takes for a card of another vault. Needs the built
// package.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createClients, leavesIncluding } from "../dist/index.js";

const leaf = "0x" + "11".repeat(32);

// indexer answers the first `failing` requests 503, then one page holding leaf 0.
function indexer(failing) {
  let asked = 0;
  const server = http.createServer((req, res) => {
    asked++;
    res.setHeader("Content-Type", "application/json");
    if (asked <= failing) {
      res.statusCode = 503;
      res.end(JSON.stringify({ error: "the indexer is catching up", code: "UNAVAILABLE" }));
      return;
    }
    res.end(JSON.stringify({
      events: [{ event: "CommitmentInserted", blockNumber: 5, logIndex: 0, blockHash: "0x" + "22".repeat(32), txHash: "0x" + "33".repeat(32),
        address: "0x" + "44".repeat(20), args: { commitment: leaf, leafIndex: "0" }, cursor: "c1" }],
      indexedTo: { blockNumber: 5, blockHash: "0x" + "22".repeat(32) },
    }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}`, asked: () => asked })));
}

test("an indexer failing a moment is asked again until the leaf is there", async () => {
  const { server, url, asked } = await indexer(3);
  try {
    const leaves = await leavesIncluding(createClients({ indexer: url }).indexer, leaf, { intervalMs: 5, timeoutMs: 10_000 });
    assert.deepEqual(leaves, [leaf]);
    assert.equal(asked(), 4);
  } finally {
    server.close();
  }
});

test("an indexer failing until the deadline: its error, not that the leaf is missing", async () => {
  const { server, url } = await indexer(Infinity);
  try {
    await assert.rejects(leavesIncluding(createClients({ indexer: url }).indexer, leaf, { intervalMs: 5, timeoutMs: 200 }), (e) => !/leaves and not/.test(String(e)));
  } finally {
    server.close();
  }
});

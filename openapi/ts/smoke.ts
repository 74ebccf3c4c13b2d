// The calls a web application makes, run with the generated types and openapi-fetch against a
// running stack (.ci/run starts devstack): not only type-checked, executed.
//   node build/smoke.js <registry URL> <relayer URL> <faucet URL> <indexer URL> <reveal request JSON>
import createClient from "openapi-fetch";
import type { paths as RegistryPaths } from "../../gen/ts/registry";
import type { components, paths as RelayerPaths } from "../../gen/ts/relayer";
import type { paths as FaucetPaths } from "../../gen/ts/faucet";
import type { paths as IndexerPaths } from "../../gen/ts/indexer";

declare const process: { argv: string[]; exitCode?: number };

type RevealRequest = components["schemas"]["RevealRequest"];

function expect(ok: boolean, what: string, got: unknown): void {
  if (!ok) {
    throw new Error(`${what}: got ${JSON.stringify(got)}`);
  }
  console.log(`ok  ${what}`);
}

async function main(): Promise<void> {
  const [registryUrl, relayerUrl, faucetUrl, indexerUrl, requestJson] = process.argv.slice(2);
  const registry = createClient<RegistryPaths>({ baseUrl: registryUrl });
  const relayer = createClient<RelayerPaths>({ baseUrl: relayerUrl });
  const faucet = createClient<FaucetPaths>({ baseUrl: faucetUrl });
  const indexer = createClient<IndexerPaths>({ baseUrl: indexerUrl });

  const list = await registry.GET("/tokens");
  expect(
    list.response.status === 200 && (list.data?.tokens.length ?? 0) >= 1 && list.data!.tokens.every((t) => t.tokenId.startsWith("0x")),
    "GET /tokens lists the dev tokens with their tokenIds",
    list.data ?? list.error,
  );
  const again = await registry.GET("/tokens", { headers: { "If-None-Match": list.response.headers.get("ETag") ?? "" } });
  expect(again.response.status === 304, "GET /tokens with its ETag is 304", again.response.status);

  const health = await relayer.GET("/health");
  expect(health.data?.status === "healthy", "relayer GET /health is healthy", health.data ?? health.error);

  const body: RevealRequest = JSON.parse(requestJson);
  const first = await relayer.POST("/reveal", { body });
  expect(first.data?.success === true && /^0x[0-9a-f]{64}$/.test(first.data.txHash), "POST /reveal is mined", first.data ?? first.error);

  const second = await relayer.POST("/reveal", { body });
  expect(second.response.status === 409 && second.error?.code === "NULLIFIER_USED", "the same reveal again is 409 NULLIFIER_USED", second.error);

  const bad = await relayer.POST("/reveal", { body: { ...body, amount: "twelve" } });
  expect(bad.response.status === 400 && bad.error?.code === "INVALID_REQUEST", "a malformed amount is 400 INVALID_REQUEST", bad.error);

  // A new user claims gas from the faucet, follows the claim to confirmed, and cannot claim twice.
  const address = body.recipient;
  const claim = await faucet.POST("/api/faucet/claim", { body: { address } });
  expect(claim.response.status === 202 && claim.data?.status === "pending" && /^0x[0-9a-fA-F]{64}$/.test(claim.data.txHash ?? ""),
    "POST /api/faucet/claim is 202 pending with its txHash", claim.data ?? claim.error);
  let status = await faucet.GET("/api/faucet/status", { params: { query: { address } } });
  for (let i = 0; i < 200 && status.data?.status === "pending"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = await faucet.GET("/api/faucet/status", { params: { query: { address } } });
  }
  expect(status.data?.status === "confirmed" && (status.data.blockNumber ?? 0) > 0, "GET /api/faucet/status follows it to confirmed",
    status.data ?? status.error);
  const twice = await faucet.POST("/api/faucet/claim", { body: { address: address.toLowerCase() } });
  expect(twice.response.status === 409 && twice.error?.code === "ALREADY_CLAIMED" &&
    "claim" in twice.error && twice.error.claim.status === "confirmed",
    "a second claim, in lower case, is 409 ALREADY_CLAIMED with the first claim", twice.error);
  const zero = await faucet.POST("/api/faucet/claim", { body: { address: "0x0000000000000000000000000000000000000000" } });
  expect(zero.response.status === 400 && zero.error?.code === "INVALID_REQUEST", "the zero address is 400 INVALID_REQUEST", zero.error);

  // The web app rebuilds the Merkle tree from the indexer's CommitmentInserted events.
  const leaves = await indexer.GET("/api/indexer", { params: { query: { event: "CommitmentInserted", fromBlock: 0, toBlock: "latest" } } });
  expect(leaves.response.status === 200 && (leaves.data?.events.length ?? 0) >= 1 && leaves.data!.events[0].args.leafIndex === "0" &&
    leaves.data!.indexedTo.blockNumber >= leaves.data!.events[0].blockNumber,
    "GET /api/indexer lists the CommitmentInserted leaves with indexedTo", leaves.data ?? leaves.error);
  const unknown = await indexer.GET("/api/indexer", { params: { query: { event: "Nope" as "Revealed" } } });
  expect(unknown.response.status === 400 && unknown.error?.code === "INVALID_REQUEST", "an unknown event is 400 INVALID_REQUEST", unknown.error);
}

main().catch((err: unknown) => {
  console.error(`FAIL ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});

// The calls a web application makes, run with the generated types and openapi-fetch against a
// running stack (.ci/run starts devstack): not only type-checked, executed.
//   node build/smoke.js <registry URL> <relayer URL> <reveal request JSON>
import createClient from "openapi-fetch";
import type { paths as RegistryPaths } from "../../gen/ts/registry";
import type { components, paths as RelayerPaths } from "../../gen/ts/relayer";

declare const process: { argv: string[]; exitCode?: number };

type RevealRequest = components["schemas"]["RevealRequest"];

function expect(ok: boolean, what: string, got: unknown): void {
  if (!ok) {
    throw new Error(`${what}: got ${JSON.stringify(got)}`);
  }
  console.log(`ok  ${what}`);
}

async function main(): Promise<void> {
  const [registryUrl, relayerUrl, requestJson] = process.argv.slice(2);
  const registry = createClient<RegistryPaths>({ baseUrl: registryUrl });
  const relayer = createClient<RelayerPaths>({ baseUrl: relayerUrl });

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
}

main().catch((err: unknown) => {
  console.error(`FAIL ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});

// How the web application uses the generated types: openapi-fetch with gen/ts/registry.ts.
// `npm run check` type-checks this file, so a change to openapi/registry.yaml that breaks the
// client's use of it fails CI.
import createClient from "openapi-fetch";
import type { components, paths } from "../../gen/ts/registry";

type Token = components["schemas"]["Token"];

export async function enabledSymbols(baseUrl: string): Promise<string[]> {
  const client = createClient<paths>({ baseUrl });
  const { data, error } = await client.GET("/tokens");
  if (error) {
    throw new Error(`${error.code}: ${error.error}`);
  }
  return data.tokens.map((t: Token) => t.symbol);
}

export async function register(baseUrl: string, adminKey: string, address: string): Promise<Token> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${adminKey}` } });
  const { data, error, response } = await client.POST("/tokens", { body: { address, category: "stablecoin", sortOrder: 10 } });
  if (error) {
    throw new Error(`${response.status} ${error.code}: ${error.error}`);
  }
  return data;
}

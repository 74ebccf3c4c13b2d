// A tiny static server for the example page: dist/ and /config.json, the stack's addresses.
//   node serve.mjs [--port 8080] [--devnet ../../devnet.json] [--registry URL] [--relayer URL] [--faucet URL] [--indexer URL]
// Defaults fit `go run ./cmd/devstack` on this machine.
import { createServer } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/** Serves dist/ with the stack's config; resolves to {url, close}. */
export function serve({ port = 0, devnet, registry, relayer, faucet, indexer }) {
  const m = JSON.parse(readFileSync(devnet, "utf8"));
  const config = {
    chainId: m.chainId, rpcUrl: m.rpcUrl, vault: m.contracts.vault, commitmentTree: m.contracts.commitmentTree,
    tokens: m.tokens, user: m.accounts.users[0], registry, relayer, faucet, indexer,
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (path === "/favicon.ico") {
      res.writeHead(204).end();
      return;
    }
    if (path === "/config.json") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(config));
      return;
    }
    const file = normalize(join(here, "dist", path === "/" ? "index.html" : path));
    if (!file.startsWith(join(here, "dist")) || !existsSync(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: a } = parseArgs({
    options: {
      port: { type: "string", default: "8080" }, devnet: { type: "string", default: join(here, "../../devnet.json") },
      registry: { type: "string", default: "http://127.0.0.1:3009" }, relayer: { type: "string", default: "http://127.0.0.1:3010" },
      faucet: { type: "string", default: "http://127.0.0.1:3011" }, indexer: { type: "string", default: "http://127.0.0.1:3012" },
    },
  });
  const { url } = await serve({ ...a, port: Number(a.port) });
  console.log(`example app at ${url}`);
}

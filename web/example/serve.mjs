// A tiny static server for the example pages: dist/ (/ the journey, /redeem the page a card's
// link opens) and /config.json, the stack's addresses, each with the headers a page holding a
// card's secrets needs (securityHeaders).
//   node serve.mjs [--port 8080] [--devnet ../../devnet.json] [--registry URL] [--relayer URL] [--faucet URL] [--indexer URL]
// Defaults fit `go run ./cmd/devstack` on this machine.
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };
const origin = (url) => new URL(url).origin;

/**
 * The headers of every response: no Referer ever leaves a page (a card's link never travels in
 * one), and a strict Content-Security-Policy: scripts only from here, requests only to the
 * stack's services and chain, images only from here and the registry (token icons), nothing
 * framed. The prover's worker imports wasm_exec.js from the bytes it checked against their
 * sha256 (a data: URL): its own policy allows that, the pages' does not.
 */
function securityHeaders(config, path, relayers) {
  const connect = ["'self'", ...new Set([config.registry, config.relayer, ...relayers, config.faucet, config.indexer, config.rpcUrl].map(origin))];
  const script = path.endsWith("/prover-worker.js") ? "'self' data: 'wasm-unsafe-eval'" : "'self' 'wasm-unsafe-eval'";
  return {
    "content-security-policy": [
      "default-src 'none'", `script-src ${script}`, "worker-src 'self'", `connect-src ${connect.join(" ")}`,
      `img-src 'self' ${origin(config.registry)}`, "style-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].join("; "),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
  };
}

// A prover asset's name carries 16 hex digits of its sha256 (prover.<hash>.wasm): its content
// never changes, and the package checks it against the pin whatever a cache returns.
const contentAddressed = /^\/assets\/[^/]+\.[0-9a-f]{16}\.[a-z]+$/;

/**
 * How a file may be cached: for ever when its name carries its hash, otherwise checked again
 * each time (an ETag, answered 304 when unchanged): a page and its bundles change with each build.
 * Every answer varies with Accept-Encoding, which picks the copy sent.
 */
function cacheHeaders(path, etag) {
  if (contentAddressed.test(path)) return { "cache-control": "public, max-age=31536000, immutable", vary: "Accept-Encoding" };
  return { "cache-control": "no-cache", etag, vary: "Accept-Encoding" };
}

/** The encodings accept (an Accept-Encoding header) allows, by name: q=0 refuses one. */
function accepted(accept = "") {
  const ok = new Set();
  for (const part of accept.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) ok.add(name);
  }
  return ok;
}

/** The copy of file to send (brotli, gzip or itself) for accept, with its encoding. */
function variant(file, accept) {
  const ok = accepted(accept);
  for (const [encoding, ext] of [["br", ".br"], ["gzip", ".gz"]]) {
    if ((ok.has(encoding) || ok.has("*")) && existsSync(file + ext)) return { path: file + ext, encoding };
  }
  return { path: file };
}

const etags = new Map(); // a file's path → its ETag (dist/ is rebuilt, not changed under a server)
const etagOf = (path, data) => {
  if (!etags.has(path)) etags.set(path, `"${createHash("sha256").update(data).digest("hex").slice(0, 32)}"`);
  return etags.get(path);
};

/**
 * Serves dist/ with the stack's config; resolves to {url, close}. record, when given, is told
 * each request as it arrived ({url, headers}: what a server sees, a test checks it). fees: the
 * relayer charges, and the redeem page asks its quote before proving (config.json's fees). The
 * relayers the registry lists (GET /relayers.json) when it starts may be connected to as well:
 * the redeem page chooses among them.
 */
export async function serve({ port = 0, devnet, registry, relayer, faucet, indexer, record, fees }) {
  const m = JSON.parse(readFileSync(devnet, "utf8"));
  const config = {
    chainId: m.chainId, rpcUrl: m.rpcUrl, vault: m.contracts.vault, commitmentTree: m.contracts.commitmentTree,
    tokens: m.tokens, user: m.accounts.users[0], registry, relayer, faucet, indexer,
    ...(fees ? { fees: true } : {}), // the relayer charges: the redeem page asks its quote first
  };
  const relayers = await fetch(new URL("relayers.json", registry.replace(/\/?$/, "/")))
    .then(async (r) => (r.ok ? (await r.json()).relayers.map((e) => e.url) : []))
    .catch(() => []);
  const server = createServer((req, res) => {
    record?.({ url: req.url, headers: req.headers });
    const path = new URL(req.url, "http://x").pathname;
    const headers = securityHeaders(config, path, relayers);
    if (path === "/favicon.ico") {
      res.writeHead(204, headers).end();
      return;
    }
    if (path === "/config.json") {
      res.writeHead(200, { ...headers, "content-type": "application/json" }).end(JSON.stringify(config));
      return;
    }
    const pages = { "/": "index.html", "/redeem": "redeem.html" };
    const file = normalize(join(here, "dist", pages[path] ?? path));
    if (!file.startsWith(join(here, "dist")) || !existsSync(file)) {
      res.writeHead(404, headers).end("not found");
      return;
    }
    const v = variant(file, req.headers["accept-encoding"]);
    const data = readFileSync(v.path);
    const cache = cacheHeaders(path, etagOf(v.path, data));
    if (cache.etag && req.headers["if-none-match"] === cache.etag) {
      res.writeHead(304, { ...headers, ...cache }).end();
      return;
    }
    const type = types[extname(file)] ?? "application/octet-stream";
    res.writeHead(200, { ...headers, ...cache, "content-type": type, ...(v.encoding && { "content-encoding": v.encoding }) }).end(data);
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

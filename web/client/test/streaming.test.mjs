// The wasm over HTTP, compiled while it downloads (WebAssembly.compileStreaming, as in a browser):
// loaded when its bytes are the pinned ones, refused when one byte differs, whether it is sent
// as application/wasm (streamed) or as anything else (compiled from the checked bytes). Needs the
// built package (npm run build).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { assetsAt, Prover } from "../dist/prover.js";

const base = new URL("../dist/assets/", import.meta.url);
const names = assetsAt(base.href);
const file = (url) => readFileSync(new URL(url.slice(url.lastIndexOf("/") + 1), base));

// serve answers the package's assets, the wasm changed by tamper and sent with type.
const serve = (tamper, type) =>
  new Promise((resolve) => {
    const server = createServer((req, res) => {
      const data = Buffer.from(file(req.url));
      if (req.url.endsWith(".wasm")) {
        tamper(data);
        res.writeHead(200, { "content-type": type });
      }
      res.end(data);
    });
    server.listen(0, "127.0.0.1", () => resolve({ base: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }));
  });

for (const type of ["application/wasm", "application/octet-stream"]) {
  test(`the wasm sent as ${type}: loaded as pinned, refused with one byte changed`, async () => {
    const good = await serve(() => {}, type);
    try {
      const p = await Prover.load({ assets: assetsAt(good.base), worker: false });
      p.terminate();
    } finally {
      good.close();
    }
    const bad = await serve((d) => (d[d.length - 100] ^= 1), type);
    try {
      await assert.rejects(Prover.load({ assets: assetsAt(bad.base), worker: false }), /wasm at .* not the pinned/);
    } finally {
      bad.close();
    }
  });
}

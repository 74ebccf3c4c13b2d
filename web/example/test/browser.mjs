// Drives the example page in headless Chromium (Debian's, through puppeteer-core: nothing is
// downloaded) against a running devstack: the whole user journey, with the proof made in the
// page; then the recipient's balance is read from the chain here, not from the page. Keeps a
// screenshot and prints the figures (proof time in the page, time to interactive, wasm size).
//   node test/browser.mjs <devnet.json> <registry> <relayer> <faucet> <indexer> <artifacts dir>
import { gzipSync } from "node:zlib";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { serve } from "../serve.mjs";

const [devnet, registry, relayer, faucet, indexer, artifacts] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });
const fail = (msg) => {
  throw new Error(msg);
};
const site = await serve({ devnet, registry, relayer, faucet, indexer });
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Chromium logs every non-2xx fetch; the repeat's 409 is one the journey expects.
  page.on("console", (m) => m.type() === "error" && !m.text().includes("status of 409") && errors.push(m.text()));
  await page.setViewport({ width: 1000, height: 900 });
  await page.goto(site.url, { waitUntil: "load" });
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", { timeout: 30_000 });
  const icons = await page.$$eval("#token-list img", (imgs) => imgs.map((i) => i.complete && i.naturalWidth > 0));
  if (icons.length < 3 || !icons.every(Boolean)) fail(`token icons: ${JSON.stringify(icons)}`);
  console.log(`ok  the page lists ${icons.length} tokens with their icons from the registry`);

  for (const id of ["claim", "commit", "redeem"]) {
    await page.click(`#${id} button`);
    await page.waitForFunction((id) => ["done", "error"].includes(document.querySelector(`#${id}`)?.dataset.state ?? ""), { timeout: 120_000 }, id);
    const state = await page.$eval(`#${id}`, (s) => s.dataset.state);
    const out = await page.$eval(`#${id} .out`, (o) => o.textContent);
    if (state !== "done") {
      await page.screenshot({ path: join(artifacts, "example-app.png"), fullPage: true });
      fail(`${id}: ${out}\n${errors.join("\n")}`);
    }
    console.log(`ok  ${id}: ${out.split("\n")[0]}`);
  }
  const j = await page.evaluate(() => window.journey);
  await page.screenshot({ path: join(artifacts, "example-app.png"), fullPage: true });

  // The recipient's balance, read from the chain by the test itself.
  const m = JSON.parse(readFileSync(devnet, "utf8"));
  const call = await fetch(m.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: m.tokens[0].address, data: "0x70a08231" + j.recipient.slice(2).toLowerCase().padStart(64, "0") }, "latest"] }),
  }).then((r) => r.json());
  const committed = 125n * 10n ** BigInt(m.tokens[0].decimals - 1); // the page commits 12.5 tokens
  if (BigInt(call.result) !== committed) fail(`the recipient holds ${BigInt(call.result)} on chain, want ${committed}`);
  console.log(`ok  the recipient holds 12.5 ${m.tokens[0].symbol} on chain`);
  if (j.repeat !== "409 NULLIFIER_USED") fail(`the repeat answered ${j.repeat}`);
  console.log("ok  the same request again is 409 NULLIFIER_USED");
  if (!(BigInt(j.claimed) > 0n)) fail(`the faucet claim left ${j.claimed}`);
  // The proof takes a second or more in the worker; the page's thread must not freeze meanwhile.
  if (!(j.mainThreadMaxGapMs < 250)) fail(`the page froze for ${j.mainThreadMaxGapMs} ms while proving`);
  console.log(`ok  the page stayed responsive while the worker proved (longest pause ${j.mainThreadMaxGapMs} ms)`);
  if (errors.length) fail(`errors in the page:\n${errors.join("\n")}`);

  const assetsDir = new URL("../dist/assets/", import.meta.url);
  const wasmFile = readdirSync(assetsDir).find((f) => /^prover\.[0-9a-f]{16}\.wasm$/.test(f));
  const wasm = readFileSync(new URL(wasmFile, assetsDir));
  const figures = {
    proofMs: j.proofMs,
    proverLoadMs: j.proverLoadMs,
    mainThreadMaxGapMs: j.mainThreadMaxGapMs,
    interactiveMs: j.interactiveMs,
    wasmBytes: wasm.length,
    wasmGzipBytes: gzipSync(wasm, { level: 9 }).length,
    wasmBrotliBytes: readFileSync(new URL(`${wasmFile}.br`, assetsDir)).length, // the package's own, beside it
    browser: await browser.version(),
  };
  console.log(`figures ${JSON.stringify(figures)}`);

  // A worker whose script does not load (here answered 404) makes Prover.load reject with a
  // clear error, instead of leaving the page waiting forever.
  const broken = await browser.newPage();
  await broken.setRequestInterception(true);
  broken.on("request", (r) => (r.url().endsWith("/prover-worker.js") ? r.respond({ status: 404, body: "not here" }) : r.continue()));
  await broken.goto(site.url, { waitUntil: "load" });
  await broken.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", { timeout: 30_000 });
  const state = await broken.evaluate(() => Promise.race([window.proverState, new Promise((ok) => setTimeout(() => ok("still waiting after 20 s"), 20_000))]));
  if (!String(state).includes("the prover's worker failed")) fail(`a worker that does not load: ${state}`);
  console.log(`ok  a worker that does not load fails the prover's load: ${state}`);

  // A worker that started but whose load failed (here the wasm arrives with a byte changed, in a
  // fresh context whose Cache Storage holds nothing) is stopped: no worker is left running.
  const fresh = await browser.createBrowserContext();
  const tampered = await fresh.newPage();
  const bad = Buffer.from(wasm);
  bad[bad.length - 1] ^= 1;
  await tampered.setRequestInterception(true);
  tampered.on("request", (r) =>
    r.url().includes(wasmFile) ? r.respond({ status: 200, contentType: "application/wasm", body: bad }) : r.continue(),
  );
  await tampered.goto(site.url, { waitUntil: "load" });
  await tampered.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", { timeout: 30_000 });
  const refused = await tampered.evaluate(() => Promise.race([window.proverState, new Promise((ok) => setTimeout(() => ok("still waiting after 60 s"), 60_000))]));
  if (!String(refused).includes("pinned")) fail(`a tampered wasm: ${refused}`);
  for (let i = 0; i < 50 && tampered.workers().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  if (tampered.workers().length !== 0) fail(`a prover whose load failed left ${tampered.workers().length} worker(s) running`);
  console.log("ok  a prover whose load failed (a wasm not the pinned one) leaves no worker running");
  await fresh.close();
} finally {
  await browser.close();
  site.close();
}

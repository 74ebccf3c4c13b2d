// The faucet's proof of work, measured: tries per second of @vaultd/client/pow's solver (argon2id
// at memoryKiB, 8 MiB by default) in Node, and in headless Chromium in its Worker, on the page's
// thread, and on the page's thread at a phone's CPU (throttled 4× by CDP: throttling reaches the
// page's thread, not a Worker's). A solve takes `work` tries on average (each meets the target
// with a chance of 1/work), so its mean time is work ÷ tries per second: printed for a few works.
// Needs the built client and example (npm run build in each) and a devnet.json (the page's
// config; no service is called).
//   node test/powbench.mjs <devnet.json> [seconds per measure, 6] [memoryKiB, 8192]
import { build } from "esbuild";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";
import { serve } from "../serve.mjs";

const [devnet, secondsArg = "6", memoryArg = "8192"] = process.argv.slice(2);
const seconds = Number(secondsArg);
const memoryKiB = Number(memoryArg);
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "../dist");
const pkg = dirname(createRequire(import.meta.url).resolve("@vaultd/client/package.json"));
const challenge = { challenge: "bench", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", salt: "0x000102030405060708090a0b0c0d0e0f", algorithm: "argon2id", work: 2 ** 40, memoryKiB, passes: 1 };

// Tries per second of a solve that never ends, stopped after `seconds`: the last progress's
// tries over the time it took. Runs in Node and, as a string, in the page.
async function rate(solveChallenge, challenge, seconds, worker) {
  const abort = new AbortController();
  const t0 = performance.now();
  let last = { tries: 0, at: t0 };
  setTimeout(() => abort.abort(new Error("measured")), seconds * 1000);
  await solveChallenge(challenge, { worker, signal: abort.signal, onProgress: (p) => (last = { tries: p.tries, at: performance.now() }) }).catch(() => {});
  return (last.tries / (last.at - t0)) * 1000;
}

const { solveChallenge } = await import("@vaultd/client/pow");
const figures = { memoryKiB, node: await rate(solveChallenge, challenge, seconds, false) };

// A page of its own in the example's dist/ (never committed): the solver, and its worker beside it.
await build({ stdin: { contents: `import { solveChallenge } from "@vaultd/client/pow"; window.solveChallenge = solveChallenge; window.rate = ${rate.toString()};`, resolveDir: here }, bundle: true, format: "esm", outfile: join(dist, "powbench.js"), logLevel: "warning" });
writeFileSync(join(dist, "powbench.html"), `<!doctype html><title>powbench</title><script type="module" src="powbench.js"></script>`);
const site = await serve({ devnet, registry: "http://127.0.0.1:1", relayer: "http://127.0.0.1:1", faucet: "http://127.0.0.1:1", indexer: "http://127.0.0.1:1" });
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
try {
  const page = await browser.newPage();
  await page.goto(new URL("powbench.html", site.url).href, { waitUntil: "load" });
  await page.waitForFunction(() => typeof window.rate === "function");
  const inPage = (worker) => page.evaluate((c, s, w) => window.rate(window.solveChallenge, c, s, w), challenge, seconds, worker);
  figures.chromiumWorker = await inPage(true);
  figures.chromiumPage = await inPage(false);
  const cdp = await page.createCDPSession();
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  figures.chromiumPage4x = await inPage(false);
  figures.browser = await browser.version();
} finally {
  await browser.close();
  site.close();
}
const perSecond = Object.fromEntries(Object.entries(figures).filter(([, v]) => typeof v === "number" && v !== memoryKiB).map(([k, v]) => [k, Number(v.toFixed(1))]));
console.log(JSON.stringify({ ...figures, triesPerSecond: perSecond }));
for (const work of [16, 32, 64, 128, 256]) {
  console.log(`work ${work}: mean solve s ` + Object.entries(perSecond).map(([k, v]) => `${k} ${(work / v).toFixed(1)}`).join(", "));
}

// Each service's /docs in headless Chromium with the network cut off from everything but that
// service: every request to another origin is refused (and counted: there must be none), and
// every operation of the service's OpenAPI document must be rendered.
//   node test/docs.mjs <service URL>...
import puppeteer from "puppeteer-core";

const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
try {
  for (const base of process.argv.slice(2)) {
    const origin = new URL(base).origin;
    const spec = await (await fetch(`${base}/openapi.json`)).json();
    const want = Object.values(spec.paths).flatMap((item) => ["get", "put", "post", "patch", "delete"].filter((m) => item[m]).map((m) => item[m].operationId));
    const page = await browser.newPage();
    const outside = [];
    await page.setRequestInterception(true);
    page.on("request", (req) => {
      if (new URL(req.url()).origin === origin) req.continue();
      else {
        outside.push(req.url());
        req.abort();
      }
    });
    await page.goto(`${base}/docs`, { waitUntil: "networkidle0" });
    await page.waitForSelector("body[data-rendered]", { timeout: 15_000 });
    const rendered = await page.$$eval("[data-operation-id]", (els) => els.map((e) => e.dataset.operationId));
    const missing = want.filter((id) => !rendered.includes(id));
    if (missing.length || outside.length) {
      throw new Error(`${base}/docs: missing operations ${JSON.stringify(missing)}, requests outside the service ${JSON.stringify(outside)}`);
    }
    console.log(`ok  ${spec.info.title}: /docs renders all ${want.length} operations, offline`);
    await page.close();
  }
} finally {
  await browser.close();
}

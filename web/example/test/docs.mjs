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
    // What the document says is on the page: every response header it declares, every example,
    // Markdown lists as lists, and no backtick left as a literal character.
    const ref = (o, kind) => (o?.$ref ? spec.components[kind][o.$ref.split("/").pop()] : o);
    const headers = new Set();
    let examples = 0;
    const count = (media) => (media?.example !== undefined ? 1 : 0) + Object.values(media?.examples ?? {}).filter((e) => e?.value !== undefined).length;
    for (const item of Object.values(spec.paths)) {
      for (const op of ["get", "put", "post", "patch", "delete"].map((m) => item[m]).filter(Boolean)) {
        for (const media of Object.values(op.requestBody?.content ?? {})) examples += count(media);
        for (const r0 of Object.values(op.responses ?? {})) {
          const r = ref(r0, "responses");
          for (const name of Object.keys(r.headers ?? {})) headers.add(name);
          for (const media of Object.values(r.content ?? {})) examples += count(media);
        }
      }
    }
    for (const sc of Object.values(spec.components?.schemas ?? {})) if (sc.example !== undefined) examples++;
    const shown = await page.$$eval("td.headers code", (els) => els.map((e) => e.textContent));
    const missingHeaders = [...headers].filter((h) => !shown.includes(h));
    const shownExamples = await page.$$eval("pre.example", (els) => els.length);
    const backticks = await page.$$eval("p, li, h3, td", (els) => els.map((e) => e.textContent).filter((t) => t.includes("`")));
    const listsInDocument = JSON.stringify(spec).match(/\\n\s*(?:- |\d+\. )/g)?.length ?? 0;
    const lists = await page.$$eval(".prose li", (els) => els.length);
    if (missingHeaders.length || shownExamples < examples || backticks.length || (listsInDocument > 0 && lists === 0)) {
      throw new Error(`${base}/docs: headers not shown ${JSON.stringify(missingHeaders)}; ${shownExamples} of ${examples} examples shown; ` +
        `literal backticks in ${JSON.stringify(backticks.slice(0, 3))}; ${lists} list items for ${listsInDocument} in the document`);
    }
    console.log(`ok  ${spec.info.title}: /docs renders all ${want.length} operations, offline, with ${headers.size} response headers, ${examples} examples and ${lists} list items`);
    await page.close();
  }
} finally {
  await browser.close();
}

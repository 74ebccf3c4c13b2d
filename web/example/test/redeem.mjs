// The card as a person holds it, in headless Chromium (Debian's) against a running devstack, with
// Debian's zbarimg reading the QR codes:
//   - `card create --url --qr` writes a QR code that zbarimg decodes to the link it printed;
//   - the journey page commits a card and shows its QR code, printable card-sized; zbarimg
//     decodes a screenshot of it to the page's link;
//   - that link, opened at 390×844 (a phone, touch), redeems the card to a wallet made in the
//     page: the fragment leaves the address bar at once, the key is shown once as a QR code
//     (decoded back to the key shown) and as text, the tokens are read from the chain;
//   - the card of `card create` redeems to an address scanned with the camera (Chromium's fake
//     camera, playing a QR code of an EIP-681 token transfer: the recipient is its `address`
//     parameter, shown for the person to confirm before Redeem is possible), after a pasted one
//     with a wrong checksum and the vault's address are refused, and a scanned code naming a
//     token's contract as the recipient is refused;
//   - a card already redeemed, from another chain or vault, malformed or cut short: each its
//     own message;
//   - no request any page made (the pages, their worker, the services, the chain) carries the
//     card's secrets, and no page sends a Referer; the pages carry a strict CSP.
// Screenshots go to the artifacts directory; the figures (time from opening the link to tokens
// received, the QR codes' versions) are printed.
//   node test/redeem.mjs <devnet.json> <registry> <relayer> <faucet> <indexer> <artifacts dir> <card binary>
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import QRCode from "qrcode";
import { privateKeyToAccount } from "viem/accounts";
import { serve } from "../serve.mjs";
import { zbar } from "./zbar.mjs";

const [devnet, registry, relayer, faucet, indexer, artifacts, cardTool] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });
const fail = (msg) => {
  throw new Error(msg);
};
const work = mkdtempSync(join(tmpdir(), "vaultd-redeem-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const m = JSON.parse(readFileSync(devnet, "utf8"));
const token = m.tokens[0];
const cliAmount = 777n * 10n ** BigInt(token.decimals - 2); // 7.77 tokens
const balanceOf = async (owner) => {
  const r = await fetch(m.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: token.address, data: "0x70a08231" + owner.slice(2).toLowerCase().padStart(64, "0") }, "latest"] }),
  }).then((r) => r.json());
  return BigInt(r.result);
};
// secretsOf: the hex digits of a link's two secrets, as they would appear in a request.
const secretsOf = (link) => {
  const q = new URLSearchParams(link.slice(link.indexOf("?") + 1));
  return [q.get("secret"), q.get("nullifier")].map((s) => s.slice(2).toLowerCase());
};

const arrived = []; // every request the pages' own server received, as it arrived
// A camera's picture: a QR code of text, in a one-frame Y4M video (grey: Y only, chroma neutral)
// that Chromium's fake camera plays in a loop (one file a browser).
const cameraFile = (name, text) => {
  const file = join(work, `${name}.y4m`);
  const q = QRCode.create(text, { errorCorrectionLevel: "M" });
  const [w, h, n] = [640, 480, q.modules.size];
  const scale = Math.min(8, Math.floor(440 / n));
  const y = Buffer.alloc(w * h, 255);
  const x0 = Math.floor((w - n * scale) / 2);
  const y0 = Math.floor((h - n * scale) / 2);
  for (let r = 0; r < n * scale; r++) for (let c = 0; c < n * scale; c++) if (q.modules.data[Math.floor(r / scale) * n + Math.floor(c / scale)]) y[(y0 + r) * w + x0 + c] = 0;
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F10:1 Ip A1:1 C420jpeg\nFRAME\n`), y, Buffer.alloc(w * h / 2, 128)]));
  return file;
};
// The recipient's wallet asks to be paid in a token (EIP-681, as wallet apps show it): the token's
// contract comes first, the recipient is the `address` parameter.
const recipient = privateKeyToAccount(`0x${"5a".repeat(32)}`).address;
const walletCode = `ethereum:${token.address}@${m.chainId}/transfer?address=${recipient}&uint256=${cliAmount}`;
const camera = cameraFile("wallet-qr", walletCode);
// Another registered token's own address code: its contract as the recipient.
const tokenCode = `ethereum:${m.tokens[1].address}@${m.chainId}`;
const browserArgs = (file) => ["--no-sandbox", "--disable-dev-shm-usage", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${file}`];

const site = await serve({ devnet, registry, relayer, faucet, indexer, record: (r) => arrived.push(r) });
const redeemUrl = new URL("redeem", site.url).href;
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: browserArgs(camera),
});
// Every request of every page and worker: url (as sent: a URL's fragment is never part of an
// HTTP request), headers, body.
const requests = [];
const errors = [];
// A refused reveal logs its status (409): the only error a page is expected to log, besides, on
// a page whose requests for the prover's files the test refuses (refusing), their failed loads.
const watch = (page, refusing = false) => {
  page.on("request", (r) => requests.push({ url: r.url().split("#")[0], headers: r.headers(), body: r.postData() ?? "" }));
  page.on("pageerror", (e) => errors.push(String(e)));
  const expected = (text) => text.includes("status of 409") || (refusing && text.includes("net::ERR_FAILED"));
  page.on("console", (msg) => msg.type() === "error" && !expected(msg.text()) && errors.push(msg.text()));
};
const figures = {};
try {
  // 1. The command line's QR code.
  const cliPng = join(artifacts, "card-cli.png");
  const created = execFileSync(cardTool, ["create", "--devnet", devnet, "--token", token.address, "--amount", cliAmount.toString(), "--url", redeemUrl, "--qr", cliPng], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const cliLink = created.trim();
  if (zbar(cliPng) !== cliLink) fail(`zbarimg read ${zbar(cliPng)} from card create's QR code, want ${cliLink}`);
  figures.cliQr = { characters: cliLink.length };
  console.log(`ok  zbarimg decodes card create --qr's PNG to the link it printed (${cliLink.length} characters)`);

  // 2. The journey page's card: committed, shown as a QR code, decoded from a screenshot.
  const desk = await browser.newPage();
  watch(desk);
  await desk.setViewport({ width: 1000, height: 900, deviceScaleFactor: 3 });
  await desk.goto(site.url, { waitUntil: "load" });
  await desk.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", { timeout: 30_000 });
  await desk.click("#commit button");
  await desk.waitForFunction(() => ["done", "error"].includes(document.querySelector("#commit")?.dataset.state ?? ""), { timeout: 120_000 });
  if ((await desk.$eval("#commit", (s) => s.dataset.state)) !== "done") fail(`commit: ${await desk.$eval("#commit .out", (o) => o.textContent)}`);
  const face = await desk.waitForSelector("#card-face", { visible: true });
  const cardPng = join(artifacts, "card.png");
  await face.screenshot({ path: cardPng });
  const j = await desk.evaluate(() => window.journey);
  const link = zbar(cardPng);
  if (link !== j.link || !link.startsWith(`${redeemUrl}#vaultd-card:v1?token=`)) fail(`zbarimg read ${link} from the card's screenshot, want ${j.link}`);
  figures.pageQr = j.qr;
  console.log(`ok  the journey page shows the card as a QR code; zbarimg decodes its screenshot to the link (version ${j.qr.version}, ${j.qr.modules} modules, ${j.qr.characters} characters, ${j.qr.moduleMm} mm a module printed)`);
  await desk.emulateMediaType("print");
  const printed = await desk.$eval("#card-face", (f) => {
    const r = f.getBoundingClientRect();
    const text = f.querySelector(".card-text").getBoundingClientRect();
    const inside = text.top >= r.top && text.bottom <= r.bottom && text.right <= r.right;
    const others = [...document.body.children].filter((e) => e.id !== "card" && e.tagName !== "SCRIPT" && getComputedStyle(e).display !== "none");
    return { width: r.width, height: r.height, inside, others: others.map((e) => e.id || e.tagName) };
  });
  await desk.screenshot({ path: join(artifacts, "card-print.png") });
  // 85.6 × 54 mm at CSS's 96 px to the inch.
  if (Math.abs(printed.width - 323.5) > 2 || Math.abs(printed.height - 204.1) > 2 || !printed.inside || printed.others.length) fail(`the print layout: ${JSON.stringify(printed)}`);
  console.log("ok  printed, the page is the card alone, 85.6 × 54 mm, its text within it");
  await desk.close();

  // 3. The link on a phone: a wallet made in the page, the card redeemed to it.
  const phone = async (b = browser, refusing = false) => {
    const page = await b.newPage();
    watch(page, refusing);
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    return page;
  };
  const settled = (page) => page.waitForFunction(() => ["ready", "refused", "done"].includes(document.body.dataset.state), { timeout: 60_000 });
  const page = await phone();
  const opened = Date.now();
  const response = await page.goto(link, { waitUntil: "load" });
  const headers = response.headers();
  if (headers["referrer-policy"] !== "no-referrer" || !/script-src 'self' 'wasm-unsafe-eval'/.test(headers["content-security-policy"] ?? "") || !/default-src 'none'/.test(headers["content-security-policy"] ?? "")) {
    fail(`the redeem page's headers: ${JSON.stringify(headers)}`);
  }
  await settled(page);
  const state = await page.evaluate(() => ({ href: location.href, state: document.body.dataset.state, j: window.journey, wide: document.documentElement.scrollWidth }));
  if (state.href !== redeemUrl || state.j.hashKept) fail(`the card stayed in the address bar: ${state.href}`);
  if (state.state !== "ready") fail(`the redeem page is ${state.state}: ${await page.$eval("#problem", (p) => p.textContent)}`);
  console.log(`ok  the link opens the redeem page at 390×844: the card is out of the address bar at once, ${state.j.amount} shown`);
  await page.screenshot({ path: join(artifacts, "redeem-ready.png"), fullPage: true });
  const small = await page.$$eval("button, input", (els) =>
    els.filter((e) => e.offsetParent !== null).map((e) => ({ id: e.id, h: e.getBoundingClientRect().height, w: e.getBoundingClientRect().width })).filter((b) => b.h < 44 || (b.w < 44 && b.id !== "saved")),
  );
  if (state.wide > 390 || small.length) fail(`not made for a phone: ${state.wide} px wide, small targets ${JSON.stringify(small)}`);
  console.log("ok  nothing wider than the phone's 390 px, every tap target at least 44 px");

  // A double tap (two clicks at once) makes one wallet, not a second that replaces the first.
  await page.$eval("#make-wallet", (b) => {
    b.click();
    b.click();
  });
  await page.waitForSelector("#new-wallet", { visible: true });
  await new Promise((r) => setTimeout(r, 1000));
  const made = await page.evaluate(() => window.journey.walletsMade);
  if (made !== 1) fail(`a double tap on "Make a wallet" made ${made} wallets`);
  if (!(await page.$eval("#redeem", (b) => b.disabled))) fail("redeem is possible before the key is kept");
  const key = await page.$eval("#new-key", (e) => e.textContent);
  const shownAddress = await page.$eval("#new-address", (e) => e.textContent);
  const keyPng = join(work, "key.png");
  await (await page.$("#new-key-qr")).screenshot({ path: keyPng });
  await page.screenshot({ path: join(artifacts, "redeem-wallet.png"), fullPage: true });
  if (zbar(keyPng) !== key || privateKeyToAccount(key).address !== shownAddress) fail(`the new wallet: QR ${zbar(keyPng)}, key ${key}, address ${shownAddress}`);
  console.log(`ok  a wallet made in the page: one for a double tap, its key shown once as text and as a QR code (decoded to the same key), its address ${shownAddress}`);
  await page.tap("#saved");
  await page.tap("#redeem");
  await page.waitForFunction(() => ["done", "refused"].includes(document.body.dataset.state) || document.querySelector("#progress")?.textContent.startsWith("It did not"), { timeout: 120_000 });
  const received = Date.now();
  const done = await page.evaluate(() => ({ state: document.body.dataset.state, j: window.journey, progress: document.querySelector("#progress")?.textContent }));
  if (done.state !== "done") fail(`the redeem ended ${done.state}: ${done.progress} ${done.j.error ?? ""}`);
  const held = await balanceOf(shownAddress);
  const committed = 125n * 10n ** BigInt(token.decimals - 1); // the journey page commits 12.5 tokens
  if (held !== committed) fail(`the new wallet holds ${held} on chain, want ${committed}`);
  // What the wallet holds is shown once read, after the page said the tokens were received.
  await page.waitForFunction(() => document.querySelector("#done-balance").textContent !== "…", { timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, "redeem-done.png"), fullPage: true });
  const shownBalance = await page.$eval("#done-balance", (b) => b.textContent);
  if (shownBalance !== `12.5 ${token.symbol}`) fail(`the page shows the wallet holding "${shownBalance}", want "12.5 ${token.symbol}"`);
  // The relayer was chosen from the registry's directory (the stack's one relayer), and named.
  const sentBy = await page.$eval("#done-relayer", (e) => e.textContent);
  if (sentBy !== "relayer-1" || done.j.relayer !== "relayer-1") fail(`the page says the relayer ${sentBy} sent it (journey: ${done.j.relayer}), want relayer-1 of the directory`);
  figures.openToReceivedMs = received - opened;
  figures.proofMs = done.j.proofMs;
  figures.relayMs = done.j.relayMs;
  console.log(`ok  redeemed to the wallet made in the page: it holds 12.5 ${token.symbol} on chain, as the page shows once it has said so, sent by relayer-1 of the registry's directory (${figures.openToReceivedMs} ms from opening the link)`);
  const keyHex = key.slice(2).toLowerCase();
  await page.close();

  // 4. The command line's card, to an address scanned from a wallet's QR code with the camera;
  // first, a code naming a token's contract (in a browser whose camera shows that), the vault's
  // address and an address with a wrong checksum are refused.
  const other = await puppeteer.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: browserArgs(cameraFile("token-qr", tokenCode)) });
  try {
    const p = await phone(other);
    await p.goto(cliLink, { waitUntil: "load" });
    await settled(p);
    await p.tap("#scan");
    await p.waitForFunction(() => document.querySelector("#address-note").textContent !== "" || document.querySelector("#address").value !== "", { timeout: 40_000 });
    const got = await p.evaluate(() => ({
      problem: window.journey.recipientProblem, scanned: window.journey.scanned, note: document.querySelector("#address-note").textContent,
      value: document.querySelector("#address").value, confirm: !document.querySelector("#scanned").hidden, disabled: document.querySelector("#redeem").disabled,
    }));
    await p.screenshot({ path: join(artifacts, "redeem-error-token-scanned.png"), fullPage: true });
    if (got.scanned !== tokenCode || got.problem !== "token" || !got.note.includes("token's contract") || got.value !== "" || got.confirm || !got.disabled) fail(`a scanned token's address: ${JSON.stringify(got)}`);
    console.log(`ok  a scanned code naming a token's contract (${tokenCode.slice(0, 17)}…) is refused: "${got.note}"`);
  } finally {
    await other.close();
  }
  const pasted = await phone();
  await pasted.goto(cliLink, { waitUntil: "load" });
  await settled(pasted);
  await pasted.type("#address", m.contracts.vault);
  const vaultNote = await pasted.$eval("#address-note", (n) => n.textContent);
  if (!vaultNote.includes("vault's own address") || !(await pasted.$eval("#redeem", (b) => b.disabled))) fail(`the vault's address pasted: "${vaultNote}"`);
  await pasted.$eval("#address", (i) => (i.value = ""));
  const wrong = recipient.slice(0, 2) + [...recipient.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join("");
  await pasted.type("#address", wrong);
  const note = await pasted.$eval("#address-note", (n) => n.textContent);
  if (!note.includes("checksum") || !(await pasted.$eval("#redeem", (b) => b.disabled))) fail(`a wrong checksum: "${note}"`);
  await pasted.screenshot({ path: join(artifacts, "redeem-error-checksum.png"), fullPage: true });
  console.log("ok  the vault's address and an address with a wrong checksum, pasted, are refused");
  // A valid address pasted before the scan: the page begins a proof for it, which is not the one
  // sent once the scanned address is chosen (the scanned address receives the card, below).
  const decoy = "0x" + "a11ce".padStart(40, "0");
  await pasted.$eval("#address", (i) => (i.value = ""));
  await pasted.type("#address", decoy);
  await pasted.waitForFunction((d) => (window.journey.provedAheadFor ?? []).some((a) => a.toLowerCase() === d), { timeout: 30_000 }, decoy);
  await pasted.tap("#scan");
  await pasted.waitForFunction(() => !document.querySelector("#scanned").hidden || document.querySelector("#address-note").textContent !== "", { timeout: 40_000 });
  const scanned = await pasted.evaluate(() => ({
    shown: document.querySelector("#scanned-address").textContent, from: document.querySelector("#scanned-from").textContent, value: document.querySelector("#address").value,
    note: document.querySelector("#address-note").textContent, disabled: document.querySelector("#redeem").disabled,
  }));
  await pasted.screenshot({ path: join(artifacts, "redeem-scanned.png"), fullPage: true });
  if (scanned.shown !== recipient || scanned.value !== recipient || !scanned.from.includes(token.address) || !scanned.disabled) fail(`scanning the wallet's QR code: ${JSON.stringify(scanned)}`);
  await pasted.tap("#scanned-ok");
  if (await pasted.$eval("#redeem", (b) => b.disabled)) fail("Redeem is not possible once the scanned address is confirmed");
  console.log(`ok  the camera's EIP-681 token transfer (ethereum:${token.address.slice(0, 8)}…/transfer?address=${recipient.slice(0, 8)}…) shows its address parameter to confirm, not the token; Redeem waits for the confirmation`);
  await pasted.tap("#redeem");
  await pasted.waitForFunction(() => document.body.dataset.state === "done" || document.querySelector("#progress")?.textContent.startsWith("It did not"), { timeout: 120_000 });
  if ((await balanceOf(recipient)) !== cliAmount) fail(`the scanned address holds ${await balanceOf(recipient)}, want ${cliAmount}`);
  const ahead = await pasted.evaluate(() => ({ for: window.journey.provedAheadFor, ms: window.journey.provedAheadMs }));
  if (ahead.ms === undefined || ahead.for?.at(-1) !== recipient) fail(`the proofs begun before Redeem: ${JSON.stringify(ahead)}`);
  console.log(`ok  card create's card redeemed to the scanned address: it holds 7.77 ${token.symbol} on chain, from the proof made for it (begun ${ahead.ms >= 0 ? `${ahead.ms} ms before` : `${-ahead.ms} ms after`} Redeem, behind the one begun for the address pasted before)`);
  await pasted.close();

  // 5. Each card that cannot be redeemed here, its own message.
  const inserted = (field) => link.replace("#vaultd-card:v1?", `#vaultd-card:v1?${field}&`);
  for (const [name, url, want] of [
    ["redeemed", link, "already been redeemed"],
    ["other-chain", inserted("chain=999"), "another network"],
    ["other-vault", inserted("vault=0x1111111111111111111111111111111111111111"), "another vault"],
    ["malformed", `${redeemUrl}#hello`, "not a card"],
    ["truncated", link.slice(0, -12), "missing"],
  ]) {
    const p = await phone();
    await p.goto(url, { waitUntil: "load" });
    await settled(p);
    const got = await p.evaluate(() => ({
      problem: window.journey.problem, text: document.querySelector("#problem")?.textContent ?? "", href: location.href,
      card: document.querySelector("#card-info").hidden ? "" : document.querySelector("#amount").textContent,
    }));
    // A card already redeemed still shows what it held; one that does not read here shows nothing.
    const shows = name === "redeemed" ? /vWETH/ : /^$/;
    if (!shows.test(got.card)) fail(`${name}: the card shows ${JSON.stringify(got.card)}`);
    await p.screenshot({ path: join(artifacts, `redeem-error-${name}.png`), fullPage: true });
    if (got.problem !== name || !got.text.includes(want) || got.href !== redeemUrl) fail(`${name}: ${JSON.stringify(got)}`);
    console.log(`ok  ${name}: "${got.text}"`);
    await p.close();
  }

  // A card already redeemed is told without the prover: in a fresh context (nothing cached) whose
  // requests for the prover's files are refused, the page says so all the same.
  const bare = await browser.createBrowserContext();
  try {
    const p = await phone(bare, true);
    await p.setRequestInterception(true);
    const refusedFiles = [];
    p.on("request", (r) => (/\/assets\/(prover|reveal)\.[0-9a-f]{16}\./.test(r.url()) ? (refusedFiles.push(r.url()), r.abort()) : r.continue()));
    await p.goto(link, { waitUntil: "load" });
    await p.waitForFunction(() => document.body.dataset.state === "refused", { timeout: 30_000 });
    const got = await p.evaluate(() => ({ problem: window.journey.problem, stages: Object.keys(window.journey.loadAt ?? {}) }));
    if (got.problem !== "redeemed" || got.stages.includes("ready") || !refusedFiles.length) fail(`a redeemed card without the prover: ${JSON.stringify({ ...got, refusedFiles })}`);
    console.log(`ok  a card already redeemed is told without the prover (its files refused to the page: ${refusedFiles.length})`);
  } finally {
    await bare.close();
  }

  // 6. What left the browser: no request carries a secret of either card or the key made, and
  // none has a Referer.
  const secrets = [...secretsOf(link), ...secretsOf(cliLink), keyHex];
  const leaks = [...requests, ...arrived.map((r) => ({ ...r, body: "" }))].filter((r) => {
    const text = `${r.url} ${JSON.stringify(r.headers)} ${r.body}`.toLowerCase();
    return secrets.some((s) => text.includes(s)) || text.includes("vaultd-card") || Boolean(r.headers.referer);
  });
  const wasmFetched = requests.filter((r) => /\/assets\/prover\.[0-9a-f]{16}\.wasm$/.test(r.url)).length;
  if (leaks.length) fail(`requests carrying a secret or a Referer: ${JSON.stringify(leaks.slice(0, 3))}`);
  if (!wasmFetched || !requests.some((r) => r.url.startsWith(relayer) && r.body.includes("publicSignals"))) fail(`the recording missed the prover's wasm (fetched by the page, its body handed to the worker) or the relayer's requests: ${requests.length} recorded`);
  const origins = [...new Set(requests.map((r) => new URL(r.url).origin))];
  if (!arrived.some((r) => r.url === "/redeem")) fail("the pages' server did not see the redeem page's request");
  console.log(`ok  ${requests.length} requests recorded in the browser (the pages, the prover's worker, ${origins.length} origins), ${arrived.length} as the pages' server received them: none carries a card's secret or the key made, none a Referer`);
  if (errors.length) fail(`errors in the pages:\n${errors.join("\n")}`);
  console.log(`figures ${JSON.stringify(figures)}`);
} finally {
  await browser.close();
  site.close();
}

// The redeem page against a relayer that charges (a devstack with RELAYER_FUNDING=fee and a price
// for the first token), in headless Chromium (Debian's):
//   - a page not told of fees proves, is answered 402 PAYMENT_REQUIRED (nothing sent), and shows
//     the relayer's quote: "you receive X, the relayer's fee Y"; declined, nothing is sent and
//     the card stays unspent; accepted, the card is proved paying that fee: the recipient holds
//     the amount less the fee and the relayer's receiver the fee, read from the chain;
//   - a page told of fees (config.json's fees) shows the quote before any proof.
// Prints the time from the fee accepted to the tokens received.
//   node test/fee.mjs <devnet.json> <registry> <relayer> <faucet> <indexer> <artifacts dir> <card binary>
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { serve } from "../serve.mjs";

const [devnet, registry, relayer, faucet, indexer, artifacts, cardTool] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });
const fail = (msg) => {
  throw new Error(msg);
};
const m = JSON.parse(readFileSync(devnet, "utf8"));
const token = m.tokens[0];
const amount = 10n ** BigInt(token.decimals); // one token
const call = async (to, data) => {
  const r = await fetch(m.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to, data }, "latest"] }),
  }).then((r) => r.json());
  return BigInt(r.result);
};
const balanceOf = (owner) => call(token.address, "0x70a08231" + owner.slice(2).toLowerCase().padStart(64, "0"));

const fresh = () => "0x" + randomBytes(20).toString("hex"); // an address that holds nothing yet

const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
const sites = [];
const errors = [];
// open opens a fresh card's link on a phone-sized page, the recipient pasted, Redeem tapped.
const open = async (fees, recipient) => {
  const site = await serve({ devnet, registry, relayer, faucet, indexer, fees });
  sites.push(site);
  const link = execFileSync(cardTool, ["create", "--devnet", devnet, "--token", token.address, "--amount", amount.toString(), "--url", new URL("redeem", site.url).href], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  const page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  // The 402 the page is answered logs its status: the only error it is expected to log.
  page.on("console", (msg) => msg.type() === "error" && !msg.text().includes("status of 402") && errors.push(msg.text()));
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await page.goto(link, { waitUntil: "load" });
  await page.waitForFunction(() => document.body.dataset.state === "ready", { timeout: 60_000 });
  await page.type("#address", recipient);
  await page.waitForFunction(() => !document.querySelector("#redeem").disabled, { timeout: 10_000 });
  await page.tap("#redeem");
  return page;
};
const feeShown = async (page) => {
  await page.waitForFunction(() => document.body.dataset.state === "fee" || document.querySelector("#progress")?.textContent.startsWith("It did not"), { timeout: 120_000 });
  return page.evaluate(() => ({
    state: document.body.dataset.state, j: window.journey, progress: document.querySelector("#progress")?.textContent,
    receive: document.querySelector("#fee-receive").textContent, fee: document.querySelector("#fee-amount").textContent,
  }));
};
const units = (v) => {
  const s = v.toString().padStart(token.decimals + 1, "0");
  return `${s.slice(0, -token.decimals)}.${s.slice(-token.decimals)}`.replace(/\.?0+$/, "") + ` ${token.symbol}`;
};

try {
  // 1. A page not told of fees: the relayer's 402, then its quote.
  const recipient = fresh();
  const page = await open(false, recipient);
  let shown = await feeShown(page);
  if (shown.state !== "fee" || !shown.j.paymentRequired) fail(`after the relayer's 402: ${JSON.stringify({ state: shown.state, progress: shown.progress, error: shown.j.error })}`);
  const fee = BigInt(shown.j.quote.fee);
  if (shown.receive !== units(amount - fee) || shown.fee !== units(fee)) fail(`the page shows "${shown.receive}" and a fee of "${shown.fee}", want ${units(amount - fee)} and ${units(fee)}`);
  await page.screenshot({ path: join(artifacts, "redeem-fee.png"), fullPage: true });
  console.log(`ok  the relayer answers 402 PAYMENT_REQUIRED; the page shows its quote: you receive ${shown.receive}, the relayer's fee ${shown.fee}`);

  await page.tap("#fee-decline");
  await page.waitForFunction(() => document.body.dataset.state === "ready", { timeout: 10_000 });
  if ((await balanceOf(recipient)) !== 0n) fail("a declined fee sent the tokens");
  console.log("ok  the fee declined: nothing sent, Redeem possible again");

  const receiver = shown.j.quote.feeReceiver;
  const before = await balanceOf(receiver);
  await page.tap("#redeem");
  shown = await feeShown(page);
  if (shown.state !== "fee") fail(`the quote again: ${shown.progress}`);
  const accepted = BigInt(shown.j.quote.fee);
  const t = Date.now();
  await page.tap("#fee-accept");
  await page.waitForFunction(() => document.body.dataset.state === "done" || document.querySelector("#progress")?.textContent.startsWith("It did not"), { timeout: 120_000 });
  const ms = Date.now() - t;
  const done = await page.evaluate(() => ({ state: document.body.dataset.state, j: window.journey, progress: document.querySelector("#progress")?.textContent, amount: document.querySelector("#done-amount").textContent }));
  await page.screenshot({ path: join(artifacts, "redeem-fee-done.png"), fullPage: true });
  if (done.state !== "done") fail(`the redeem paying a fee ended ${done.state}: ${done.progress} ${done.j.error ?? ""}`);
  const got = await balanceOf(recipient);
  const earned = (await balanceOf(receiver)) - before;
  if (got !== amount - accepted || earned !== accepted || done.j.fee !== accepted.toString()) fail(`the recipient holds ${got}, the receiver earned ${earned}; the fee accepted ${accepted}, paid ${done.j.fee}`);
  console.log(`ok  the fee accepted: the recipient holds ${units(got)} and the relayer's receiver ${units(earned)} on chain ("${done.amount}"), ${ms} ms from accepting to received`);

  // 2. A page told of fees: the quote before any proof, no 402.
  const told = await open(true, fresh());
  shown = await feeShown(told);
  // Nor a proof begun before Redeem: it would bind no fee, and the person has not accepted one.
  if (shown.state !== "fee" || shown.j.paymentRequired || shown.j.proofStartedMs !== undefined || shown.j.provedAheadFor !== undefined) fail(`a page told of fees: ${JSON.stringify({ state: shown.state, j: shown.j })}`);
  console.log("ok  a page told of fees (config.json) shows the quote before proving, and begins no proof before it is accepted");
  if (errors.length) fail(`the pages' errors: ${errors.join("; ")}`);
} finally {
  await browser.close();
  for (const s of sites) s.close();
}

// A card whose issuer pays for its reveal, in headless Chromium (Debian's) against a running
// devstack whose relayer takes sponsors (RELAYER_FUNDING=treasury,sponsor):
//   - a sponsor is created on the relayer's admin routes with a voucher signer, and credited;
//   - `card create --voucher` puts its voucher in the card's link and QR code (zbarimg decodes
//     the PNG to the link; its version and size are printed beside a card's without one);
//   - the link, opened at 390×844, says the sponsor pays and asks no fee; redeemed to a pasted
//     address, the recipient holds the whole card (read from the chain), the reveal's request
//     carried the voucher and no secret, and the sponsor (GET /sponsor with its key, and the
//     admin list) is debited exactly the transaction's cost, the receipt's gasUsed ×
//     effectiveGasPrice read from the chain;
//   - another card's link carrying that voucher (its id is the first card's nullifier, so its
//     signature does not hold for this card) is refused by the relayer, 422 VOUCHER_INVALID: the
//     page says so, nothing is sent and the sponsor is not debited; Redeem again goes on the
//     relayer's own terms (its treasury) and the card is received.
//   node test/voucher.mjs <devnet.json> <registry> <relayer> <faucet> <indexer> <artifacts dir> <card binary> <admin key>
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import QRCode from "qrcode";
import { privateKeyToAccount } from "viem/accounts";
import { serve } from "../serve.mjs";
import { balanceOf as tokenBalance, rpcAt } from "./chain.mjs";
import { zbar } from "./zbar.mjs";

const [devnet, registry, relayer, faucet, indexer, artifacts, cardTool, adminKey] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });
const fail = (msg) => {
  throw new Error(msg);
};
const work = mkdtempSync(join(tmpdir(), "vaultd-voucher-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const m = JSON.parse(readFileSync(devnet, "utf8"));
const token = m.tokens[0];
const amount = 10n ** BigInt(token.decimals); // one token
const rpc = rpcAt(m.rpcUrl);
const balanceOf = (owner) => tokenBalance(rpc, token.address, owner);
const fresh = () => "0x" + randomBytes(20).toString("hex"); // an address that holds nothing yet
const admin = async (method, path, body) => {
  const r = await fetch(relayer + path, { method, headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" }, body: body && JSON.stringify(body) });
  if (!r.ok) fail(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
};

// The sponsor, its voucher signer's key in a file (as a card issuer's tools keep it), credited 10.
const signerKey = "0x" + randomBytes(32).toString("hex");
const signerFile = join(work, "voucher.key");
writeFileSync(signerFile, signerKey.slice(2), { mode: 0o600 });
const created = await admin("POST", "/admin/sponsors", { name: "Card Issuer Ltd", voucherSigner: privateKeyToAccount(signerKey).address });
const sponsor = created.sponsor.id;
await admin("POST", `/admin/sponsors/${sponsor}/credit`, { amount: (10n * 10n ** 18n).toString() });
const account = async () => {
  const r = await fetch(`${relayer}/sponsor`, { headers: { "X-Sponsor-Key": created.key } });
  if (!r.ok) fail(`GET /sponsor: ${r.status} ${await r.text()}`);
  return r.json();
};
console.log(`ok  a sponsor created on the relayer's admin routes (${sponsor}, its voucher signer's key in a file) and credited 10 native tokens`);

const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
const site = await serve({ devnet, registry, relayer, faucet, indexer });
const base = new URL("redeem", site.url).href;
const errors = [];
// create runs card create --url (and --qr) with extra flags, and answers the link and what its QR code measures.
const create = (name, extra = []) => {
  const png = join(work, `${name}.png`);
  const out = execFileSync(cardTool, ["create", "--devnet", devnet, "--token", token.address, "--amount", amount.toString(), "--url", base, "--qr", png, ...extra], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return { link: out.trim(), png };
};
// scanned checks that zbarimg decodes png to link, and says what its QR code measures (the
// package the pages draw QR codes with; card create's agree: version and modules).
const scanned = (png, link) => {
  const decoded = zbar(png);
  if (decoded !== link) fail(`zbarimg read ${decoded}, want the link ${link}`);
  const q = QRCode.create(link, { errorCorrectionLevel: "M" });
  const n = q.modules.size + 8;
  return `version ${q.version}, ${n} modules, ${link.length} characters, ${(42 / n).toFixed(2)} mm a module printed 42 mm wide`;
};
// open opens a link on a phone-sized page, recording the requests to the relayer.
const open = async (link) => {
  const page = await browser.newPage();
  const posted = [];
  page.on("request", (r) => r.url().startsWith(relayer) && r.method() === "POST" && posted.push(r.postData() ?? ""));
  page.on("pageerror", (e) => errors.push(String(e)));
  // The relayer's refusal of the copied voucher logs its status: the one error expected.
  page.on("console", (msg) => msg.type() === "error" && !msg.text().includes("status of 422") && errors.push(msg.text()));
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await page.goto(link, { waitUntil: "load" });
  await page.waitForFunction(() => document.body.dataset.state === "ready", { timeout: 60_000 });
  return { page, posted };
};
const redeemTo = async (page, recipient) => {
  if (recipient) await page.type("#address", recipient);
  await page.waitForFunction(() => !document.querySelector("#redeem").disabled, { timeout: 10_000 });
  await page.tap("#redeem");
  await page.waitForFunction(() => ["done", "refused"].includes(document.body.dataset.state) || window.journey.voucherProblem || document.querySelector("#progress")?.textContent.startsWith("It did not"), { timeout: 120_000 });
  return page.evaluate(() => ({ state: document.body.dataset.state, j: window.journey, sponsor: document.querySelector("#sponsor").textContent, progress: document.querySelector("#progress")?.textContent, done: document.querySelector("#done-amount").textContent }));
};

try {
  // 1. The card and its QR code, with the voucher and without.
  const voucherFile = join(work, "card.voucher.json");
  const plain = create("plain");
  const card = create("voucher", ["--voucher", voucherFile, "--sponsor", sponsor, "--voucher-key", signerFile, "--allowance", (10n ** 18n).toString()]);
  if (!card.link.includes("&voucher=") || plain.link.includes("voucher")) fail(`the links: ${card.link} / ${plain.link}`);
  console.log(`ok  card create --voucher: the link carries the voucher; zbarimg decodes its QR code to the link: ${scanned(card.png, card.link)} (without a voucher: ${scanned(plain.png, plain.link)})`);

  // 2. Redeemed through the page: the sponsor pays exactly what the transaction cost.
  const before = await account();
  const recipient = fresh();
  const { page, posted } = await open(card.link);
  const note = await page.evaluate(() => ({ j: window.journey, hidden: document.querySelector("#sponsor").hidden, text: document.querySelector("#sponsor").textContent }));
  if (note.hidden || !/sponsor pays/.test(note.text) || note.j.voucher !== sponsor) fail(`the page does not say the sponsor pays: ${JSON.stringify(note)}`);
  await page.screenshot({ path: join(artifacts, "redeem-voucher.png"), fullPage: true });
  const t = Date.now();
  const done = await redeemTo(page, recipient);
  const ms = Date.now() - t;
  await page.screenshot({ path: join(artifacts, "redeem-voucher-done.png"), fullPage: true });
  if (done.state !== "done" || !done.j.sponsored || done.j.fee !== undefined || done.j.quote !== undefined) fail(`the voucher card's redeem: ${JSON.stringify(done)}`);
  const got = await balanceOf(recipient);
  if (got !== amount) fail(`the recipient holds ${got}, want the whole card ${amount}`);
  const reveal = posted.filter((b) => b.includes("publicSignals"));
  const secrets = new URLSearchParams(card.link.slice(card.link.indexOf("?") + 1));
  const body = JSON.parse(reveal[0] ?? "{}");
  if (reveal.length !== 1 || body.voucher?.sponsor !== sponsor || body.fee || [secrets.get("secret"), secrets.get("nullifier")].some((s) => reveal[0].toLowerCase().includes(s.slice(2).toLowerCase()))) {
    fail(`the reveal's request: ${reveal.length} posted, ${reveal[0]}`);
  }
  const receipt = await rpc("eth_getTransactionReceipt", [done.j.txHash]);
  const cost = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
  let after;
  for (let i = 0; i < 50; i++) { // the debit is written with the reveal's outcome: asked until it is there
    after = await account();
    if (after.revealsPaid > before.revealsPaid) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const debit = BigInt(after.debited) - BigInt(before.debited);
  const listed = (await admin("GET", "/admin/sponsors")).sponsors.find((s) => s.id === sponsor);
  if (debit !== cost || after.revealsPaid !== before.revealsPaid + 1 || after.reserved !== "0" || listed.debited !== after.debited || BigInt(after.balance) !== 10n * 10n ** 18n - debit) {
    fail(`the sponsor debited ${debit} (${JSON.stringify(after)}; the admin list ${listed.debited}), the transaction cost ${cost} (gas ${BigInt(receipt.gasUsed)} × ${BigInt(receipt.effectiveGasPrice)} wei)`);
  }
  console.log(`ok  the voucher card redeemed through the page in ${ms} ms ("${done.done}"), the recipient holds the whole card; the sponsor debited ${debit} wei = the receipt's gasUsed ${BigInt(receipt.gasUsed)} × effectiveGasPrice ${BigInt(receipt.effectiveGasPrice)} (GET /sponsor and the admin list agree)`);

  // 3. The voucher copied onto another card: refused, nothing sent; then redeemed without it.
  const other = create("other");
  const field = new URLSearchParams(card.link.slice(card.link.indexOf("?") + 1)).get("voucher");
  const copied = other.link.replace("&secret=", `&voucher=${field}&secret=`);
  const second = fresh();
  const o = await open(copied);
  const refused = await redeemTo(o.page, second);
  await o.page.screenshot({ path: join(artifacts, "redeem-voucher-refused.png"), fullPage: true });
  if (refused.j.voucherProblem !== "invalid" || !/not valid here/.test(refused.sponsor) || refused.state !== "ready") fail(`the copied voucher: ${JSON.stringify(refused)}`);
  if ((await balanceOf(second)) !== 0n || (await account()).debited !== after.debited) fail("the copied voucher's refusal sent something or debited the sponsor");
  await o.page.evaluate(() => { window.journey.voucherProblem = undefined; });
  const again = await redeemTo(o.page, undefined);
  if (again.state !== "done" || again.j.sponsored || (await balanceOf(second)) !== amount) fail(`redeemed again without the voucher: ${JSON.stringify(again)}`);
  if ((await account()).debited !== after.debited) fail("the sponsor was debited for a reveal it did not pay");
  console.log(`ok  a voucher copied onto another card: the relayer refuses it (422 VOUCHER_INVALID), the page says so ("${refused.sponsor}"), nothing sent; Redeem again goes on the relayer's own terms and the card is received; the sponsor not debited`);
  if (errors.length) fail(`the pages' errors: ${errors.join("; ")}`);
} finally {
  await browser.close();
  site.close();
}

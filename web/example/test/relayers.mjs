// The redeem page choosing among the registry's relayers, in headless Chromium (Debian's) against
// a running devstack of two relayers (`devstack --relayers 2`), as docs/choosing.md says:
//   - relayer-2 paused: the page chooses relayer-1, says it sent the card, and knows why
//     relayer-2 was left out (paused);
//   - a third relayer in a process of its own (cmd/relayer), listed in the directory, chosen, and
//     killed (SIGKILL) just before the page posts to it: the browser cannot tell a refused
//     connection from one lost after sending, so the page follows the reveal on chain, and once
//     3 blocks pass with the nullifier unspent the next relayer pays; the time it cost is printed;
//   - both paused: the page says what each answered, sends nothing, and offers a browser wallet
//     (an EIP-1193 provider, here one the test injects, signing with a dev account's key in Node)
//     to send the reveal itself: the vault's reveal from that account, the same proof; the
//     recipient holds the whole card, and the page names the wallet as the sender.
// Both relayers are resumed at the end.
//   node test/relayers.mjs <devnet.json> <registry> <relayer> <faucet> <indexer> <artifacts dir> <card binary> <admin key> <relayer binary>
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { createWalletClient, defineChain, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { serve } from "../serve.mjs";
import { balanceOf as tokenBalance, rpcAt } from "./chain.mjs";

const [devnet, registry, relayer, faucet, indexer, artifacts, cardTool, adminKey, relayerTool] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });
const fail = (msg) => {
  throw new Error(msg);
};
const m = JSON.parse(readFileSync(devnet, "utf8"));
const token = m.tokens[0];
const amount = 10n ** BigInt(token.decimals); // one token
const rpc = rpcAt(m.rpcUrl);
const balanceOf = (owner) => tokenBalance(rpc, token.address, owner);
const fresh = () => "0x" + randomBytes(20).toString("hex"); // an address that holds nothing yet

// relayer-x: a relayer in a process of its own on the stack's chain, paying from a dev user's
// wallet, listed in the registry's directory as an operator would list it.
const work = mkdtempSync(join(tmpdir(), "vaultd-relayers-"));
const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
const xPort = await freePort();
const xUrl = `http://127.0.0.1:${xPort}`;
const xOperator = m.accounts.users[4]; // 10 native tokens: MIN_OPERATOR_BALANCE 1 below
const x = spawn(relayerTool, [], {
  stdio: ["ignore", "ignore", "pipe"],
  env: {
    PATH: process.env.PATH, PORT: String(xPort), RPC_URL: m.rpcUrl, OPERATOR_PRIVATE_KEY: xOperator.privateKey, ADMIN_API_KEY: adminKey,
    COMMIT_REVEAL_VAULT_ADDRESS: m.contracts.vault, NULLIFIER_REGISTRY_ADDRESS: m.contracts.nullifierRegistry, COMMITMENT_TREE_ADDRESS: m.contracts.commitmentTree,
    VERIFICATION_KEY_FILE: new URL("../../../gen/zk/devkeys/verification_key.json", import.meta.url).pathname,
    VAULT_TOKENS: m.tokens.filter((t) => !t.legacy).map((t) => t.address).join(","), DATABASE_URL: `sqlite:${join(work, "relayer-x.db")}`,
    MIN_OPERATOR_BALANCE: "1", CORS_ALLOWED_ORIGINS: "*", RATE_LIMIT_PER_IP: "120/1m", RATE_LIMIT_STATUS_PER_IP: "6000/1m", LOG_LEVEL: "warn",
  },
});
let xLog = "";
x.stderr.on("data", (d) => (xLog += d));
process.on("exit", () => {
  x.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});
for (let i = 0; ; i++) {
  const ready = await fetch(`${xUrl}/ready`).then((r) => r.ok, () => false);
  if (ready) break;
  if (i === 300 || x.exitCode !== null) fail(`relayer-x did not become ready: ${xLog}`);
  await new Promise((r) => setTimeout(r, 200));
}
const listed = await fetch(`${registry}/relayers`, {
  method: "POST", headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
  body: JSON.stringify({ name: "relayer-x", url: xUrl, chainId: m.chainId, vault: m.contracts.vault, operator: xOperator.address, feeReceiver: xOperator.address }),
});
if (listed.status !== 201) fail(`POST /relayers relayer-x: ${listed.status} ${await listed.text()}`);

const directory = (await fetch(`${registry}/relayers.json`).then((r) => r.json())).relayers;
if (directory.map((r) => r.name).join() !== "relayer-1,relayer-2,relayer-x") fail(`the directory: ${JSON.stringify(directory)}`);
const admin = async (name, action) => {
  const r = await fetch(`${directory.find((d) => d.name === name).url}/admin/${action}`, { method: "POST", headers: { authorization: `Bearer ${adminKey}` } });
  if (!r.ok) fail(`POST /admin/${action} at ${name}: ${r.status} ${await r.text()}`);
};

// The browser's wallet: an EIP-1193 provider in the page whose transactions a dev account signs
// in Node (viem), as a wallet extension would after the person confirms.
const user = privateKeyToAccount(m.accounts.users[3].privateKey);
const wallet = createWalletClient({
  account: user,
  chain: defineChain({ id: m.chainId, name: "dev", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [m.rpcUrl] } } }),
  transport: http(m.rpcUrl),
});
const sent = [];
const walletSend = async (tx) => {
  const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data });
  sent.push(hash);
  return hash;
};

const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
const site = await serve({ devnet, registry, relayer, faucet, indexer });
const base = new URL("redeem", site.url).href;
const errors = [];
const create = () =>
  execFileSync(cardTool, ["create", "--devnet", devnet, "--token", token.address, "--amount", amount.toString(), "--url", base], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
// open opens a link on a phone-sized page; withWallet: an EIP-1193 provider in it; firstDraw: the
// draw among the cheapest relayers always picks the last of them (Math.random 0: Fisher–Yates
// swaps the first and the last), so the test knows which is chosen.
const open = async (link, withWallet, firstDraw = false) => {
  const page = await browser.newPage();
  if (firstDraw) await page.evaluateOnNewDocument(() => { Math.random = () => 0; });
  page.on("pageerror", (e) => errors.push(String(e)));
  // Expected: the paused relayers' 503s, and the killed one's refused connections.
  page.on("console", (msg) => msg.type() === "error" && !/status of 503|ERR_CONNECTION_REFUSED/.test(msg.text()) && errors.push(msg.text()));
  if (withWallet) {
    await page.exposeFunction("vaultdTestWalletSend", walletSend);
    await page.evaluateOnNewDocument((address, chainId) => {
      window.ethereum = {
        request: async ({ method, params }) => {
          if (method === "eth_requestAccounts" || method === "eth_accounts") return [address];
          if (method === "eth_chainId") return "0x" + chainId.toString(16);
          if (method === "eth_sendTransaction") return window.vaultdTestWalletSend(params[0]);
          throw new Error(`the test's wallet does not answer ${method}`);
        },
      };
    }, user.address, m.chainId);
  }
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await page.goto(link, { waitUntil: "load" });
  await page.waitForFunction(() => document.body.dataset.state === "ready", { timeout: 60_000 });
  return page;
};
const redeemTo = async (page, recipient) => {
  await page.type("#address", recipient);
  await page.waitForFunction(() => !document.querySelector("#redeem").disabled, { timeout: 10_000 });
  await page.tap("#redeem");
  await page.waitForFunction(() => ["done", "refused"].includes(document.body.dataset.state) || window.journey.relayerProblems || window.journey.error, { timeout: 120_000 });
  return page.evaluate(() => ({ state: document.body.dataset.state, j: window.journey, progress: document.querySelector("#progress")?.textContent, by: document.querySelector("#done-relayer").textContent }));
};

try {
  // 1. relayer-2 paused; relayer-x chosen, and killed just before the page posts to it: the page
  // follows the reveal on chain, and relayer-1 pays once 3 blocks pass with it unspent.
  await admin("relayer-2", "pause");
  const first = fresh();
  const page = await open(create(), false, true);
  await page.setRequestInterception(true);
  let killedAt = 0;
  page.on("request", async (r) => {
    if (r.method() === "POST" && r.url() === `${xUrl}/reveal` && !killedAt) {
      killedAt = Date.now();
      const exited = new Promise((resolve) => x.once("exit", resolve));
      x.kill("SIGKILL");
      await exited;
    }
    await r.continue();
  });
  const done = await redeemTo(page, first);
  const tokensAt = Date.now();
  const [lost, paid] = done.j.relayerAttempts ?? [];
  if (done.state !== "done" || done.by !== "relayer-1" || !killedAt || !done.j.relayersDropped?.includes("relayer-2: paused") || !/^relayer-x: passed: it stopped answering/.test(lost) ||
    !/^relayer-1: sent/.test(paid) || (await balanceOf(first)) !== amount) {
    fail(`relayer-x killed before it answered: ${JSON.stringify({ state: done.state, by: done.by, killed: Boolean(killedAt), dropped: done.j.relayersDropped, attempts: done.j.relayerAttempts, progress: done.progress })}`);
  }
  console.log(`ok  relayer-2 paused (left out: ${done.j.relayersDropped.join("; ")}); relayer-x chosen and killed (SIGKILL) before it answered: the page followed it on chain and relayer-1 paid ("sent by the relayer ${done.by}"), the recipient holds the card once; ${tokensAt - killedAt} ms from the kill to tokens (${lost})`);

  // 2. relayer-1 paused too (relayer-x is gone): what each answered, nothing sent; the browser's wallet sends it itself.
  await admin("relayer-1", "pause");
  const second = fresh();
  const p2 = await open(create(), true);
  const none = await redeemTo(p2, second);
  const offered = await p2.evaluate(() => !document.querySelector("#self-send").hidden);
  await p2.screenshot({ path: join(artifacts, "redeem-no-relayer.png"), fullPage: true });
  if (none.state !== "ready" || none.j.relayerProblems?.length !== 3 || !/relayer-1: an operator paused it/.test(none.progress) || !/relayer-2: an operator paused it/.test(none.progress) ||
    !/relayer-x: (the connection was refused|it could not be reached)/.test(none.progress) || !offered || sent.length !== 0 || (await balanceOf(second)) !== 0n) {
    fail(`with every relayer paused: ${JSON.stringify({ state: none.state, problems: none.j.relayerProblems, progress: none.progress, offered, sent })}`);
  }
  console.log(`ok  every relayer paused: nothing sent; the page says "${none.progress}" and offers the browser's wallet`);
  const t = Date.now();
  await p2.tap("#self-send-button");
  await p2.waitForFunction(() => document.body.dataset.state === "done" || window.journey.selfSendError, { timeout: 120_000 });
  const self = await p2.evaluate(() => ({ state: document.body.dataset.state, j: window.journey, by: document.querySelector("#done-relayer").textContent }));
  await p2.screenshot({ path: join(artifacts, "redeem-self-sent.png"), fullPage: true });
  const receipt = sent.length === 1 ? await rpc("eth_getTransactionReceipt", [sent[0]]) : undefined;
  if (self.state !== "done" || receipt?.from.toLowerCase() !== user.address.toLowerCase() || receipt.to.toLowerCase() !== m.contracts.vault.toLowerCase() ||
    receipt.status !== "0x1" || self.j.txHash !== sent[0] || !self.by.includes(user.address) || (await balanceOf(second)) !== amount) {
    fail(`sent from the browser's wallet: ${JSON.stringify({ state: self.state, error: self.j.selfSendError, by: self.by, sent, receipt })}`);
  }
  console.log(`ok  sent from the browser's wallet (${user.address}, the vault's reveal, gas ${BigInt(receipt.gasUsed)} paid by it) in ${Date.now() - t} ms; the recipient holds the whole card; the page names the wallet as the sender`);
  if (errors.length) fail(`the pages' errors: ${errors.join("; ")}`);
} finally {
  await admin("relayer-1", "resume").catch(() => {});
  await admin("relayer-2", "resume").catch(() => {});
  await browser.close();
  site.close();
}

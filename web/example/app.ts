// The example web app: every step a user takes, on @vaultd/client and viem. Each section's
// button runs one step; the results also go to window.journey (the browser test reads them).
import { cardLink, createClients, leavesIncluding, ok, VaultdError } from "@vaultd/client";
import { claimWithWork } from "@vaultd/client/pow";
import { approveCalldata, assetsAt, balanceOfCalldata, commitCalldata, Prover, type Note } from "@vaultd/client/prover";
import { createPublicClient, createWalletClient, defineChain, formatUnits, http, parseUnits, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { qrInto } from "./qr.js";

interface Config {
  chainId: number; rpcUrl: string; vault: string; commitmentTree: string;
  tokens: { address: string; symbol: string; decimals: number }[];
  user: { address: string; privateKey: Hex };
  registry: string; relayer: string; faucet: string; indexer: string;
}

const journey: Record<string, unknown> = {};
(window as unknown as { journey: typeof journey }).journey = journey;
const $ = (sel: string) => document.querySelector(sel) as HTMLElement;
const show = (id: string, text: string) => ($(`#${id} .out`).textContent = text);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function step(id: string, run: () => Promise<void>): void {
  const section = $(`#${id}`);
  const button = section.querySelector("button") as HTMLButtonElement;
  button.disabled = false;
  button.onclick = async () => {
    button.disabled = true;
    section.dataset.state = "running";
    try {
      await run();
      section.dataset.state = "done";
    } catch (e) {
      section.dataset.state = "error";
      show(id, String(e instanceof Error ? e.message : e));
      journey[`${id}Error`] = String(e);
      button.disabled = false; // a step that failed may be tried again
    }
  };
}

const cfg: Config = await (await fetch("config.json")).json();
const clients = createClients(cfg);
const chain = defineChain({ id: cfg.chainId, name: "vaultd dev", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [cfg.rpcUrl] } } });
const pub = createPublicClient({ chain, transport: http() });
const user = createWalletClient({ chain, transport: http(), account: privateKeyToAccount(cfg.user.privateKey) });

// Tokens with their icons: the page is interactive once they are listed.
const { tokens } = ok(await clients.registry.GET("/tokens"));
$("#token-list").replaceChildren(
  ...tokens.map((t) => {
    const li = document.createElement("li");
    const img = document.createElement("img");
    img.src = t.icon;
    img.alt = t.symbol;
    li.append(img, `${t.symbol} — ${t.name} (${t.category})`);
    return li;
  }),
);
journey.tokens = tokens.length;
journey.interactiveMs = Math.round(performance.now());
$("#tokens").dataset.state = "done";

// The prover loads in its worker meanwhile (its wasm, then its proving key behind it: a few MB).
const proverLoad = (async () => {
  const t = performance.now();
  const p = await Prover.load({ assets: assetsAt(new URL("assets/", location.href).href) });
  journey.proverLoadMs = Math.round(performance.now() - t);
  return p;
})();
// How the load ended, for the browser test (which also makes the worker fail to load).
(window as unknown as { proverState: Promise<string> }).proverState = proverLoad.then(
  () => "loaded",
  (e) => String(e?.message ?? e),
);
$("#status").textContent = "ready";

// The claim carries the proof of work the faucet asks (none when it answers the challenge 404):
// solved in a Worker, with a progress bar of the tries against the work expected, and a cancel.
step("claim", async () => {
  const address = privateKeyToAccount(generatePrivateKey()).address;
  const work = $("#claim-work");
  const bar = $("#claim-progress") as HTMLProgressElement;
  const abort = new AbortController();
  ($("#claim-cancel") as HTMLButtonElement).onclick = () => abort.abort(new Error("the proof of work was cancelled: claim again to start over"));
  const t = performance.now();
  journey.pow = "none";
  try {
    await claimWithWork(clients.faucet, address, {
      signal: abort.signal,
      onChallenge: (c) => {
        journey.pow = { work: c.work, memoryKiB: c.memoryKiB, tries: 0 };
        bar.max = c.work;
        bar.value = 0;
        work.hidden = false;
        show("claim", `the faucet asks for proof of work: about ${c.work} tries`);
      },
      onProgress: (p) => {
        bar.value = Math.min(p.tries, p.work); // a solve may take more tries than expected: the bar stays full
        (journey.pow as { tries: number }).tries = p.tries;
        show("claim", `proof of work: ${p.tries} tries of about ${p.work}`);
      },
    });
  } finally {
    work.hidden = true;
  }
  journey.claimMs = Math.round(performance.now() - t); // the challenge, its solve and the claim
  for (;;) {
    const s = ok(await clients.faucet.GET("/api/faucet/status", { params: { query: { address } } }));
    show("claim", `${address}: ${s.status} ${s.txHash ?? ""}`);
    if (s.status === "confirmed") break;
    if (s.status === "failed") throw new Error(`claim failed: ${JSON.stringify(s)}`);
    await sleep(200);
  }
  journey.claimed = (await pub.getBalance({ address: address as Hex })).toString();
});

let note: Note | undefined;
const qrWidthMm = 42; // the printed card's QR code (app.css, .card-face .qr svg)
const token = cfg.tokens[0];
const amount = parseUnits("12.5", token.decimals); // the tests expect 12.5 tokens
step("commit", async () => {
  const prover = await proverLoad;
  note = await prover.newNote({ chainId: cfg.chainId, vault: cfg.vault, token: token.address, amount });
  for (const data of [approveCalldata(cfg.vault, amount), commitCalldata(token.address, amount, note.commitment)]) {
    const to = (data.startsWith("0x095ea7b3") ? token.address : cfg.vault) as Hex;
    const hash = await user.sendTransaction({ to, data });
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  }
  journey.card = note.card;
  show("commit", `committed ${formatUnits(amount, token.decimals)} ${token.symbol}`);
  // The card as a person holds it: a link to this app's redeem page and its QR code, printable
  // card-sized. The link leaves out the chain and vault: they are this app's.
  const link = cardLink(note.card, new URL("redeem", location.href).href, { chainId: cfg.chainId, vault: cfg.vault });
  const qr = await qrInto($("#card-qr"), link);
  $("#card-amount").textContent = `${formatUnits(amount, token.decimals)} ${token.symbol}`;
  $("#card-link").textContent = link;
  $("#card").hidden = false;
  ($("#print") as HTMLButtonElement).onclick = () => window.print();
  journey.link = link;
  journey.qr = { ...qr, characters: link.length, moduleMm: Number((qrWidthMm / qr.modules).toFixed(2)) };
});

step("redeem", async () => {
  if (!note) throw new Error("commit a card first");
  const prover = await proverLoad;
  const leaves = await leavesIncluding(clients.indexer, note.leaf, { tree: cfg.commitmentTree, intervalMs: 100 });
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  // While the worker proves, the page's own thread must stay free: the longest gap between
  // 10 ms ticks (and until the answer) is what a user would feel as a freeze.
  let last = performance.now();
  let maxGap = 0;
  const tick = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  };
  const ticker = setInterval(tick, 10);
  const t = performance.now();
  const { request } = await prover.prove({ card: note.card, leaves, recipient });
  journey.proofMs = Math.round(performance.now() - t);
  tick();
  clearInterval(ticker);
  journey.mainThreadMaxGapMs = Math.round(maxGap);
  const result = ok(await clients.relayer.POST("/reveal", { body: request }));
  const balance = BigInt(((await pub.call({ to: token.address as Hex, data: balanceOfCalldata(recipient) })).data ?? "0x0") as string);
  journey.recipient = recipient;
  journey.recipientBalance = balance.toString();
  journey.revealTx = result.txHash;
  try {
    ok(await clients.relayer.POST("/reveal", { body: request }));
    journey.repeat = "accepted";
  } catch (e) {
    journey.repeat = e instanceof VaultdError ? `${e.status} ${e.code}` : String(e);
  }
  show("redeem", `proved in ${journey.proofMs} ms; ${result.txHash} paid ${balance} ${token.symbol} to ${recipient}; the same request again: ${journey.repeat}`);
});

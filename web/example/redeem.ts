// The redeem page, as a person opens it from a card's QR code: the card is read from the URL's
// fragment and removed from the address bar and the history at once; the page shows what the
// card holds (from the registry), proves the reveal in a Web Worker, redeems it through the
// relayer, and shows the result. A recipient without a wallet gets one made here. The card's
// secrets never leave the page: no request carries them (the proof and the nullifier do not
// reveal them), and the server sends Referrer-Policy: no-referrer and a strict CSP.
// A relayer that charges (config.json's `fees`, or its 402 PAYMENT_REQUIRED to a reveal without a
// fee) is asked its quote, and the person sees what they receive and the fee before anything is
// proved; the proof pays exactly the fee they accepted. A card that carries a sponsor's voucher
// (its issuer pays for its reveal) is redeemed with it: the page says the sponsor pays, and asks
// no fee; a voucher the relayer refuses (expired, used, …) is said, and the next Redeem goes on
// the relayer's own terms.
// The relayer is chosen among those the registry's directory lists (and config.json's): the
// cheapest ready one on this chain and vault, drawn at random near the cheapest, with the others
// tried in turn when it does not take the reveal (docs/choosing.md). The page says which relayer
// sent it, or what each answered.
// window.journey holds what the browser test reads.
import {
  CardError, chooseRelayers, createClients, isRecipientRefused, leavesIncluding, nullifierOf, readCard, readRecipient, RecipientError, refusedRecipients, relayerDirectory,
  relayerName, RelayersError, revealAndWait, rpcChain, VaultdError, VoucherError,
  type CardInfo, type CardProblem, type Payment, type RecipientProblem, type RefusedRecipients, type RelayerChoice, type RevealFee, type RevealRequest, type Voucher,
  type VoucherProblem,
} from "@vaultd/client";
import { assetsAt, balanceOfCalldata, isSpentCalldata, Prover, revealCalldata, type LoadProgress, type ProveProgress } from "@vaultd/client/prover";
import { qrInto, scanQR } from "./qr.js";
import { ethCall, formatUnits, newWallet } from "./wallet.js";

// First of all: the card out of the address bar and the history.
const fragment = location.hash.slice(1);
if (fragment) history.replaceState(null, "", location.pathname + location.search);

interface Config {
  chainId: number; rpcUrl: string; vault: string; commitmentTree: string;
  registry: string; relayer: string; indexer: string;
  fees?: boolean; // the relayer charges a fee out of the tokens: ask its quote before proving
}

const journey: Record<string, unknown> = { hashKept: location.hash !== "" };
(window as unknown as { journey: typeof journey }).journey = journey;
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

// What a person reads for each problem: plain words, and what to do.
const problems: Record<CardProblem | "redeemed" | "unknown", string> = {
  "redeemed": "This card has already been redeemed. Its tokens went to whoever redeemed it first; a card can be redeemed only once.",
  "malformed": "This is not a card this page can read. Scan the card's QR code again, or open the link exactly as you received it.",
  "truncated": "Part of this card is missing: the link was cut short, or the QR code was not read whole. Scan it again, or copy the whole link.",
  "other-chain": "This card belongs to another network than this app's. Open it in the app it was made for.",
  "other-vault": "This card belongs to another vault than this app's. Open it in the app it was made for.",
  "unknown": "This card's deposit is not in this vault: it may be for another app, or not committed yet.",
};

// What a person reads for an address that cannot receive the card (pasted or scanned).
const recipientProblems: Record<RecipientProblem, string> = {
  "malformed": "That is not an address (0x and 40 hex digits) nor a wallet's payment QR code.",
  "checksum": "This address has a typo: its capital letters (its checksum) do not match. Copy it again from your wallet.",
  "zero": "That is the zero address: nobody can spend what is sent to it.",
  "name": "That is a name, not an address: use the address (0x…) it stands for, from your wallet.",
  "unsupported": "This QR code asks for something else than a payment to an address. Show your wallet's own address (its Receive code) instead.",
  "vault": "That is the vault's own address, not a wallet: tokens sent there are lost. Use your wallet's address.",
  "token": "That is a token's contract, not a wallet: tokens sent there are lost. Use your wallet's address.",
};

// What a person reads when the relayer refuses the card's sponsor's voucher (nothing was sent).
const voucherProblems: Record<VoucherProblem, string> = {
  "invalid": "The sponsor's voucher on this card is not valid here: it was made for another app, or changed.",
  "expired": "The sponsor's voucher on this card has expired.",
  "allowance-low": "The sponsor's voucher on this card does not cover what sending it may cost now.",
  "used": "The sponsor's voucher on this card has already paid for another redeem.",
  "revoked": "The card's sponsor no longer pays for redeems.",
  "balance-low": "The card's sponsor has too little left to pay for this redeem.",
  "not-accepted": "This app's relayer takes no sponsors' vouchers.",
};

function refuse(kind: keyof typeof problems, detail = ""): void {
  journey.problem = kind;
  $("problem").textContent = problems[kind];
  $("problem").hidden = false;
  $("redeem-form").hidden = true;
  $("bar").hidden = true;
  $("load-note").textContent = "";
  document.body.dataset.state = "refused";
  if (detail) console.info(detail);
}

// noteStages notes when a proof begun at since reached each stage and ended each MSM (a section
// of the key multiplied: "MSM K"), and when the key's points were all decoded, for the phone test.
const noteStages = (stages: Record<string, number>, p: ProveProgress, since: number) => {
  const at = Math.round(performance.now() - since);
  stages[p.stage] ??= at;
  for (const s of p.multiplied) stages[`MSM ${s}`] ??= at;
  if (p.keyDecodedAt !== undefined) journey.keyDecodedAt = p.keyDecodedAt;
  if (p.keyPoints !== undefined) journey.keyPoints = p.keyPoints;
  if (p.keyTail) journey.keyTail = p.keyTail;
  if (p.warm !== undefined) journey.proofWarm = p.warm;
};

const bar = $<HTMLProgressElement>("bar");
const loadNote = $("load-note");
const mb = (n: number) => (n / 1e6).toFixed(1);
// showLoad tells the person how far the prover is: the bytes of its wasm, then its start.
const showLoad = (p: LoadProgress) => {
  const at = (journey.loadAt ??= {}) as Record<string, number>; // when each stage began (performance.now())
  at[p.stage] ??= Math.round(performance.now());
  if (p.stage === "downloading" && !("loadTotal" in journey)) journey.loadTotal = p.total ?? null; // its first report's total, for the phone test
  if (document.body.dataset.state !== "loading") return;
  bar.hidden = false;
  if (p.stage === "starting") {
    bar.removeAttribute("value"); // a moment, with no measure
    loadNote.textContent = "Getting this phone ready to make the proof: starting…";
  } else if (p.total) {
    bar.value = p.received / p.total;
    loadNote.textContent = `Getting this phone ready to make the proof: ${mb(p.received)} of ${mb(p.total)} MB`;
  } else {
    bar.removeAttribute("value");
    loadNote.textContent = `Getting this phone ready to make the proof: ${mb(p.received)} MB loaded`;
  }
};

// The prover (a few MB) starts loading in its worker at once for a link that looks like a card,
// without waiting for the config (from the browser's Cache Storage after a first card). Redeem
// is possible once it has started; its proving key arrives behind it, and a proof asked for
// before it has all arrived multiplies what has while the rest comes.
const assets = assetsAt(new URL("assets/", location.href).href);
const early = fragment.startsWith("vaultd-card:") ? Prover.load({ assets, onProgress: showLoad }) : undefined;
early?.catch(() => {}); // reported when redeeming

const cfg: Config = await (await fetch("config.json")).json();
const clients = createClients(cfg);
// The relayer is first asked once the proof is made (with no fee to quote): its connection is
// opened now rather than then, a round trip less on a phone's network. Anonymous, as the
// client's CORS requests are, so that they use it.
if (early) {
  const link = Object.assign(document.createElement("link"), { rel: "preconnect", href: new URL(cfg.relayer).origin, crossOrigin: "anonymous" });
  document.head.append(link);
}
// read is an eth_call's answer as a number (isSpent's bool, balanceOf's amount).
const read = (to: string, data: string) => ethCall(cfg.rpcUrl, to, data);
let card: CardInfo | undefined;
try {
  card = readCard(fragment, { chainId: cfg.chainId, vault: cfg.vault });
} catch (e) {
  $("card-info").hidden = true; // nothing of it can be shown
  refuse(e instanceof CardError ? e.problem : "malformed", String(e));
}


if (card) {
  const c = card;
  // The prover loads while the person reads the card (started above, or here for a card whose
  // link was escaped).
  const proverLoad = early ?? Prover.load({ assets, onProgress: showLoad });
  proverLoad.catch(() => {}); // reported when redeeming
  // When the key's points were kept decoded for the next card (Cache Storage), after the first proof.
  void proverLoad.then((p) => p.pointsKept).then((kept) => Object.assign(journey, { pointsKept: kept, pointsKeptMs: Math.round(performance.now()) }), () => {});
  // Whether the card was redeemed already, asked at once: its nullifier comes from the card
  // (readCard), not from the prover.
  const spent = read(cfg.vault, isSpentCalldata(c.nullifier)).then((v) => v !== 0n);
  spent.catch(() => {}); // awaited below

  // What the card holds, in the token's units, with its icon (the registry's; the address alone
  // for a token it does not list).
  let symbol = "tokens";
  let decimals = 0;
  const token = await clients.registry.GET("/tokens/{address}", { params: { path: { address: c.token } } });
  if (token.data) {
    symbol = token.data.symbol;
    decimals = token.data.decimals;
    const icon = $<HTMLImageElement>("token-icon");
    icon.src = token.data.icon;
    icon.alt = symbol;
    icon.hidden = false;
  }
  const amount = `${formatUnits(c.amount, decimals)} ${symbol}`;
  $("amount").textContent = amount;
  $("token").textContent = token.data ? token.data.name : c.token;
  journey.amount = amount;

  // A sponsor's voucher on the card pays for its reveal: said here, sent with it. One already
  // expired is said and left out (the relayer would refuse it after the proof).
  let voucher: Voucher | undefined = c.voucher;
  const sponsorNote = $("sponsor");
  if (voucher && voucher.expiresAt * 1000 <= Date.now()) {
    sponsorNote.textContent = `This card's sponsor's voucher expired on ${new Date(voucher.expiresAt * 1000).toLocaleDateString()}: it is redeemed on the relayer's own terms.`;
    journey.voucherProblem = "expired";
    voucher = undefined;
  } else if (voucher) {
    sponsorNote.textContent = `The card's sponsor pays for sending it: you receive all of it, and pay nothing.`;
    journey.voucher = voucher.sponsor;
  }
  sponsorNote.hidden = !c.voucher;

  // A card already redeemed says so, and nothing is asked of the person. Otherwise they choose
  // where the tokens go while the prover arrives (a phone's network takes seconds); Redeem
  // waits for it to start (not for its proving key).
  const isSpent = await spent;
  if (isSpent) refuse("redeemed");
  else $("redeem-form").hidden = false;
  let proverReady = false;
  // The tree holding the card's leaf (readCard computes it without the prover), asked for now
  // rather than on Redeem: the proof then starts at once. Asked again on Redeem if it failed or
  // is older than a minute (the vault takes a recent root, not any old one).
  const treeNow = () => {
    const leaves = leavesIncluding(clients.indexer, c.leaf, { tree: cfg.commitmentTree, timeoutMs: 20_000 });
    leaves.catch(() => {}); // awaited on Redeem
    return { leaves, at: performance.now() };
  };
  let tree = isSpent ? undefined : treeNow();

  // The recipient: an address the person pastes (EIP-55 checked) or scans from their wallet's QR
  // code (confirmed by them: a code may name another address than they think), or a wallet made
  // here. Never the vault or a registered token: what is sent to a contract is lost.
  let refused: RefusedRecipients;
  try {
    const r = await refusedRecipients(clients.registry, cfg.vault);
    refused = { vault: r.vault, tokens: [...r.tokens, c.token] };
  } catch {
    refused = { vault: cfg.vault, tokens: [c.token] }; // the relayer refuses the registry's others
  }
  let recipient: string | undefined;
  const button = $<HTMLButtonElement>("redeem");
  const addressInput = $<HTMLInputElement>("address");
  const saved = $<HTMLInputElement>("saved");
  const scannedOk = $<HTMLInputElement>("scanned-ok");
  // A proof made ahead for the recipient chosen, while the person saves the new wallet's key or
  // checks a scanned address: Redeem then sends it at once. Nothing leaves the phone before
  // Redeem. Not with a fee (the person accepts it first); a proof against leaves asked for again
  // on Redeem, or for another recipient, is not used, nor one used once (a second tap proves
  // anew, as before). Proofs ahead are made one after another, and one whose recipient or leaves
  // changed before its turn is not made (the prover cannot stop one under way: a recipient
  // changed during a proof waits for its end). Leaves older than half a minute are asked for
  // again first, so that Redeem within the next half minute finds them fresh.
  interface Ahead {
    to: string;
    tree: typeof tree;
    proof: ReturnType<Prover["prove"]>;
    began: number; // performance.now()
    stages: Record<string, number>; // when each of its stages began, from its start
    keyAtStart?: number; // the key's bytes received when it began
    used?: boolean;
  }
  let ahead: Ahead | undefined;
  let aheadProgress: ((p: ProveProgress) => void) | undefined; // the proof's progress, once Redeem shows it
  const proveAhead = () => {
    if (!proverReady || !recipient || !tree || (feesOn && !voucher)) return;
    if (performance.now() - tree.at > 30_000) tree = treeNow();
    if (ahead?.to === recipient && ahead.tree === tree) return;
    const [to, t, before] = [recipient, tree, ahead?.proof];
    const a: Ahead = { to, tree: t, proof: undefined!, began: 0, stages: {} };
    const onProgress = (p: ProveProgress) => {
      noteStages(a.stages, p, a.began);
      if (p.stage === "solving") a.keyAtStart ??= p.received;
      if (ahead === a) aheadProgress?.(p); // the bar shows the proof Redeem waits for, no other
    };
    a.proof = (async () => {
      await before?.catch(() => {});
      if (ahead !== a) throw new Error("another recipient or newer leaves were chosen before its turn");
      journey.provedAheadFor = [...((journey.provedAheadFor as string[] | undefined) ?? []), to];
      a.began = performance.now();
      return (await proverLoad).prove({ card: c.card, leaves: await t.leaves, recipient: to }, { onProgress });
    })();
    a.proof.catch(() => {}); // proved again on Redeem
    ahead = a;
  };
  const update = () => {
    button.disabled = !proverReady || !recipient || (!$("new-wallet").hidden && !saved.checked) || (!$("scanned").hidden && !scannedOk.checked);
    proveAhead();
  };
  // choose reads text as the recipient (a pasted address or link, or a scanned code's text), or
  // says why it cannot be one.
  const choose = (text: string, scanned: boolean) => {
    $("new-wallet").hidden = true;
    $("scanned").hidden = true;
    scannedOk.checked = false;
    recipient = undefined;
    $("address-note").textContent = "";
    journey.recipientProblem = undefined;
    if (text.trim() !== "") {
      try {
        const r = readRecipient(text, refused);
        recipient = r.address;
        if (scanned) {
          addressInput.value = r.address;
          $("scanned-address").textContent = r.address;
          $("scanned-from").textContent =
            r.form === "transfer"
              ? `It is a request to be paid in the token ${r.contract}${r.chainId ? ` on network ${r.chainId}` : ""}: this card pays its own tokens to the address above.`
              : r.chainId && r.chainId !== cfg.chainId ? `It names network ${r.chainId}; this card pays on network ${cfg.chainId}, to the same address.` : "";
          $("scanned").hidden = false;
        }
      } catch (e) {
        if (!(e instanceof RecipientError)) throw e;
        journey.recipientProblem = e.problem;
        $("address-note").textContent = recipientProblems[e.problem];
        if (scanned) addressInput.value = "";
        console.info(e.message);
      }
    }
    update();
    if (scanned && recipient) $("scanned").scrollIntoView({ block: "start" });
  };
  addressInput.oninput = () => choose(addressInput.value, false);
  scannedOk.onchange = update;
  // The camera, where the browser has one.
  const scan = $<HTMLButtonElement>("scan");
  scan.hidden = !navigator.mediaDevices?.getUserMedia;
  scan.onclick = async () => {
    scan.disabled = true;
    $("address-note").textContent = "";
    try {
      const text = await scanQR($<HTMLVideoElement>("scan-video"));
      journey.scanned = text;
      choose(text, true);
    } catch (e) {
      $("address-note").textContent = `The camera did not give a QR code: ${e instanceof Error ? e.message : String(e)}. Paste the address instead.`;
    } finally {
      scan.disabled = false;
    }
  };
  const makeWallet = $<HTMLButtonElement>("make-wallet");
  makeWallet.onclick = async () => {
    // One wallet a tap: a second tap while its QR code is drawn would replace the key the person
    // is saving. Its key is shown once, never stored, never sent.
    makeWallet.disabled = true;
    const account = newWallet();
    try {
      $("new-key").textContent = account.key;
      await qrInto($("new-key-qr"), account.key);
    } finally {
      makeWallet.disabled = false;
    }
    journey.walletsMade = ((journey.walletsMade as number | undefined) ?? 0) + 1;
    addressInput.value = "";
    $("address-note").textContent = "";
    $("scanned").hidden = true;
    recipient = account.address;
    $("new-address").textContent = account.address;
    $("new-wallet").hidden = false;
    saved.checked = false;
    journey.madeWallet = account.address;
    update();
    $("new-wallet").scrollIntoView({ block: "start" });
  };
  saved.onchange = update;

  // The relayers to choose among: the registry's directory and config.json's relayer, each
  // asked how it stands (and its fee, where the reveal pays one).
  const chooseRelayer = async (payment: Payment): Promise<RelayerChoice> => {
    const listed = await relayerDirectory(clients.registry).catch(() => []);
    const own = listed.some((r) => r.url.replace(/\/$/, "") === cfg.relayer.replace(/\/$/, "")) ? [] : [{ url: cfg.relayer, name: new URL(cfg.relayer).host }];
    const choice = await chooseRelayers([...listed, ...own], { chainId: cfg.chainId, vault: cfg.vault, payment });
    journey.relayersDropped = choice.dropped.map((d) => `${relayerName(d.relayer)}: ${d.dropped!.reason}`);
    return choice;
  };
  // Whether the relayers pay for no reveal but would for a fee: the person is then shown one.
  const feesOnly = (choice: RelayerChoice) =>
    choice.ranked.length === 0 && choice.dropped.some((d) => d.dropped!.reason === "funding" && d.status?.funding.modes.includes("fee"));

  // The cheapest relayer's fee for this card, shown for the person to accept or decline: the
  // relayers to send through at that fee or less, or undefined when declined. A quote that
  // expires while they read it is asked again.
  let feesOn = cfg.fees ?? false;
  const askFee = async (): Promise<RelayerChoice | undefined> => {
    for (;;) {
      const choice = await chooseRelayer({ by: "fee", tokenAddress: c.token, amount: c.amount, maxFee: c.amount - 1n });
      if (choice.ranked.length === 0) throw new RelayersError(choice.dropped, []);
      const q = choice.ranked[0].fee!.quote;
      journey.quote = q;
      $("fee-receive").textContent = `${formatUnits(c.amount - BigInt(q.fee), decimals)} ${symbol}`;
      $("fee-amount").textContent = `${formatUnits(BigInt(q.fee), decimals)} ${symbol}`;
      $("fee-until").textContent = new Date(q.expiresAt * 1000).toLocaleTimeString();
      $("fee").hidden = false;
      document.body.dataset.state = "fee";
      $("fee").scrollIntoView({ block: "start" });
      const accepted = await new Promise<boolean>((resolve) => {
        $("fee-accept").onclick = () => resolve(true);
        $("fee-decline").onclick = () => resolve(false);
      });
      $("fee").hidden = true;
      if (!accepted) return undefined;
      if (q.expiresAt * 1000 > Date.now()) { // the fee shown, no more, from any relayer
        const fee = BigInt(q.fee);
        return { ...choice, payment: { by: "fee", tokenAddress: c.token, amount: c.amount, maxFee: fee }, ranked: choice.ranked.filter((r) => r.cost <= fee) };
      }
    }
  };

  // received shows the tokens received by `to` (what `what` says), once status is mined.
  const received = (to: string, status: { txHash?: string; blockNumber?: number }, what: string) => {
    journey.receivedMs = Math.round(performance.now());
    journey.recipient = to;
    journey.txHash = status.txHash;
    $("progress").hidden = true;
    bar.hidden = true;
    $("redeem-form").hidden = true;
    $("self-send").hidden = true;
    $("done-amount").textContent = what;
    $("done-address").textContent = to;
    $("done-tx").textContent = status.txHash ?? "";
    $("done-block").textContent = String(status.blockNumber ?? "");
    // Received once mined: what the wallet holds now is read after, not before saying so (a
    // phone's round trip, ~0.2 s on 4G).
    const held = $("done-balance");
    held.textContent = "…";
    read(c.token, balanceOfCalldata(to)).then(
      (balance) => (held.textContent = `${formatUnits(balance, decimals)} ${symbol}`),
      () => (held.textContent = "(not known just now: the chain did not answer)"),
    );
    $("done").hidden = false;
    document.body.dataset.state = "done";
  };

  // When no relayer takes the reveal, a person whose browser has a wallet with gas (an EIP-1193
  // provider) may send it from there: the same proof (made again without the fee a relayer was
  // to be paid), the vault's reveal from their own address. The tokens go to the recipient
  // chosen, as through a relayer.
  const offerSelfSend = (to: string, provedWithFee: boolean) => {
    const eth = (window as unknown as { ethereum?: { request(a: { method: string; params?: unknown[] }): Promise<unknown> } }).ethereum;
    if (!eth) return;
    const section = $("self-send");
    const note = $("self-send-note");
    note.textContent = "Your own wallet can send it instead: it pays the transaction's gas, and the recipient receives all of the card.";
    section.hidden = false;
    journey.selfSendOffered = true;
    const send = $<HTMLButtonElement>("self-send-button");
    send.onclick = async () => {
      send.disabled = true;
      button.disabled = true;
      try {
        const [from] = (await eth.request({ method: "eth_requestAccounts" })) as string[];
        const chainId = Number(await eth.request({ method: "eth_chainId" }));
        if (chainId !== cfg.chainId) throw new Error(`your wallet is on network ${chainId}; this card pays on network ${cfg.chainId}: switch networks and try again`);
        note.textContent = "Making the proof again on this phone…";
        const prover = await proverLoad;
        const leaves = await (tree && performance.now() - tree.at < 60_000 ? tree : (tree = treeNow())).leaves;
        const request = provedWithFee || !lastRequest || lastRequest.recipient !== to
          ? (await prover.prove({ card: c.card, leaves, recipient: to })).request
          : lastRequest;
        note.textContent = "Confirm the transaction in your wallet…";
        const hash = (await eth.request({ method: "eth_sendTransaction", params: [{ from, to: cfg.vault, data: revealCalldata(request) }] })) as string;
        journey.selfSent = hash;
        note.textContent = `Sent from ${from}: waiting for it to be mined…`;
        const chain = rpcChain(cfg.rpcUrl, cfg.vault);
        const deadline = Date.now() + 180_000;
        for (;;) {
          const spent = await chain.spent(nullifierOf(request), 0).catch(() => undefined);
          if (spent) {
            $("done-relayer").textContent = `your own wallet, ${from}`;
            received(to, spent, amount);
            return;
          }
          if (Date.now() > deadline) throw new Error(`transaction ${hash} was not mined in 3 minutes`);
          await new Promise((r) => setTimeout(r, 1000));
        }
      } catch (e) {
        note.textContent = `Your wallet did not send it: ${e instanceof Error ? e.message : String(e)}. Nothing was lost: try again.`;
        journey.selfSendError = String(e);
        send.disabled = false;
        button.disabled = false;
      }
    };
  };
  let lastRequest: RevealRequest | undefined; // the last proof made without a fee, for a wallet of the person's own to send

  // askFeeNext redeems again with a fee: the relayers pay for no reveal (a 402, or none takes the
  // treasury's way), so the person is shown the fee before the next proof.
  const askFeeNext = () => {
    feesOn = true;
    journey.paymentRequired = true;
    document.body.dataset.state = "ready";
    button.disabled = false;
    button.click();
  };

  button.onclick = async () => {
    if (!recipient || !proverReady) return;
    const to = recipient;
    const prover = await proverLoad;
    button.disabled = true;
    document.body.dataset.state = "redeeming";
    const progress = $("progress");
    progress.hidden = false;
    // The redeem's stages on the bar: each a step of four.
    const stage = (text: string, step: number) => {
      progress.textContent = text;
      bar.hidden = false;
      bar.value = step / 4;
    };
    try {
      stage("Finding the card's deposit…", 0);
      let leaves: string[];
      try {
        if (!tree || performance.now() - tree.at > 60_000) tree = treeNow();
        leaves = await tree.leaves.catch(() => (tree = treeNow()).leaves);
      } catch (e) {
        refuse("unknown", String(e));
        return;
      }
      let fee: RevealFee | undefined;
      // The relayers to send through: chosen while the proof is made (a fee is chosen first: it
      // is proved in). A voucher's sponsor pays at config.json's relayer, where it is a sponsor.
      let choosing: Promise<RelayerChoice> | undefined;
      if (feesOn && !voucher) {
        progress.hidden = true;
        bar.hidden = true;
        const choice = await askFee();
        fee = choice?.ranked[0].fee;
        choosing = choice && Promise.resolve(choice);
        if (!fee) {
          document.body.dataset.state = "ready";
          journey.feeDeclined = true;
          update();
          return;
        }
        progress.hidden = false;
        journey.fee = fee.amount;
      } else if (!voucher) {
        choosing = chooseRelayer({ by: "treasury" });
        choosing.catch(() => {}); // awaited once the proof is made
      }
      // Choosing among relayers: the chain's head, where a spend by one passed over is looked for
      // from, read while the proof is made, not a round trip between the proof and its request.
      const chain = choosing ? rpcChain(cfg.rpcUrl, cfg.vault) : undefined;
      const fromBlock = chain?.head();
      fromBlock?.catch(() => {}); // a failed read: looked for from block 0
      stage("Making the proof on this phone…", 1);
      let t = performance.now();
      journey.proofStartedMs = Math.round(t);
      journey.proverWorkers = prover.workers; // the Web Workers sharing the proof
      const proofAt: Record<string, number> = {}; // when each of the proof's stages began, from its start
      journey.proofAt = proofAt;
      // The proof's stages on the bar's second quarter: the key's bytes as they are multiplied.
      const showProof = (p: ProveProgress) => {
        noteStages(proofAt, p, t);
        if (p.stage === "solving") journey.keyAtProofStart = p.received;
        if (p.stage !== "proving" || !p.total) return;
        bar.value = (1 + p.proved / p.total) / 4;
        progress.textContent = p.received < p.total
          ? `Making the proof on this phone: ${mb(p.received)} of ${mb(p.total)} MB of its key received…`
          : `Making the proof on this phone: ${Math.round((100 * p.proved) / p.total)}%…`;
      };
      const made = !fee && ahead?.to === to && ahead.tree === tree && !ahead.used ? ahead : undefined;
      let proved: Awaited<Ahead["proof"]> | undefined;
      if (made) {
        // The bar shows what is left of it; its stages are counted from its own start, and it
        // began provedAheadMs before Redeem (less than 0: after, behind a proof for a recipient
        // chosen before).
        made.used = true;
        aheadProgress = showProof;
        proved = await made.proof.catch(() => undefined); // undefined: proved again below
        aheadProgress = undefined;
        if (proved) [journey.provedAheadMs, journey.proofAt, journey.keyAtProofStart] = [Math.round(t - made.began), made.stages, made.keyAtStart];
      }
      proved ??= await prover.prove({ card: c.card, leaves, recipient: to, fee }, { onProgress: showProof });
      const { request } = proved;
      if (!fee) lastRequest = request;
      journey.proofMs = Math.round(performance.now() - t);
      stage("Sending it through the relayer…", 2);
      t = performance.now();
      let status;
      if (choosing) {
        const choice = await choosing;
        if (!feesOn && feesOnly(choice)) {
          askFeeNext();
          return;
        }
        const prove = async (f?: RevealFee) => // proved again only for another fee or receiver
          f?.amount === fee?.amount && f?.receiver === fee?.receiver ? request : (await prover.prove({ card: c.card, leaves, recipient: to, fee: f })).request;
        const sent = await revealAndWait(choice, prove, { chain, fromBlock });
        status = sent.status;
        journey.relayer = relayerName(sent.relayer);
        journey.relayerAttempts = sent.attempts.map((a) => `${relayerName(a.relayer)}: ${a.outcome}: ${a.detail} (${a.ms} ms)`);
        $("done-relayer").textContent = relayerName(sent.relayer);
      } else {
        status = await revealAndWait(clients.relayer, request, { fee, voucher });
        $("done-relayer").textContent = new URL(cfg.relayer).host;
      }
      journey.relayMs = Math.round(performance.now() - t);
      if (status.state !== "mined") throw new Error(`the reveal reverted${status.reason ? `: ${status.reason}` : ""}`);
      received(to, status, fee
        ? `${formatUnits(c.amount - BigInt(fee.amount), decimals)} ${symbol} (the relayer's fee: ${formatUnits(BigInt(fee.amount), decimals)} ${symbol})`
        : voucher ? `${amount} (sent at the card's sponsor's expense)` : amount);
      journey.sponsored = voucher !== undefined;
    } catch (e) {
      if (e instanceof VaultdError && e.code === "NULLIFIER_USED") {
        refuse("redeemed");
        return;
      }
      if (e instanceof VoucherError) {
        // Nothing was sent: the card is unspent, and goes without the voucher on the next tap.
        voucher = undefined;
        journey.voucherProblem = e.problem;
        sponsorNote.textContent = `${voucherProblems[e.problem]} Nothing was sent: tap Redeem to send it on the relayer's own terms.`;
        sponsorNote.className = "note";
        sponsorNote.scrollIntoView({ block: "start" });
        progress.hidden = true;
        bar.hidden = true;
        document.body.dataset.state = "ready";
        button.disabled = false;
        return;
      }
      if (e instanceof VaultdError && e.status === 402 && e.code === "PAYMENT_REQUIRED" && !feesOn) {
        askFeeNext();
        return;
      }
      if (e instanceof RelayersError) {
        bar.hidden = true;
        progress.textContent = `No relayer could send it just now (${e.problems.join("; ")}). Nothing was sent: try again in a moment.`;
        journey.error = String(e);
        journey.relayerProblems = e.problems;
        document.body.dataset.state = "ready";
        button.disabled = false;
        offerSelfSend(to, feesOn && !voucher);
        return;
      }
      if (isRecipientRefused(e)) {
        // The relayer knows a token the registry did not list: nothing was sent.
        progress.hidden = true;
        bar.hidden = true;
        $("address-note").textContent = recipientProblems.token;
        journey.recipientProblem = "token";
        recipient = undefined;
        document.body.dataset.state = "ready";
        update();
        return;
      }
      bar.hidden = true;
      progress.textContent = `It did not go through: ${e instanceof Error ? e.message : String(e)}. Nothing was lost: try again.`;
      journey.error = String(e);
      document.body.dataset.state = "ready";
      button.disabled = false;
    }
  };

  if (!isSpent) {
    await proverLoad; // a prover that does not load stops here, with the page's error
    proverReady = true;
    bar.hidden = true;
    loadNote.textContent = "";
    update();
    document.body.dataset.state = "ready";
  }
}
journey.loadedMs = Math.round(performance.now());

// Sending a reveal and waiting for its outcome: through one relayer, or through a RelayerChoice
// with failover that never sends elsewhere while a relayer may have sent (docs/choosing.md).
import type { Client } from "openapi-fetch";
import type { paths as RelayerPaths, components as RelayerComponents } from "./gen/relayer.js";
import { acceptQuote, feeBinding, FeeError, type Quote, type RevealFee } from "./fee.js";
import { connectionRefused, ok, VaultdError, VoucherError, voucherProblems, type ErrorBody } from "./errors.js";
import { relayerName, type Candidate, type RelayerChoice, type RelayerEntry } from "./choice.js";
import type { ChainReader } from "./chain.js";
import type { Voucher } from "./card.js";

type RevealRequest = RelayerComponents["schemas"]["RevealRequest"];
type RevealStatus = RelayerComponents["schemas"]["RevealStatus"];

/** The nullifier of a reveal request (publicSignals[1], decimal or 0x-hex) as 0x and 64 hex digits. */
export function nullifierOf(request: RevealRequest): string {
  return "0x" + BigInt(request.publicSignals[1]).toString(16).padStart(64, "0");
}

/**
 * A relayer's fee for revealing `amount` of `tokenAddress` (`partial`: less than the whole card,
 * which leaves change and costs more gas), signed by the relayer (POST /quote). Accept it with
 * acceptQuote (the person's maximum) before proving. Throws a VaultdError for a refusal: 422
 * FEES_NOT_ACCEPTED (this relayer takes no fees), TOKEN_NOT_PRICED (not in this token), 429, …
 */
export async function quote(relayer: Client<RelayerPaths>, q: { tokenAddress: string; amount: bigint | string; partial?: boolean }): Promise<Quote> {
  return ok(await relayer.POST("/quote", { body: { tokenAddress: q.tokenAddress, amount: String(q.amount), partial: q.partial ?? false } }));
}

/**
 * Posts a reveal and answers once its transaction is final: mined (`state: "mined"`) or reverted
 * (`"reverted"`, with `reason` when the relayer could tell it). When the relayer answers 504
 * TX_PENDING, or the connection drops before an answer, the reveal is followed with
 * `GET /reveal/{nullifier}` every `intervalMs` (1 s) instead of being sent again; if the relayer
 * still knows nothing of it after `unknownMs` (10 s: the request never reached it), it is posted
 * once more, which is safe (the relayer sends one transaction per nullifier, and answers a spent
 * one 409 NULLIFIER_USED). Throws a VaultdError for a refusal (nothing sent: 409, 422, 429, 503,
 * …), and an Error after `timeoutMs` (10 min) without a final state.
 *
 * `fee` (acceptQuote's) pays the relayer out of the amount: the request must have been proved
 * with it (Prover.prove's `fee`), else a FeeError (`mismatch`) is thrown and nothing is sent.
 * The relayer answers 402 (PAYMENT_REQUIRED: it pays for no reveal without a fee; QUOTE_EXPIRED;
 * FEE_TOO_LOW: the chain's fees rose) with nothing sent: ask a new quote and prove again.
 *
 * `voucher` (readCard's, from a card that carries one) has the card's sponsor pay for the
 * reveal: no fee is proved, and the recipient gets the whole amount. A refusal of the voucher
 * throws a VoucherError (`expired`, `used`, `allowance-low`, `invalid`, …) with nothing sent. A
 * fee and a voucher together are refused here (an Error), as the relayer would.
 *
 * Given a RelayerChoice (chooseRelayers') and a function that proves the reveal for a fee (or
 * none), it tries the ranked relayers one at a time as docs/choosing.md says: one that did not
 * take the reveal (refused connection, 503, 429, 402, a 5xx without a transaction, a refusal of
 * its own) is passed over for the next, proving again when the fee or its receiver changes; one
 * that may have sent is followed until the outcome is known (`chain`, a ChainReader, reads the
 * nullifier's spend; without it, a relayer that stops answering is waited for until
 * `timeoutMs`), and the next is tried only once it is known that nothing it sent was mined
 * within `settleBlocks` (3) blocks. It answers the outcome, the relayer that sent it and every
 * attempt, or throws a RelayersError naming each relayer's problem when none took it.
 */

/** How long one attempt took, and what came of it. */
export interface Attempt {
  relayer: RelayerEntry;
  /** `sent`: it sent the reveal (its outcome is the answer); `passed`: it did not take it. */
  outcome: "sent" | "passed";
  detail: string;
  ms: number;
}

/** A reveal's outcome through a RelayerChoice: the status, who sent it, and each attempt in order. */
export interface Revealed {
  status: RevealStatus;
  relayer: RelayerEntry;
  /** The request sent by the relayer that paid (for a partial reveal: its change card is the one inserted). */
  request: RevealRequest;
  attempts: Attempt[];
}

/** No relayer took the reveal: why each was dropped, and what each tried answered. Nothing was sent. */
export class RelayersError extends Error {
  /** Each relayer's problem, `name: what it was`, the dropped first: what a page shows. */
  readonly problems: string[];
  constructor(
    readonly dropped: Candidate[],
    readonly attempts: Attempt[],
  ) {
    const problems = [
      ...dropped.map((c) => `${relayerName(c.relayer)}: ${c.dropped!.detail}`),
      ...attempts.map((a) => `${relayerName(a.relayer)}: ${a.detail}`),
    ];
    super(problems.length === 0 ? "no relayer to send the reveal through; nothing was sent" : `no relayer took the reveal; nothing was sent:\n${problems.join("\n")}`);
    this.name = "RelayersError";
    this.problems = problems;
  }
}

/** Options of revealAndWait (both forms). */
export interface RevealOptions {
  intervalMs?: number;
  unknownMs?: number;
  timeoutMs?: number;
  /** How long a POST /reveal is waited for before it is followed instead (default 120 s). */
  answerMs?: number;
  fee?: RevealFee;
  voucher?: Voucher;
  /** The chain, read for the nullifier's spend while a relayer that may have sent does not say. */
  chain?: ChainReader;
  /**
   * Choosing among relayers: the chain's head, read by the caller before the reveal (when
   * Redeem is tapped, say), from which a spend is looked for; otherwise `chain` is asked for it
   * before the first attempt, a round trip between the proof and its request.
   */
  fromBlock?: Promise<number>;
  /** Blocks past a silent relayer's failure after which its reveal is known not mined (default 3). */
  settleBlocks?: number;
}

/**
 * Proves the reveal paying `fee` (none: the treasury or a sponsor pays). It is called once for
 * each fee and receiver tried, each time before that proof is sent: a partial reveal proved again
 * makes another change card, which the caller keeps then (Revealed.request says which was sent).
 */
export type Prove = (fee?: RevealFee) => Promise<RevealRequest>;

// Codes that say the request is wrong at any relayer: thrown as they are, not passed over.
// REVEAL_REJECTED: the vault refused it in the relayer's simulation (a spent nullifier is
// NULLIFIER_USED instead).
const wrongEverywhere = new Set(["INVALID_REQUEST", "INVALID_PROOF", "INVALID_RECIPIENT", "RECIPIENT_NOT_ALLOWED", "SIGNAL_MISMATCH", "REVEAL_REJECTED"]);

export async function revealAndWait(relayer: Client<RelayerPaths>, request: RevealRequest, opts?: RevealOptions): Promise<RevealStatus>;
export async function revealAndWait(choice: RelayerChoice, prove: Prove, opts?: RevealOptions): Promise<Revealed>;
export async function revealAndWait(
  target: Client<RelayerPaths> | RelayerChoice,
  request: RevealRequest | Prove,
  opts: RevealOptions = {},
): Promise<RevealStatus | Revealed> {
  if (opts.fee && opts.voucher) throw new Error("a reveal is paid by a fee or by a sponsor's voucher, not both");
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  if ("ranked" in target) return throughChoice(target, request as Prove, opts, deadline);
  const req = withPayment(request as RevealRequest, opts.fee, opts.voucher);
  const out = await attempt(target, req, opts, deadline, false, 0);
  if (out.kind === "passed") throw out.error; // a single relayer's refusal is the caller's to see
  return out.status;
}

async function throughChoice(choice: RelayerChoice, prove: Prove, opts: RevealOptions, deadline: number): Promise<Revealed> {
  const attempts: Attempt[] = [];
  // The spend is looked for from before the first attempt: a relayer passed over may still have
  // had its reveal mined, and a later one's 409 NULLIFIER_USED is then that.
  const fromBlock = await (opts.fromBlock ?? opts.chain?.head() ?? Promise.resolve(0)).catch(() => 0);
  const proofs = new Map<string, Promise<RevealRequest>>(); // by fee and receiver: a treasury reveal is proved once
  for (const c of choice.ranked) {
    let began = Date.now();
    const passed = (detail: string) => attempts.push({ relayer: c.relayer, outcome: "passed", detail, ms: Date.now() - began });
    let fee = c.fee;
    const pay = choice.payment;
    if (pay.by === "fee" && (!fee || fee.quote.expiresAt * 1000 < Date.now() + 15_000)) {
      try { // its quote expires before the proof would reach it: asked again
        fee = acceptQuote(await quote(c.client, { tokenAddress: pay.tokenAddress, amount: pay.amount, partial: pay.partial }), pay.maxFee, pay);
      } catch (e) {
        passed(`its quote: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
    }
    const key = fee ? `${fee.amount}:${fee.receiver.toLowerCase()}` : "";
    if (!proofs.has(key)) proofs.set(key, prove(fee));
    const request = withPayment(await proofs.get(key)!, fee, opts.voucher);
    began = Date.now(); // an attempt's time is the relayer's, not the proof's
    const out = await attempt(c.client, request, opts, deadline, true, fromBlock);
    if (out.kind === "final") {
      attempts.push({ relayer: c.relayer, outcome: "sent", detail: out.status.state, ms: Date.now() - began });
      return { status: out.status, relayer: c.relayer, request, attempts };
    }
    passed(out.detail);
  }
  throw new RelayersError(choice.dropped, attempts);
}

function withPayment(request: RevealRequest, fee?: RevealFee, voucher?: Voucher): RevealRequest {
  if (voucher) return { ...request, voucher };
  if (!fee) return request;
  const q = fee.quote;
  if (BigInt(request.publicSignals[3]) !== feeBinding(request.recipient, fee.amount, fee.receiver)) {
    throw new FeeError("mismatch", `the request was not proved paying ${fee.amount} to ${fee.receiver} (prove it with this fee)`, q);
  }
  if (q.tokenAddress.toLowerCase() !== request.tokenAddress.toLowerCase() || BigInt(q.amount) !== BigInt(request.amount)) {
    throw new FeeError("mismatch", `the quote is for ${q.amount} of ${q.tokenAddress}, the request reveals ${request.amount} of ${request.tokenAddress}`, q);
  }
  return { ...request, fee };
}

type Outcome = { kind: "final"; status: RevealStatus } | { kind: "passed"; detail: string; error: unknown };

/**
 * One relayer's attempt at the reveal: its final status, or, where `canPass`, that it did not
 * take it. Without `canPass` (one relayer) every refusal is thrown and a silent relayer is
 * followed until the deadline.
 */
async function attempt(relayer: Client<RelayerPaths>, request: RevealRequest, opts: RevealOptions, deadline: number, canPass: boolean, fromBlock: number): Promise<Outcome> {
  const nullifier = nullifierOf(request);
  const onChain = async (): Promise<RevealStatus | undefined> => {
    const s = await opts.chain?.spent(nullifier, fromBlock).catch(() => undefined);
    return s && { nullifier, state: "mined", txHash: s.txHash, blockNumber: s.blockNumber };
  };
  // post answers the outcome, or undefined when the reveal is to be followed.
  const post = async (): Promise<Outcome | undefined> => {
    let res;
    try {
      res = await relayer.POST("/reveal", { body: request, signal: AbortSignal.timeout(opts.answerMs ?? 120_000) });
    } catch (e) {
      if (canPass && connectionRefused(e)) return { kind: "passed", detail: "the connection was refused", error: e };
      return undefined; // the connection dropped or the answer timed out: it may have been sent
    }
    if (res.response.ok && res.data) {
      const r = res.data;
      return { kind: "final", status: { nullifier, state: r.success ? "mined" : "reverted", txHash: r.txHash, blockNumber: r.blockNumber, gasUsed: r.gasUsed } };
    }
    const body = res.error as Partial<ErrorBody> | undefined;
    if (res.response.status === 504 || body?.code === "TX_REVERTED" || body?.txHash) return undefined; // it sent: the status says the rest
    const error = opts.voucher && body?.code && body.code in voucherProblems
      ? new VoucherError(res.response.status, res.error, res.response.headers)
      : new VaultdError(res.response.status, res.error, res.response.headers);
    if (!canPass) throw error;
    if (body?.code === "NULLIFIER_USED") {
      const spent = await onChain(); // sent through another relayer before, and mined after all
      if (spent) return { kind: "final", status: spent };
      throw error;
    }
    if (body?.code && wrongEverywhere.has(body.code)) throw error;
    return { kind: "passed", detail: `it answered ${error.message}`, error };
  };
  // decided: where the relayer's transaction reverted, the chain says whether the nullifier was
  // spent (by another transaction: done) or not (nothing revealed: the next may be tried).
  const decided = async (out: Outcome): Promise<Outcome> => {
    if (!canPass || out.kind !== "final" || out.status.state !== "reverted") return out;
    const spent = await onChain();
    if (spent) return { kind: "final", status: spent };
    return { kind: "passed", detail: `its transaction reverted${out.status.reason ? ` (${out.status.reason})` : ""}; the nullifier is unspent`, error: undefined };
  };
  const first = await post();
  if (first) return decided(first);
  const sleep = () => new Promise((r) => setTimeout(r, opts.intervalMs ?? 1000));
  let unknownSince: number | undefined;
  let silentFrom: number | undefined; // the head when the relayer stopped answering
  for (;;) {
    const spent = await onChain();
    if (spent) return { kind: "final", status: spent };
    let status: RevealStatus | undefined;
    try {
      const res = await relayer.GET("/reveal/{nullifier}", { params: { path: { nullifier } } });
      status = res.data;
    } catch {
      // the relayer is unreachable for now: ask again
    }
    if (status?.state === "mined" || status?.state === "reverted") return decided({ kind: "final", status });
    if (status?.state === "unknown") {
      unknownSince ??= Date.now();
      if (Date.now() - unknownSince >= (opts.unknownMs ?? 10_000)) {
        const again = await post();
        if (again) return decided(again);
        unknownSince = undefined;
      }
    } else {
      unknownSince = undefined;
    }
    if (status) silentFrom = undefined;
    else if (canPass && opts.chain) {
      const head = await opts.chain.head().catch(() => undefined);
      if (head !== undefined) {
        silentFrom ??= head;
        const settle = opts.settleBlocks ?? 3;
        if (head >= silentFrom + settle) {
          return { kind: "passed", detail: `it stopped answering, and nothing it may have sent was mined in ${settle} blocks`, error: undefined };
        }
      }
    }
    if (Date.now() >= deadline) throw new Error(`reveal ${nullifier}: no final state after ${opts.timeoutMs ?? 600_000} ms (last: ${status?.state ?? "no answer"})`);
    await sleep();
  }
}

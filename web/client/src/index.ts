// @vaultd/client: typed clients of vaultd's services, generated from openapi/*.yaml (gen/ts) on
// openapi-fetch, with one error type for every service's {error, code} body.
import createClient, { type Client } from "openapi-fetch";
import type { paths as RegistryPaths, components as RegistryComponents } from "./gen/registry.js";
import type { paths as RelayerPaths, components as RelayerComponents } from "./gen/relayer.js";
import type { paths as FaucetPaths, components as FaucetComponents } from "./gen/faucet.js";
import type { paths as IndexerPaths, components as IndexerComponents } from "./gen/indexer.js";
import { RecipientError, type RefusedRecipients } from "./recipient.js";
import { feeBinding, FeeError, type Quote, type RevealFee } from "./fee.js";
import type { Voucher } from "./card.js";

export type { RegistryPaths, RelayerPaths, FaucetPaths, IndexerPaths };
export { CardError, cardLink, readCard, type CardInfo, type CardProblem, type Home, type Voucher } from "./card.js";
export { acceptQuote, feeBinding, FeeError, type FeeProblem, type Quote, type RevealFee } from "./fee.js";
export { checkRecipient, checksummed, readRecipient, RecipientError, type Recipient, type RecipientProblem, type RefusedRecipients } from "./recipient.js";
export type Token = RegistryComponents["schemas"]["Token"];
export type RevealRequest = RelayerComponents["schemas"]["RevealRequest"];
export type RevealResult = RelayerComponents["schemas"]["RevealResult"];
export type RevealStatus = RelayerComponents["schemas"]["RevealStatus"];
export type Claim = FaucetComponents["schemas"]["Claim"];
export type IndexedEvent = IndexerComponents["schemas"]["Event"];

/** Every code a vaultd service answers with, from each OpenAPI document's Error.code enum. */
export type ErrorCode =
  | RegistryComponents["schemas"]["Error"]["code"]
  | RelayerComponents["schemas"]["Error"]["code"]
  | FaucetComponents["schemas"]["Error"]["code"]
  | IndexerComponents["schemas"]["Error"]["code"];

/** Every service's error body: a message for people and a code to switch on. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  txHash?: string;
}

/**
 * A non-2xx answer of a vaultd service. `code` is the body's code (`RATE_LIMITED`,
 * `NULLIFIER_USED`, …; "UNKNOWN" when the body is not a vaultd error, from a proxy, say).
 * `requestId` (the answer's `X-Request-Id`) and `traceId` (its `traceresponse`'s trace) are what
 * an operator finds the request's log line and trace by: show them beside the error.
 */
export class VaultdError extends Error {
  readonly status: number;
  readonly code: ErrorCode | "UNKNOWN";
  readonly body: unknown;
  readonly requestId?: string;
  readonly traceId?: string;
  constructor(status: number, body: unknown, headers?: Headers) {
    const b = (body ?? {}) as Partial<ErrorBody>;
    super(`${status} ${b.code ?? "UNKNOWN"}: ${b.error ?? JSON.stringify(body)}`);
    this.name = "VaultdError";
    this.status = status;
    this.code = b.code ?? "UNKNOWN";
    this.body = body;
    this.requestId = headers?.get("X-Request-Id") ?? undefined;
    this.traceId = headers?.get("traceresponse")?.split("-")[1];
  }
}

/**
 * Why the relayer refused a reveal's sponsor's voucher (nothing was sent): `invalid` (not signed
 * by the sponsor's signer for this relayer's chain and vault, changed, or another card's: VOUCHER_INVALID),
 * `expired` (VOUCHER_EXPIRED), `allowance-low` (it allows less than the reveal may cost at the
 * relayer's fee cap: VOUCHER_ALLOWANCE_LOW), `used` (it paid for another reveal: VOUCHER_USED),
 * `revoked` (the sponsor pays for nothing any more: SPONSOR_REVOKED), `balance-low` (the
 * sponsor's balance is too low: SPONSOR_BALANCE_LOW), `not-accepted` (this relayer takes no
 * sponsors: SPONSORS_NOT_ACCEPTED).
 */
export type VoucherProblem = "invalid" | "expired" | "allowance-low" | "used" | "revoked" | "balance-low" | "not-accepted";

const voucherProblems: Record<string, [VoucherProblem, string]> = {
  VOUCHER_INVALID: ["invalid", "the sponsor's voucher is not valid here (not signed by the sponsor for this relayer's chain and vault, changed, or another card's)"],
  VOUCHER_EXPIRED: ["expired", "the sponsor's voucher has expired"],
  VOUCHER_ALLOWANCE_LOW: ["allowance-low", "the sponsor's voucher allows less than this reveal may cost"],
  VOUCHER_USED: ["used", "the sponsor's voucher has already paid for another reveal"],
  SPONSOR_REVOKED: ["revoked", "the sponsor no longer pays for reveals"],
  SPONSOR_BALANCE_LOW: ["balance-low", "the sponsor's balance is too low to pay for this reveal"],
  SPONSORS_NOT_ACCEPTED: ["not-accepted", "this relayer takes no sponsors' vouchers"],
};

/**
 * The relayer's refusal of a reveal's sponsor's voucher (revealAndWait with `voucher`): a
 * VaultdError (its status and code as answered) with the `problem` to switch on and a message
 * saying what it means. Nothing was sent: the card is unspent.
 */
export class VoucherError extends VaultdError {
  readonly problem: VoucherProblem;
  constructor(status: number, body: unknown, headers?: Headers) {
    super(status, body, headers);
    const [problem, meaning] = voucherProblems[this.code];
    this.name = "VoucherError";
    this.problem = problem;
    this.message = `${meaning} (${status} ${this.code}); nothing was sent`;
  }
}

/** The data of an openapi-fetch result, or a VaultdError for its error answer. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined || !result.response.ok) {
    throw new VaultdError(result.response.status, result.error, result.response.headers);
  }
  return result.data;
}

/**
 * What readRecipient and checkRecipient refuse as a card's recipient: the vault's address and
 * every token the registry lists. Throws a VaultdError when the registry does not answer (a page
 * may go on with the vault and the card's token: the relayer refuses the rest).
 */
export async function refusedRecipients(registry: Client<RegistryPaths>, vault: string): Promise<RefusedRecipients & { tokens: string[] }> {
  const list = ok(await registry.GET("/tokens", {}));
  return { vault, tokens: list.tokens.map((t) => t.address) };
}

/**
 * Whether an error refuses the recipient as the vault's or a token's address: checkRecipient's
 * RecipientError, or the relayer's 400 RECIPIENT_NOT_ALLOWED (which revealAndWait throws).
 */
export function isRecipientRefused(e: unknown): boolean {
  if (e instanceof RecipientError) return e.problem === "vault" || e.problem === "token";
  return e instanceof VaultdError && e.status === 400 && (e.code as string) === "RECIPIENT_NOT_ALLOWED";
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * What every request carries unless the caller's headers set it: a W3C `traceparent` starting a
 * trace (the services sample on their own policy whatever its flag says) and an `X-Request-Id`,
 * so that the request's trace and log line are found from either.
 */
function traceHeaders(request: Request): Request {
  if (!request.headers.has("traceparent")) request.headers.set("traceparent", `00-${randomHex(16)}-${randomHex(8)}-01`);
  if (!request.headers.has("X-Request-Id")) request.headers.set("X-Request-Id", randomHex(8));
  return request;
}

/** Base URLs of the services a web app talks to (any may be left out). */
export interface Endpoints {
  registry?: string;
  relayer?: string;
  faucet?: string;
  indexer?: string;
}

export interface Clients {
  registry: Client<RegistryPaths>;
  relayer: Client<RelayerPaths>;
  faucet: Client<FaucetPaths>;
  indexer: Client<IndexerPaths>;
}

/** Typed clients for each service (openapi-fetch: `clients.registry.GET("/tokens")`). */
export function createClients(endpoints: Endpoints, init?: { fetch?: typeof fetch; headers?: Record<string, string> }): Clients {
  const make = <P extends {}>(baseUrl?: string) => {
    const client = createClient<P>({ baseUrl: baseUrl ?? "", fetch: init?.fetch, headers: init?.headers });
    client.use({ onRequest: ({ request }) => traceHeaders(request) });
    return client;
  };
  return {
    registry: make<RegistryPaths>(endpoints.registry),
    relayer: make<RelayerPaths>(endpoints.relayer),
    faucet: make<FaucetPaths>(endpoints.faucet),
    indexer: make<IndexerPaths>(endpoints.indexer),
  };
}

/**
 * The commitment tree's leaves, in insertion order, from an indexer's CommitmentInserted
 * events (page by page): what the prover rebuilds the Merkle path from. `tree` keeps only one
 * tree's events (the vault's commitmentTree), when the indexer follows several.
 */
export async function leavesFromIndexer(indexer: Client<IndexerPaths>, tree?: string): Promise<string[]> {
  const read = newLeafRead();
  await readLeaves(indexer, tree, read);
  return read.leaves;
}

/** How far a reading of the leaves got: the leaves, and the position of the last event read. */
interface LeafRead {
  leaves: string[];
  block: number; // the last event's block (-1: none yet)
  logIndex: number;
}

function newLeafRead(): LeafRead {
  return { leaves: [], block: -1, logIndex: -1 };
}

/**
 * Reads on from where `read` got: the events from its last event's block, skipping those
 * already read, page by page. Throws when the events are not the leaves in order (a reorg
 * replaced what was read: the caller reads again from the start).
 */
async function readLeaves(indexer: Client<IndexerPaths>, tree: string | undefined, read: LeafRead): Promise<void> {
  let cursor: string | undefined;
  const fromBlock = Math.max(read.block, 0);
  for (;;) {
    const query = cursor ? { event: "CommitmentInserted" as const, limit: 10000, cursor } : { event: "CommitmentInserted" as const, limit: 10000, fromBlock };
    const page = ok(await indexer.GET("/api/indexer", { params: { query } }));
    for (const e of page.events) {
      if (e.blockNumber < read.block || (e.blockNumber === read.block && e.logIndex <= read.logIndex)) continue; // read already
      read.block = e.blockNumber;
      read.logIndex = e.logIndex;
      if (tree && e.address.toLowerCase() !== tree.toLowerCase()) continue;
      const args = e.args as { commitment: string; leafIndex: string };
      if (Number(args.leafIndex) !== read.leaves.length) {
        throw new Error(`the indexer's CommitmentInserted events out of order: leaf ${args.leafIndex} after ${read.leaves.length}`);
      }
      read.leaves.push(args.commitment);
    }
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

/**
 * The leaves as leavesFromIndexer reads them, once they include `leaf`: an indexer follows the
 * chain a block or two behind, so a card committed a moment ago may not be indexed yet. Polls
 * every `intervalMs` (250) for up to `timeoutMs` (30 s), then throws an Error saying so.
 */
export async function leavesIncluding(
  indexer: Client<IndexerPaths>,
  leaf: string,
  opts: { tree?: string; timeoutMs?: number; intervalMs?: number } = {},
): Promise<string[]> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  const want = leaf.toLowerCase();
  let read = newLeafRead(); // each poll reads on from the last event read, not the whole tree again
  for (;;) {
    try {
      await readLeaves(indexer, opts.tree, read);
    } catch {
      read = newLeafRead(); // a reorg replaced what was read: once more from the start
      await readLeaves(indexer, opts.tree, read);
    }
    const leaves = read.leaves;
    if (leaves.some((l) => l.toLowerCase() === want)) return leaves;
    if (Date.now() >= deadline) {
      throw new Error(`the indexer has ${leaves.length} leaves and not ${leaf}: is the card from this chain and vault, and is the indexer following it?`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 250));
  }
}

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
 */
export async function revealAndWait(
  relayer: Client<RelayerPaths>,
  request: RevealRequest,
  opts: { intervalMs?: number; unknownMs?: number; timeoutMs?: number; fee?: RevealFee; voucher?: Voucher } = {},
): Promise<RevealStatus> {
  const nullifier = nullifierOf(request);
  if (opts.fee && opts.voucher) throw new Error("a reveal is paid by a fee or by a sponsor's voucher, not both");
  if (opts.voucher) request = { ...request, voucher: opts.voucher };
  if (opts.fee) {
    const { fee } = opts;
    const q = fee.quote;
    if (BigInt(request.publicSignals[3]) !== feeBinding(request.recipient, fee.amount, fee.receiver)) {
      throw new FeeError("mismatch", `the request was not proved paying ${fee.amount} to ${fee.receiver} (prove it with this fee)`, q);
    }
    if (q.tokenAddress.toLowerCase() !== request.tokenAddress.toLowerCase() || BigInt(q.amount) !== BigInt(request.amount)) {
      throw new FeeError("mismatch", `the quote is for ${q.amount} of ${q.tokenAddress}, the request reveals ${request.amount} of ${request.tokenAddress}`, q);
    }
    request = { ...request, fee };
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  const sleep = () => new Promise((r) => setTimeout(r, opts.intervalMs ?? 1000));
  // post answers the final status, or undefined when the reveal is to be followed.
  const post = async (): Promise<RevealStatus | undefined> => {
    let res;
    try {
      res = await relayer.POST("/reveal", { body: request });
    } catch {
      return undefined; // the connection dropped: it may have been sent
    }
    if (res.response.ok && res.data) {
      const r = res.data;
      return { nullifier, state: r.success ? "mined" : "reverted", txHash: r.txHash, blockNumber: r.blockNumber, gasUsed: r.gasUsed };
    }
    const body = res.error as Partial<ErrorBody> | undefined;
    if (res.response.status === 504 || body?.code === "TX_REVERTED") return undefined; // the status says the rest
    if (opts.voucher && body?.code && body.code in voucherProblems) throw new VoucherError(res.response.status, res.error, res.response.headers);
    throw new VaultdError(res.response.status, res.error, res.response.headers);
  };
  const done = await post();
  if (done) return done;
  let unknownSince: number | undefined;
  for (;;) {
    let status: RevealStatus | undefined;
    try {
      const res = await relayer.GET("/reveal/{nullifier}", { params: { path: { nullifier } } });
      status = res.data;
    } catch {
      // the relayer is unreachable for now: ask again
    }
    if (status?.state === "mined" || status?.state === "reverted") return status;
    if (status?.state === "unknown") {
      unknownSince ??= Date.now();
      if (Date.now() - unknownSince >= (opts.unknownMs ?? 10_000)) {
        const again = await post();
        if (again) return again;
        unknownSince = undefined;
      }
    } else {
      unknownSince = undefined;
    }
    if (Date.now() >= deadline) throw new Error(`reveal ${nullifier}: no final state after ${opts.timeoutMs ?? 600_000} ms (last: ${status?.state ?? "no answer"})`);
    await sleep();
  }
}

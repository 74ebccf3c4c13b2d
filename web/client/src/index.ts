// @vaultd/client: typed clients of vaultd's services, generated from openapi/*.yaml (gen/ts) on
// openapi-fetch, with one error type for every service's {error, code} body.
import createClient, { type Client } from "openapi-fetch";
import type { paths as RegistryPaths, components as RegistryComponents } from "./gen/registry.js";
import type { paths as RelayerPaths, components as RelayerComponents } from "./gen/relayer.js";
import type { paths as FaucetPaths, components as FaucetComponents } from "./gen/faucet.js";
import type { paths as IndexerPaths, components as IndexerComponents } from "./gen/indexer.js";
import { RecipientError, type RefusedRecipients } from "./recipient.js";
import { ok, VaultdError } from "./errors.js";

export type { RegistryPaths, RelayerPaths, FaucetPaths, IndexerPaths };
export { CardError, cardLink, readCard, type CardInfo, type CardProblem, type Home, type Voucher } from "./card.js";
export { acceptQuote, feeBinding, FeeError, type FeeProblem, type Quote, type RevealFee } from "./fee.js";
export { ok, VaultdError, VoucherError, type ErrorBody, type ErrorCode, type VoucherProblem } from "./errors.js";
export { chooseRelayers, relayerApiMajor, relayerDirectory, relayerName, type Candidate, type ChooseOptions, type DropReason, type Payment, type RelayerChoice, type RelayerEntry, type RelayerStatus } from "./choice.js";
export { nullifierOf, quote, RelayersError, revealAndWait, type Attempt, type Prove, type Revealed, type RevealOptions } from "./reveal.js";
export { rpcChain, type ChainReader, type Spend } from "./chain.js";
export { checkRecipient, checksummed, readRecipient, RecipientError, type Recipient, type RecipientProblem, type RefusedRecipients } from "./recipient.js";
export type Token = RegistryComponents["schemas"]["Token"];
export type RevealRequest = RelayerComponents["schemas"]["RevealRequest"];
export type RevealResult = RelayerComponents["schemas"]["RevealResult"];
export type RevealStatus = RelayerComponents["schemas"]["RevealStatus"];
export type Claim = FaucetComponents["schemas"]["Claim"];
export type IndexedEvent = IndexerComponents["schemas"]["Event"];

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
 * every `intervalMs` (250) for up to `timeoutMs` (30 s), then throws an Error saying so. An
 * indexer that fails a moment (429, 5xx, the network) is asked again, less often the longer it
 * fails (up to every 5 s); still failing at the deadline, its error is thrown, not "not found".
 */
export async function leavesIncluding(
  indexer: Client<IndexerPaths>,
  leaf: string,
  opts: { tree?: string; timeoutMs?: number; intervalMs?: number } = {},
): Promise<string[]> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  const want = leaf.toLowerCase();
  const interval = opts.intervalMs ?? 250;
  let read = newLeafRead(); // each poll reads on from the last event read, not the whole tree again
  let failures = 0;
  let failed: unknown; // the indexer's error at the last poll
  for (;;) {
    try {
      await readLeaves(indexer, opts.tree, read);
      failures = 0;
      failed = undefined;
    } catch (e) {
      // A reorg replaced what was read, or the indexer is away a moment: from the start at the
      // next poll.
      read = newLeafRead();
      failures++;
      failed = e;
    }
    const leaves = read.leaves;
    if (!failed && leaves.some((l) => l.toLowerCase() === want)) return leaves;
    if (Date.now() >= deadline) {
      if (failed) throw failed;
      throw new Error(`the indexer has ${leaves.length} leaves and not ${leaf}: is the card from this chain and vault, and is the indexer following it?`);
    }
    const wait = failures > 0 ? Math.min(interval * 2 ** failures, 5_000) : interval;
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(wait, deadline - Date.now()))));
  }
}


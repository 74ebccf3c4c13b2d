// Choosing among a deployment's relayers (docs/choosing.md): each one's status (and quote, where
// the reveal pays a fee) asked at once, those that cannot take the reveal dropped with their
// reason, the rest ranked by fee with the first drawn at random near the cheapest.
import createClient, { type Client } from "openapi-fetch";
import type { paths as RegistryPaths, components as RegistryComponents } from "./gen/registry.js";
import type { paths as RelayerPaths, components as RelayerComponents } from "./gen/relayer.js";
import { acceptQuote, FeeError, type RevealFee } from "./fee.js";
import { connectionRefused, ok, VaultdError } from "./errors.js";

export type RelayerStatus = RelayerComponents["schemas"]["RelayerStatus"];
/** A relayer of the registry's directory (`GET /relayers.json`). */
export type DirectoryEntry = RegistryComponents["schemas"]["Relayer"];

/** A relayer to consider: its base URL, and its directory entry's name where it has one. */
export interface RelayerEntry {
  url: string;
  name?: string;
}

/**
 * The major version of the relayer's API this client was generated from (openapi/relayer.yaml's
 * `info.version`): a relayer of another major is dropped (`version`).
 */
export const relayerApiMajor = 1;

/** Why a relayer was not considered (docs/choosing.md's table). */
export type DropReason = "unreachable" | "chain" | "vault" | "version" | "paused" | "not-ready" | "runway" | "funding" | "quote" | "fee-cap";

/**
 * How the reveal is paid for: by the relayer's treasury, by a sponsor (the card's voucher), or
 * by a fee out of `amount` of `tokenAddress` (`partial`: less than the whole card), at most
 * `maxFee` base units.
 */
export type Payment =
  | { by: "treasury" }
  | { by: "sponsor" }
  | { by: "fee"; tokenAddress: string; amount: bigint | string; partial?: boolean; maxFee: bigint | string };

/** A relayer as considered: its status, its fee (a fee reveal's accepted quote), or why it was dropped. */
export interface Candidate {
  relayer: RelayerEntry;
  client: Client<RelayerPaths>;
  status?: RelayerStatus;
  /** The fee to prove and send the reveal with (a fee reveal only). */
  fee?: RevealFee;
  /** Its fee in the token's base units (0 for the treasury and a sponsor). */
  cost: bigint;
  dropped?: { reason: DropReason; detail: string };
}

/** The outcome of chooseRelayers: who to try, in order (the first is the choice), and who was dropped and why. */
export interface RelayerChoice {
  ranked: Candidate[];
  dropped: Candidate[];
  payment: Payment;
}

export interface ChooseOptions {
  /** The card's chain and vault: a relayer of another is dropped. */
  chainId: number;
  vault: string;
  payment: Payment;
  /** The fewest reveals a relayer's runway must still pay for (default 1). */
  minRunway?: number;
  /** How far above the cheapest fee a relayer may be and still be drawn first, in basis points (default 1000: 10 %). */
  marginBps?: number;
  /** How long each status and quote is waited for (default 3000 ms). */
  timeoutMs?: number;
  /** A number in [0, 1) (default Math.random): the draw among the cheapest. */
  random?: () => number;
  fetch?: typeof fetch;
}

/** The relayers the registry lists (`GET /relayers.json`), as chooseRelayers takes them. */
export async function relayerDirectory(registry: Client<RegistryPaths>): Promise<RelayerEntry[]> {
  const dir = ok(await registry.GET("/relayers.json", {}));
  return dir.relayers.map((r) => ({ url: r.url, name: r.name }));
}

/** A relayer's name where it has one, else its URL: what the caller is shown. */
export function relayerName(r: RelayerEntry): string {
  return r.name ?? r.url;
}

/**
 * Asks every relayer at once how it stands (and, for a fee, its quote), and ranks those that can
 * take the reveal: the cheapest first, drawn at random among those within `marginBps` of the
 * cheapest, then the rest of those, then the dearer by fee. Never throws for a relayer's
 * problem: it is in `dropped` with its reason.
 */
export async function chooseRelayers(relayers: (RelayerEntry | string)[], opts: ChooseOptions): Promise<RelayerChoice> {
  const entries = relayers.map((r) => (typeof r === "string" ? { url: r } : r));
  const considered = await Promise.all(entries.map((r) => consider(r, opts)));
  const kept = considered.filter((c) => !c.dropped).sort((a, b) => (a.cost < b.cost ? -1 : a.cost > b.cost ? 1 : 0));
  const random = opts.random ?? Math.random;
  if (kept.length > 0) {
    const limit = (kept[0].cost * BigInt(10_000 + (opts.marginBps ?? 1000))) / 10_000n;
    const near = kept.filter((c) => c.cost <= limit);
    for (let i = near.length - 1; i > 0; i--) { // Fisher–Yates
      const j = Math.floor(random() * (i + 1));
      [near[i], near[j]] = [near[j], near[i]];
    }
    kept.splice(0, near.length, ...near);
  }
  return { ranked: kept, dropped: considered.filter((c) => c.dropped), payment: opts.payment };
}

async function consider(relayer: RelayerEntry, opts: ChooseOptions): Promise<Candidate> {
  const client = createClient<RelayerPaths>({ baseUrl: relayer.url, fetch: opts.fetch });
  const c: Candidate = { relayer, client, cost: 0n };
  const drop = (reason: DropReason, detail: string) => {
    c.dropped = { reason, detail };
    return c;
  };
  const timeout = opts.timeoutMs ?? 3000;
  const pay = opts.payment;
  // The quote is asked beside the status, not after it: one round trip's wait for both.
  const quoted = pay.by === "fee"
    ? client.POST("/quote", { body: { tokenAddress: pay.tokenAddress, amount: String(pay.amount), partial: pay.partial ?? false }, signal: AbortSignal.timeout(timeout) })
    : undefined;
  quoted?.catch(() => {}); // read below, if the status keeps the relayer
  let status: RelayerStatus;
  try {
    status = ok(await client.GET("/status", { signal: AbortSignal.timeout(timeout) }));
  } catch (e) {
    const why = e instanceof VaultdError ? `its status answered ${e.message}`
      : connectionRefused(e) ? "the connection was refused"
      : e instanceof DOMException && e.name === "TimeoutError" ? `its status did not answer within ${timeout} ms`
      : e instanceof TypeError ? "it could not be reached" // a browser's fetch says no more
      : `its status did not answer (${String(e)})`;
    return drop("unreachable", why);
  }
  c.status = status;
  if (status.chainId !== opts.chainId) return drop("chain", `it serves chain ${status.chainId}, not ${opts.chainId}`);
  if (status.vault.toLowerCase() !== opts.vault.toLowerCase()) return drop("vault", `it sends to vault ${status.vault}, not ${opts.vault}`);
  const major = Number(status.apiVersion.split(".")[0]);
  if (major !== relayerApiMajor) return drop("version", `its API is ${status.apiVersion}, this client speaks ${relayerApiMajor}.x`);
  if (status.paused) return drop("paused", "an operator paused it");
  if (!status.ready) return drop("not-ready", `it is not ready (${status.notReady ?? "no reason given"})`);
  if (!status.runway) return drop("runway", "its wallet's balance is not read yet");
  const runway = Math.min(status.runway.reveals, status.runway.spendLimitReveals ?? Infinity);
  if (runway < (opts.minRunway ?? 1)) return drop("runway", `its wallet pays for ${runway} more reveals`);
  if (!status.funding.modes.includes(pay.by)) return drop("funding", `it takes ${status.funding.modes.join(", ")}, not ${pay.by}`);
  if (pay.by !== "fee") return c;
  try {
    const q = ok(await quoted!);
    c.fee = acceptQuote(q, pay.maxFee, pay);
    c.cost = BigInt(c.fee.amount);
  } catch (e) {
    if (e instanceof FeeError && e.problem === "too-high") return drop("fee-cap", `its fee, ${e.fee}, is above the ${BigInt(pay.maxFee)} accepted`);
    return drop("quote", `its quote: ${e instanceof Error ? e.message : String(e)}`);
  }
  return c;
}

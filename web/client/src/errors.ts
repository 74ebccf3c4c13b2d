// One error type for every vaultd service's {error, code} body, and the relayer's refusals of a
// sponsor's voucher.
import type { components as RegistryComponents } from "./gen/registry.js";
import type { components as RelayerComponents } from "./gen/relayer.js";
import type { components as FaucetComponents } from "./gen/faucet.js";
import type { components as IndexerComponents } from "./gen/indexer.js";

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

export const voucherProblems: Record<string, [VoucherProblem, string]> = {
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


// connectionRefused: whether a fetch failed before anything was sent (Node's ECONNREFUSED, or a
// name that did not resolve). A browser does not tell a refused connection from one dropped after
// the request: those are followed.
export function connectionRefused(e: unknown): boolean {
  for (let c: unknown = e; c instanceof Error; c = (c as { cause?: unknown }).cause) {
    const code = (c as { code?: string }).code;
    if (code === "ECONNREFUSED" || code === "ENOTFOUND") return true;
    const inner = (c as { errors?: unknown[] }).errors; // localhost's two addresses, each refused
    if (Array.isArray(inner) && inner.length > 0 && inner.every((x) => (x as { code?: string }).code === "ECONNREFUSED")) return true;
  }
  return false;
}

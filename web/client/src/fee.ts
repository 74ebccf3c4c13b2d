// A relayer's fee, paid out of the revealed tokens (the vault's revealWithFee): the quote asked
// for, accepted against what the person agreed to pay before anything is proved, and the binding
// the proof's signal [3] carries.
import { keccak_256 } from "@noble/hashes/sha3";
import type { components as RelayerComponents } from "./gen/relayer.js";

/** A relayer's signed fee quote (POST /quote); sent back as it is in the reveal's `fee.quote`. */
export type Quote = RelayerComponents["schemas"]["Quote"];
/** The `fee` of a reveal request: the fee, its receiver and the quote they come from. */
export type RevealFee = RelayerComponents["schemas"]["RevealFee"];

/**
 * Why a quote is not accepted: its fee is above what the person accepts (`too-high`), it has
 * expired (`expired`), or it is not for this reveal (`mismatch`: another token or amount, a
 * fee that is not less than the amount, no receiver). Nothing was proved or sent.
 */
export type FeeProblem = "too-high" | "expired" | "mismatch";

/** A quote refused before proving, and why (`problem`); `fee` is its fee in base units. */
export class FeeError extends Error {
  constructor(
    readonly problem: FeeProblem,
    detail: string,
    readonly quote: Quote,
  ) {
    super(`the relayer's fee: ${detail}`);
    this.name = "FeeError";
  }
  get fee(): bigint {
    return BigInt(this.quote.fee);
  }
}

const addressRe = /^0x[0-9a-fA-F]{40}$/;

/**
 * Accepts a relayer's quote for the reveal of `amount` of `tokenAddress` if its fee is at most
 * `maxFee` (base units of the token) and it has not expired: the `fee` to prove the reveal with
 * (Prover.prove's `fee`) and to send it with (revealAndWait's `fee`). Throws a FeeError
 * otherwise, before anything is proved.
 *
 * The quote's EIP-712 signature is not checked here (the relayer checks it is its own, and
 * refuses the reveal otherwise: 422 QUOTE_INVALID). A forged quote cannot take more than the
 * person accepted, nor redirect it: the proof binds the recipient, the fee and its receiver
 * together, and the vault pays exactly those.
 */
export function acceptQuote(quote: Quote, maxFee: bigint | string, reveal: { tokenAddress: string; amount: bigint | string }, now = Date.now()): RevealFee {
  const fee = BigInt(quote.fee);
  const amount = BigInt(reveal.amount);
  if (quote.tokenAddress.toLowerCase() !== reveal.tokenAddress.toLowerCase() || BigInt(quote.amount) !== amount) {
    throw new FeeError("mismatch", `the quote is for ${quote.amount} of ${quote.tokenAddress}, not ${amount} of ${reveal.tokenAddress}`, quote);
  }
  if (fee <= 0n || fee >= amount || !addressRe.test(quote.feeReceiver) || /^0x0{40}$/.test(quote.feeReceiver)) {
    throw new FeeError("mismatch", `a fee of ${quote.fee} to ${quote.feeReceiver} cannot be paid out of ${amount}`, quote);
  }
  if (fee > BigInt(maxFee)) {
    throw new FeeError("too-high", `${fee} is above the ${BigInt(maxFee)} accepted`, quote);
  }
  if (quote.expiresAt * 1000 <= now) {
    throw new FeeError("expired", `the quote expired at ${new Date(quote.expiresAt * 1000).toISOString()}: ask again`, quote);
  }
  return { amount: quote.fee, receiver: quote.feeReceiver, quote };
}

// The BN254 scalar field, which the binding is reduced into.
const scalarField = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/**
 * The public signal [3] of a reveal paying `fee` to `receiver`: keccak256 of abi.encode(recipient,
 * fee, receiver) reduced into the scalar field, as the vault's feeBinding computes it.
 */
export function feeBinding(recipient: string, fee: bigint | string, receiver: string): bigint {
  const word = (v: bigint | string) => BigInt(v).toString(16).padStart(64, "0");
  const data = word(recipient) + word(fee) + word(receiver);
  const bytes = new Uint8Array(96);
  for (let i = 0; i < 96; i++) bytes[i] = parseInt(data.slice(2 * i, 2 * i + 2), 16);
  let h = 0n;
  for (const b of keccak_256(bytes)) h = (h << 8n) | BigInt(b);
  return h % scalarField;
}

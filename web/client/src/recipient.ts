// Where a card's tokens go: an address a person pastes or scans from their wallet's QR code. A
// wallet shows its address bare, or as an EIP-681 link: `ethereum:<address>` (pay me), or, for a
// token, `ethereum:<token>@<chain>/transfer?address=<address>&uint256=<amount>`, where the
// recipient is the `address` parameter and the link's own address is the token's contract. A
// card redeemed to the vault or to a token contract is lost, so those are refused as recipients.
import { keccak_256 } from "@noble/hashes/sha3";

/**
 * Why a text is not a recipient, in the terms a page shows a person: not an address or a link
 * that reads (`malformed`), an address whose capitals do not match its checksum (`checksum`),
 * the zero address (`zero`), a name such as an ENS name rather than an address (`name`), a
 * payment link this reader does not understand (another function than transfer, another
 * parameter: `unsupported`), or the vault's or a registered token's address (`vault`, `token`),
 * where the tokens would be lost.
 */
export type RecipientProblem = "malformed" | "checksum" | "zero" | "name" | "unsupported" | "vault" | "token";

/** A text that cannot be a card's recipient, and why (`problem`). */
export class RecipientError extends Error {
  constructor(
    readonly problem: RecipientProblem,
    detail: string,
  ) {
    super(`recipient: ${detail}`);
    this.name = "RecipientError";
  }
}

/** A recipient read from a wallet's QR code or a pasted text. */
export interface Recipient {
  /** The address the tokens go to, EIP-55 checksummed. */
  address: string;
  /** `address`: a bare address; `payment`: ethereum:<address>; `transfer`: a token transfer's `address` parameter. */
  form: "address" | "payment" | "transfer";
  /** The chain the link names after `@`, if it does. */
  chainId?: number;
  /** For a transfer: the token contract the link asks to be paid in (never the recipient). */
  contract?: string;
}

/** The addresses a card must never be redeemed to: the vault's and every registered token's. */
export interface RefusedRecipients {
  vault: string;
  tokens: Iterable<string>;
}

const hexAddress = /^0x[0-9a-fA-F]{40}$/;
// Parameters a link may carry that do not change who is paid: fees, and the amount asked for.
const paymentKeys = new Set(["value", "gas", "gasLimit", "gasPrice"]);
const transferKeys = new Set(["address", "uint256", "gas", "gasLimit", "gasPrice"]);

/**
 * Reads the recipient of a bare address or an EIP-681 link (`ethereum:[pay-]<address>[@chain]`
 * with fee or value parameters, or a token's `…/transfer?address=<recipient>`), and, given
 * `refused`, refuses the vault's and the tokens' addresses. Throws a RecipientError for anything
 * else: other functions, ENS names, unknown parameters, a wrong checksum, the zero address.
 */
export function readRecipient(text: string, refused?: RefusedRecipients): Recipient {
  const r = parseRecipient(text.trim());
  if (refused) checkRecipient(r.address, refused);
  return r;
}

function parseRecipient(s: string): Recipient {
  if (!/^ethereum:/i.test(s)) return { address: address(s, "it"), form: "address" };
  const m = /^ethereum:(?:([A-Za-z0-9]+)-(?=0x))?([^@/?]*)(?:@([^/?]*))?(?:\/([^?]*))?(?:\?(.*))?$/i.exec(s);
  if (!m) throw new RecipientError("malformed", "not a payment link that reads");
  const [, prefix, target, chain, fn, query] = m;
  if (prefix !== undefined && prefix.toLowerCase() !== "pay") throw new RecipientError("unsupported", `a link of the kind "${prefix}-", not a payment`);
  let chainId: number | undefined;
  if (chain !== undefined) {
    chainId = /^[0-9]{1,15}$/.test(chain) ? Number(chain) : 0;
    if (!(chainId > 0)) throw new RecipientError("malformed", "its chain is not a chain id");
  }
  const params = new Map<string, string>();
  for (const pair of query ? query.split("&") : []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new RecipientError("malformed", "a parameter without a value");
    const key = pair.slice(0, eq);
    if (params.has(key)) throw new RecipientError("malformed", `the parameter ${key} twice`);
    try {
      params.set(key, decodeURIComponent(pair.slice(eq + 1)));
    } catch {
      throw new RecipientError("malformed", `the parameter ${key} is not escaped properly`);
    }
  }
  const only = (allowed: Set<string>, what: string) => {
    for (const key of params.keys()) if (!allowed.has(key)) throw new RecipientError("unsupported", `${what} with a parameter "${key}" this page does not understand`);
  };
  const at = chainId === undefined ? {} : { chainId };
  if (fn === undefined) {
    only(paymentKeys, "a payment link");
    return { address: address(target, "its address"), form: "payment", ...at };
  }
  if (fn !== "transfer") throw new RecipientError("unsupported", `a link that calls "${fn}", not a payment or a transfer`);
  only(transferKeys, "a transfer");
  const to = params.get("address");
  if (to === undefined) throw new RecipientError("unsupported", "a transfer that names no recipient (no address parameter)");
  return { address: address(to, "its recipient"), form: "transfer", contract: address(target, "its token"), ...at };
}

/**
 * Refuses the vault's and the registered tokens' addresses as a recipient (compared without
 * regard to case), with a RecipientError whose problem is `vault` or `token`.
 */
export function checkRecipient(recipient: string, refused: RefusedRecipients): void {
  const a = recipient.toLowerCase();
  if (a === refused.vault.toLowerCase()) throw new RecipientError("vault", "that is the vault's address: what is sent there is lost");
  for (const t of refused.tokens) {
    if (a === t.toLowerCase()) throw new RecipientError("token", `that is the address of a token's contract (${checksummed(t)}), not a wallet: what is sent there is lost`);
  }
}

// address reads 0x and 40 hex digits, checksummed when its letters are of both cases (EIP-55).
function address(v: string, what: string): string {
  if (!hexAddress.test(v)) {
    if (/^[^\s/?#@]+\.[a-z]{2,}$/i.test(v) && !v.startsWith("0x")) throw new RecipientError("name", `${what} is a name (${v}), not an address: paste the address it stands for`);
    throw new RecipientError("malformed", `${what} is not an address (0x and 40 hex digits)`);
  }
  const sum = checksummed(v);
  const digits = v.slice(2);
  if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase() && v !== sum) {
    throw new RecipientError("checksum", `${what} has a typo: its capital letters (its checksum) do not match`);
  }
  if (/^0x0{40}$/.test(v)) throw new RecipientError("zero", `${what} is the zero address: nobody can spend what is sent to it`);
  return sum;
}

/** An address with its EIP-55 checksum. */
export function checksummed(a: string): string {
  const lower = a.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}

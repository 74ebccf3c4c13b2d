// Cards as people hold them: a card string, or a link to an app's redeem page with the card in
// the URL's fragment (which browsers never send to a server nor put in a Referer), with the
// sponsor's voucher that pays for its reveal when it carries one. The same format as
// service/vault/card/note (Go): both read the vectors of its testdata/links.json.

import { poseidon1 } from "poseidon-lite/poseidon1";
import { poseidon2 } from "poseidon-lite/poseidon2";
import { poseidon3 } from "poseidon-lite/poseidon3";
import type { components as RelayerComponents } from "./gen/relayer.js";

/**
 * A relayer sponsor's voucher, as POST /reveal takes it (revealAndWait's `voucher`): the
 * sponsor's promise to pay for one reveal, up to `allowance` wei, until `expiresAt` (unix
 * seconds), signed by its voucher signer.
 */
export type Voucher = RelayerComponents["schemas"]["Voucher"];

/** The chain and vault an app serves: a card link leaves them out, and reading one fills them in. */
export interface Home {
  chainId: number;
  vault: string;
}

/**
 * What is wrong with a card, in the terms a page shows a person: not a card (or not one this
 * version reads), cut short (part of its secrets missing: a link not wholly copied, a QR code
 * not wholly read), or for another chain or vault than the app's.
 */
export type CardProblem = "malformed" | "truncated" | "other-chain" | "other-vault";

/** A card that cannot be redeemed here, and why (`problem`). */
export class CardError extends Error {
  constructor(
    readonly problem: CardProblem,
    detail: string,
  ) {
    super(`card: ${detail}`);
    this.name = "CardError";
  }
}

/** A card read from a link or a string: the whole card string (what the prover takes), and its public fields. */
export interface CardInfo {
  card: string; // vaultd-card:v1?chain=…&vault=…&token=…&amount=…[&voucher=…]&secret=…&nullifier=…
  chainId: number;
  vault: string;
  token: string;
  amount: bigint;
  /**
   * The card's public nullifier, Poseidon(nullifier secret) (circomlib's, as service/vault/zk):
   * what the vault's isSpent takes, so a page tells a card already redeemed without the prover.
   */
  nullifier: string;
  /**
   * The tree leaf its deposit inserted, Poseidon(Poseidon(secret, nullifier secret), amount,
   * tokenId) with tokenId = Poseidon(token, chainId) (service/vault/zk's Leaf): what a page asks
   * the indexer's tree for while the prover downloads.
   */
  leaf: string;
  /**
   * The sponsor's voucher the card carries (its link's `voucher` field), ready to send with its
   * reveal (revealAndWait's `voucher`): the sponsor pays, not the person. Its id is the card's
   * nullifier, which the link need not carry.
   */
  voucher?: Voucher;
}

const scheme = "vaultd-card";
const prefix = `${scheme}:v1?`;
const hex64 = /^0x[0-9a-fA-F]{64}$/;
const hexPrefix = /^0(x[0-9a-fA-F]*)?$/;
const address = /^0[xX][0-9a-fA-F]{40}$/;
// The BN254 scalar field: a secret is below it.
const scalarField = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
const maxAmount = (1n << 248n) - 1n;

/**
 * Reads a card from a link (anything before a `#` is an app's address, and ignored) or from a
 * card string, filling in the chain and vault from `home` where the card leaves them out. Throws
 * a CardError for a card cut short, not a card, or one for another chain or vault than home's.
 */
export function readCard(text: string, home?: Home): CardInfo {
  const p = parse(text, home);
  const tokenId = poseidon2([BigInt(p.token), BigInt(p.chainId)]);
  const leaf = poseidon3([poseidon2([BigInt(p.secret), BigInt(p.nullifier)]), p.amount, tokenId]);
  const nullifier = hex(poseidon1([BigInt(p.nullifier)]), 64);
  const info: CardInfo = { card: render(p), chainId: p.chainId, vault: p.vault, token: p.token, amount: p.amount, nullifier, leaf: hex(leaf, 64) };
  if (p.voucher) info.voucher = { ...readVoucher(p.voucher), id: nullifier };
  return info;
}

// parse reads a card into its parts (readCard).
function parse(text: string, home?: Home): Parts {
  let s = text.trim();
  const hash = s.indexOf("#");
  if (hash >= 0) s = s.slice(hash + 1);
  if (s.includes("%")) {
    try {
      s = decodeURIComponent(s); // a scanner or a mail client that escaped the fragment
    } catch {
      // not escaped after all: read as it is
    }
  }
  if (s === "" || (s.length < prefix.length && prefix.startsWith(s))) throw new CardError("truncated", "only the start of a card is here");
  if (s.startsWith(`${scheme}:`) && !s.startsWith(prefix)) throw new CardError("malformed", "a card of another version than v1: this app cannot read it");
  if (!s.startsWith(prefix)) throw new CardError("malformed", `not a vaultd card (want ${prefix}…)`);
  const q = new URLSearchParams(s.slice(prefix.length));
  const get = (k: string) => q.get(k) ?? "";

  let chainId = home?.chainId ?? 0;
  if (get("chain") !== "") {
    chainId = /^[0-9]{1,20}$/.test(get("chain")) ? Number(get("chain")) : 0;
    if (!(chainId > 0) || !Number.isSafeInteger(chainId)) throw new CardError("malformed", "its chain is not a chain id");
  }
  let vault = home?.vault ?? "";
  if (get("vault") !== "") {
    if (!address.test(get("vault"))) throw field(get("vault"), 40, "vault");
    vault = get("vault");
  }
  if (!chainId || !vault) throw new CardError("malformed", "it leaves out its chain or vault: open it in the app it was made for");
  const token = get("token");
  if (!address.test(token)) throw field(token, 40, "token");
  const amountText = get("amount");
  if (amountText === "") throw new CardError("truncated", "its amount is missing");
  const amount = /^[0-9]{1,78}$/.test(amountText) ? BigInt(amountText) : 0n;
  if (amount <= 0n || amount > maxAmount) throw new CardError("malformed", "its amount is not a whole number of base units");
  const secrets: string[] = [];
  for (const name of ["secret", "nullifier"]) {
    const v = get(name);
    if (!hex64.test(v)) throw field(v, 64, name);
    const n = BigInt(v);
    if (n <= 0n || n >= scalarField) throw new CardError("malformed", `its ${name} is out of range`);
    secrets.push(hex(n, 64));
  }
  const voucher = get("voucher");
  if (voucher !== "") readVoucher(voucher); // throws for one that does not read
  if (home?.chainId && chainId !== home.chainId) throw new CardError("other-chain", `it is for chain ${chainId}, and this is chain ${home.chainId}`);
  if (home?.vault && vault.toLowerCase() !== home.vault.toLowerCase()) throw new CardError("other-vault", `it is for the vault ${vault}, and this is the vault ${home.vault}`);
  return { chainId, vault, token, amount, secret: secrets[0], nullifier: secrets[1], voucher: voucher || undefined };
}

/**
 * The card as a link to the redeem page at `base` (https://app.example/redeem), the card in the
 * fragment, its chain and vault left out where they are home's: a shorter link, a smaller QR code.
 */
export function cardLink(card: string, base: string, home: Home): string {
  return `${base}#${render(parse(card), home)}`;
}

interface Parts {
  chainId: number;
  vault: string;
  token: string;
  amount: bigint;
  secret: string;
  nullifier: string;
  voucher?: string; // the voucher field as the card carries it
}

function render(p: Parts, home?: Home): string {
  let s = prefix;
  if (p.chainId !== home?.chainId) s += `chain=${p.chainId}&`;
  if (p.vault.toLowerCase() !== home?.vault.toLowerCase()) s += `vault=${p.vault}&`;
  s += `token=${p.token}&amount=${p.amount}&`;
  if (p.voucher) s += `voucher=${p.voucher}&`;
  return `${s}secret=${p.secret}&nullifier=${p.nullifier}`;
}

// The voucher field (docs/cards.md) is base64url, without padding, of the sponsor's id's 16 bytes,
// the expiry (5 bytes, big-endian unix seconds), the signature's r ‖ s with v in s's top bit
// (EIP-2098, 64 bytes) and the allowance (the rest: 1 to 32 bytes, big-endian, no leading zero).
const voucherFixed = 16 + 5 + 64;
const base64url = /^[A-Za-z0-9_-]+$/;

// readVoucher reads a voucher field into the relayer's form, but for its id (the card's nullifier).
function readVoucher(text: string): Omit<Voucher, "id"> {
  const b = base64url.test(text) && text.length % 4 !== 1 ? fromBase64url(text) : undefined;
  if (!b || b.length <= voucherFixed || b.length > voucherFixed + 32 || b[voucherFixed] === 0) {
    throw new CardError("malformed", "its sponsor's voucher does not read");
  }
  const bytesHex = (u: Uint8Array) => Array.from(u, (x) => x.toString(16).padStart(2, "0")).join("");
  const sig = b.slice(21, 85);
  const v = 27 + (sig[32] >> 7);
  sig[32] &= 0x7f;
  let expiresAt = 0;
  for (const x of b.subarray(16, 21)) expiresAt = expiresAt * 256 + x;
  return {
    sponsor: `sp_${bytesHex(b.subarray(0, 16))}`,
    allowance: BigInt(`0x${bytesHex(b.subarray(voucherFixed))}`).toString(),
    expiresAt,
    signature: `0x${bytesHex(sig)}${v.toString(16)}`,
  };
}

function fromBase64url(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function hex(n: bigint, digits: number): string {
  return "0x" + n.toString(16).padStart(digits, "0");
}

// field is the problem of a hex field that does not read: cut short when what is there is the
// start of 0x and `digits` hex digits (or nothing), malformed otherwise.
function field(v: string, digits: number, name: string): CardError {
  if (v === "" || (hexPrefix.test(v) && v.length < 2 + digits)) return new CardError("truncated", `its ${name} is cut short`);
  return new CardError("malformed", `its ${name} is not ${digits} hex digits`);
}

// What the redeem page needs of a chain and a wallet, small: a phone fetches every byte of the
// page before its first proof, and viem's public client and accounts were a third of it
// (docs/client.md). The journey page (app.ts) keeps viem.
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
import { bytesToHex } from "@noble/hashes/utils";
import { checksummed } from "@vaultd/client";

/** An eth_call's answer as a number (isSpent's bool, balanceOf's amount), from the node at rpcUrl. */
export async function ethCall(rpcUrl: string, to: string, data: string): Promise<bigint> {
  const r = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to, data }, "latest"] }),
  });
  if (!r.ok) throw new Error(`the chain's node answered ${r.status}`);
  const a = (await r.json()) as { result?: string; error?: { message?: string } };
  if (a.error || a.result === undefined) throw new Error(`the chain's node: ${a.error?.message ?? "no result"}`);
  return BigInt(a.result === "0x" ? "0x0" : a.result);
}

/** amount in base units as a decimal number of decimals places, without trailing zeros. */
export function formatUnits(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

let tableBuilt = false;

/**
 * A new wallet's key (0x and 64 hex digits, from crypto.getRandomValues, drawn again in the
 * never-met case it is not a valid secp256k1 key) and its EIP-55 address.
 */
export function newWallet(): { key: string; address: string } {
  // The generator's table for windows of 4 bits (520 points) rather than noble's default of 8
  // (4,224): a page makes one key, and the larger table took 50-90 ms of a desktop's CPU to
  // build, ~4 times that on a phone, while its prover loads.
  if (!tableBuilt) secp256k1.utils.precompute(4);
  tableBuilt = true;
  for (;;) {
    const key = crypto.getRandomValues(new Uint8Array(32));
    if (!secp256k1.utils.isValidPrivateKey(key)) continue;
    return { key: `0x${bytesToHex(key)}`, address: addressOf(key) };
  }
}

// addressOf is the address of a secp256k1 private key: the last 20 bytes of keccak256 of its
// public key.
function addressOf(key: Uint8Array): string {
  const pub = secp256k1.getPublicKey(key, false).subarray(1); // x ‖ y, without the 0x04 prefix
  return checksummed(`0x${bytesToHex(keccak_256(pub).subarray(12))}`);
}

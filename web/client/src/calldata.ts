// Calldata of the two transactions a wallet sends to put a card's tokens into the vault, of the
// reveal a wallet sends itself when no relayer will, and of the calls a page makes to read a
// balance and whether a card was redeemed.

const word = (v: bigint): string => v.toString(16).padStart(64, "0");
const addressWord = (a: string): string => {
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new Error(`not an address: ${a}`);
  return a.slice(2).toLowerCase().padStart(64, "0");
};

/** ERC-20 approve(spender, amount): the vault may take the card's amount. */
export function approveCalldata(spender: string, amount: bigint): `0x${string}` {
  return `0x095ea7b3${addressWord(spender)}${word(amount)}`;
}

/** The vault's commit(token, amount, commitment). */
export function commitCalldata(token: string, amount: bigint, commitment: string): `0x${string}` {
  return `0x64fc31b3${addressWord(token)}${word(amount)}${word(BigInt(commitment))}`;
}

/** ERC-20 balanceOf(owner), for eth_call. */
export function balanceOfCalldata(owner: string): `0x${string}` {
  return `0x70a08231${addressWord(owner)}`;
}

/** The vault's isSpent(nullifier), for eth_call: whether a card was redeemed (true once its reveal is mined). */
export function isSpentCalldata(nullifier: string): `0x${string}` {
  return `0xe5285dcc${word(BigInt(nullifier))}`;
}

/** A snarkjs proof as a reveal request carries it: decimal field elements, projective (z last). */
interface ProofJSON {
  pi_a: string[];
  pi_b: string[][];
  pi_c: string[];
}

/**
 * The vault's reveal(pA, pB, pC, pubSignals, recipient) of a request proved without a fee: what a
 * recipient's own wallet sends when no relayer will (the same proof; they pay the gas). The G2
 * point's coordinates go in the contract's order, each pair's imaginary part first.
 */
export function revealCalldata(request: { proof: ProofJSON; publicSignals: string[]; recipient: string }): `0x${string}` {
  const { pi_a: a, pi_b: b, pi_c: c } = request.proof;
  const words = [a[0], a[1], b[0][1], b[0][0], b[1][1], b[1][0], c[0], c[1], ...request.publicSignals].map((v) => word(BigInt(v)));
  if (words.length !== 14) throw new Error(`a reveal has 6 public signals, not ${request.publicSignals.length}`);
  return `0x14590546${words.join("")}${addressWord(request.recipient)}`;
}

// Calldata of the two transactions a wallet sends to put a card's tokens into the vault, and of the
// calls a page makes to read a balance and whether a card was redeemed.

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

// What the browser tests read of the dev chain themselves, to check what a page says: a JSON-RPC
// call, and a token balance.

/** A JSON-RPC caller on the node at rpcUrl: rpc(method, params) answers the result, or throws its error. */
export function rpcAt(rpcUrl) {
  return async (method, params) => {
    const r = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) }).then((r) => r.json());
    if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
}

/** owner's balance of the ERC-20 token at tokenAddress (balanceOf), through rpc. */
export async function balanceOf(rpc, tokenAddress, owner) {
  return BigInt(await rpc("eth_call", [{ to: tokenAddress, data: "0x70a08231" + owner.slice(2).toLowerCase().padStart(64, "0") }, "latest"]));
}

// What revealAndWait reads of the chain itself when a relayer may have sent a reveal and does not
// say: whether the vault spent the nullifier, and how far the chain has gone since.
import { keccak_256 } from "@noble/hashes/sha3";

/** A nullifier's spend on chain: the transaction that spent it, and its block. */
export interface Spend {
  txHash: string;
  blockNumber: number;
}

/** What a client reads of the chain to learn a reveal's outcome without its relayer. */
export interface ChainReader {
  /** The newest block's number. */
  head(): Promise<number>;
  /** The spend of `nullifier` (0x and 64 hex digits) from `fromBlock` on, or undefined. */
  spent(nullifier: string, fromBlock: number): Promise<Spend | undefined>;
}

// topic0 of the vault's NullifierSpent(bytes32 indexed nullifier).
const nullifierSpentTopic = "0x" + Array.from(keccak_256(new TextEncoder().encode("NullifierSpent(bytes32)")), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * A ChainReader on a node's JSON-RPC at `rpcUrl`: eth_blockNumber, and the vault's NullifierSpent
 * logs filtered by the nullifier (one small eth_getLogs).
 */
export function rpcChain(rpcUrl: string, vault: string, init?: { fetch?: typeof fetch }): ChainReader {
  const call = async <T>(method: string, params: unknown[]): Promise<T> => {
    const r = await (init?.fetch ?? fetch)(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    if (!r.ok) throw new Error(`the chain's node answered ${r.status} to ${method}`);
    const a = (await r.json()) as { result?: T; error?: { message?: string } };
    if (a.error || a.result === undefined) throw new Error(`the chain's node, ${method}: ${a.error?.message ?? "no result"}`);
    return a.result;
  };
  return {
    head: async () => Number(await call<string>("eth_blockNumber", [])),
    spent: async (nullifier, fromBlock) => {
      const logs = await call<{ transactionHash: string; blockNumber: string }[]>("eth_getLogs", [
        { address: vault, fromBlock: "0x" + Math.max(fromBlock, 0).toString(16), toBlock: "latest", topics: [nullifierSpentTopic, nullifier.toLowerCase()] },
      ]);
      const log = logs[0];
      return log ? { txHash: log.transactionHash, blockNumber: Number(log.blockNumber) } : undefined;
    },
  };
}

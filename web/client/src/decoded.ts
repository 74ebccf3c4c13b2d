// The proving key's points as the point module keeps them once decoded (points.ts), kept in the
// page's Cache Storage after a first proof, so that a later load copies them into its workers
// rather than taking a square root of each compressed point again (docs/prover.md, "The key's
// points kept decoded"). A copy is used only if its sha256 is the one the build pinned for the
// package's own key (pinned.gen.ts's decodedPoints, scripts/assets.mjs's decodeKey); another
// key (a ceremony's, given by Prover.load's assets) has no such pin and is decoded every load.
// Storage refused, full or failing: the points are decoded, as on a first visit.
import { decodedPoints, pinned } from "./pinned.gen.js";
import { decodedPointsUrl, sha256Hex, type ProverAssets } from "./runtime.js";
import type { Dealer } from "./share.js";

const own = (assets: ProverAssets) => assets.sha256.sectionedKey.toLowerCase() === pinned.sectionedKey;

/** The key's decoded points from the cache, if it holds the pinned copy (a copy that is not is dropped). */
export async function decodedPointsFrom(assets: ProverAssets, cache?: Cache): Promise<Uint8Array | undefined> {
  if (!cache || !own(assets)) return undefined;
  const url = decodedPointsUrl(assets);
  try {
    const hit = await cache.match(url);
    if (!hit) return undefined;
    const data = new Uint8Array(await hit.arrayBuffer());
    if (data.length === decodedPoints.size && (await sha256Hex(data)) === decodedPoints.sha256) return data;
    await cache.delete(url);
  } catch {
    // unreadable: decoded from the key
  }
  return undefined;
}

/** Keeps the points dealer's workers decoded in the cache, if they are the pinned ones: answers whether it did. */
export async function keepDecodedPoints(dealer: Dealer, assets: ProverAssets, cache: Cache): Promise<boolean> {
  if (!own(assets)) return false;
  try {
    const data = await dealer.held();
    if (!data || data.length !== decodedPoints.size || (await sha256Hex(data)) !== decodedPoints.sha256) return false;
    const headers = { "content-type": "application/octet-stream", "content-length": String(data.length) };
    await cache.put(decodedPointsUrl(assets), new Response(data as BodyInit, { headers }));
    return true;
  } catch {
    // a full quota, a failed write, a worker stopped: decoded again next time
    return false;
  }
}

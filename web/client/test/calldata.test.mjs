// The vault's reveal calldata a wallet sends itself when no relayer will: the same bytes as the Go
// card tool's RevealCalldata for the committed proof (service/vault/card/testdata/revealcalldata.json,
// checked by TestRevealCalldataVector).
//   npm test (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { revealCalldata } from "../dist/prover.js";

const read = (path) => JSON.parse(readFileSync(new URL(`../../../service/${path}`, import.meta.url), "utf8"));

test("revealCalldata writes what the Go card tool writes", () => {
  const vector = read("vault/card/testdata/revealcalldata.json");
  const request = { proof: read("vault/zk/testdata/gnark/proof.json"), publicSignals: read("vault/zk/testdata/gnark/public.json"), recipient: vector.recipient };
  assert.equal(revealCalldata(request), vector.calldata);
  assert.throws(() => revealCalldata({ ...request, publicSignals: request.publicSignals.slice(1) }), /6 public signals/);
});

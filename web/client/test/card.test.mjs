// readCard and cardLink against the vectors the Go reader (service/vault/card/note) is tested on:
// the same links and strings read as the same cards, or fail with the same problem; a card's
// nullifier and leaf (Poseidon hashes computed here without the prover) are the ones Go computes;
// a card's sponsor's voucher is the one Go reads (the relayer's form, its id the nullifier), and
// a card without one has none.
//   npm test (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CardError, cardLink, readCard } from "../dist/index.js";

const doc = JSON.parse(readFileSync(new URL("../../../service/vault/card/note/testdata/links.json", import.meta.url), "utf8"));

for (const c of doc.cases) {
  test(c.name, () => {
    const home = c.home ? doc.home : undefined;
    if (!c.want) {
      assert.throws(() => readCard(c.input, home), (e) => e instanceof CardError && e.problem === c.problem, `want the problem ${c.problem}`);
      return;
    }
    const got = readCard(c.input, home);
    assert.equal(got.card, c.want.card);
    assert.deepEqual([got.chainId, got.vault, got.token, got.amount], [c.want.chainId, c.want.vault, c.want.token, BigInt(c.want.amount)]);
    assert.equal(got.nullifier, c.want.nullifier);
    assert.equal(got.leaf, c.want.leaf);
    assert.deepEqual(got.voucher, c.want.voucher);
    const link = cardLink(got.card, doc.base, doc.home);
    assert.equal(link, c.want.link);
    assert.equal(readCard(link, doc.home).card, got.card);
  });
}

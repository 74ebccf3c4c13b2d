// readRecipient against the vectors of recipients.json (wallets' QR codes and pasted texts: a
// bare address, EIP-681 payment and token-transfer links), checkRecipient, and the relayer's
// refusal of the same recipients (400 RECIPIENT_NOT_ALLOWED) told apart from other errors.
//   npm test (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkRecipient, checksummed, isRecipientRefused, readRecipient, RecipientError, VaultdError } from "../dist/index.js";

const doc = JSON.parse(readFileSync(new URL("./recipients.json", import.meta.url), "utf8"));
const [token] = doc.refused.tokens;

for (const c of doc.cases) {
  test(c.name, () => {
    if (!c.want) {
      assert.throws(() => readRecipient(c.input, doc.refused), (e) => e instanceof RecipientError && e.problem === c.problem, `want the problem ${c.problem}`);
      return;
    }
    assert.deepEqual({ ...readRecipient(c.input, doc.refused) }, c.want);
  });
}

test("without the refused addresses, a token's address reads as an address", () => {
  assert.equal(readRecipient(`ethereum:${token}`).address, token);
});

test("checkRecipient refuses the vault and the tokens, in any case, and nothing else", () => {
  const problem = (a) => {
    try {
      checkRecipient(a, doc.refused);
      return "";
    } catch (e) {
      assert.ok(isRecipientRefused(e));
      return e.problem;
    }
  };
  assert.equal(problem(doc.refused.vault.toUpperCase().replace("0X", "0x")), "vault");
  assert.equal(problem(token.toLowerCase()), "token");
  assert.equal(problem("0xa8049bB68181799124F98E467DD749e120abFA64"), "");
});

test("the relayer's RECIPIENT_NOT_ALLOWED is a refusal of the recipient; other codes are not", () => {
  const err = (status, code) => new VaultdError(status, { error: "…", code });
  assert.ok(isRecipientRefused(err(400, "RECIPIENT_NOT_ALLOWED")));
  assert.ok(!isRecipientRefused(err(422, "INVALID_RECIPIENT")));
  assert.ok(!isRecipientRefused(new RecipientError("checksum", "…")));
  assert.ok(!isRecipientRefused(new Error("RECIPIENT_NOT_ALLOWED")));
});

test("checksummed is EIP-55's", () => {
  // EIP-55's own examples.
  for (const a of ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"]) {
    assert.equal(checksummed(a.toLowerCase()), a);
  }
});

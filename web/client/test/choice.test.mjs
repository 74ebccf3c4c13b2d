// The relayer choice's fixed parts: the API major a relayer must speak is the one the client was
// generated from. Choosing and failing over against real relayers is choice-smoke.mjs's (run by
// .ci/ts-smoke on a devstack of three).
//   npm test (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relayerApiMajor } from "../dist/index.js";

test("relayerApiMajor is the major of openapi/relayer.yaml's info.version", () => {
  const doc = readFileSync(new URL("../../../openapi/relayer.yaml", import.meta.url), "utf8");
  const version = /^info:\n(?:  .*\n)*?  version: ([0-9]+)\.[0-9]+\.[0-9]+$/m.exec(doc);
  assert.ok(version, "openapi/relayer.yaml has no info.version");
  assert.equal(relayerApiMajor, Number(version[1]));
});

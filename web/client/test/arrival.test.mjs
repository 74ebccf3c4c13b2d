// When the prover asks for the proving key: once the wasm's last bytes are about a round trip
// away (nearlyArrived), so the key's request travels while they arrive. Needs the built package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { minRateMs, nearlyArrived } from "../dist/key.js";

test("a download is nearly arrived once what is left takes no longer than its request's round trip", () => {
  // Its request answered in 600 ms, then 100 bytes a ms; 120,000 bytes in all.
  const watch = nearlyArrived(() => 600);
  assert.equal(watch(5_000, 120_000, 600), false, "the first report: no rate yet");
  assert.equal(watch(45_000, 120_000, 1_000), false, "750 ms left, against a round trip of 600 ms");
  assert.equal(watch(55_000, 120_000, 1_100), false, "650 ms left");
  assert.equal(watch(60_000, 120_000, 1_150), true, "600 ms left");
});

test("a download whose size or round trip is unknown is arrived only once it has all arrived", () => {
  let roundTrip;
  const watch = nearlyArrived(() => roundTrip);
  assert.equal(watch(1_000, 100_000, 100), false);
  assert.equal(watch(99_000, 100_000, 1_000), false, "the request's answer not yet seen");
  assert.equal(watch(100_000, 100_000, 1_010), true);
  roundTrip = 500;
  const unsized = nearlyArrived(() => roundTrip);
  assert.equal(unsized(1_000, undefined, 100), false);
  assert.equal(unsized(99_000, undefined, 10_000), false);
});

test("a download wholly arrived at its first report is arrived", () => {
  assert.equal(nearlyArrived(() => undefined)(100_000, 100_000, 50), true);
});

test("a fast network asks for the next download only at the very end", () => {
  // A round trip of 20 ms, then 1,000 bytes a ms.
  const watch = nearlyArrived(() => 20);
  assert.equal(watch(10_000, 1_000_000, 20), false);
  assert.equal(watch(10_000 + 1_000 * 950, 1_000_000, 970), false, "40 ms left");
  assert.equal(watch(10_000 + 1_000 * 970, 1_000_000, 990), true, "20 ms left");
});

test("reports close together give no rate: a burst is not a fast network", () => {
  const watch = nearlyArrived(() => 600);
  assert.equal(watch(5_000, 1_000_000, 1_000), false);
  assert.equal(watch(50_000, 1_000_000, 1_000), false, "no time between them");
  assert.equal(watch(90_000, 1_000_000, 1_000 + minRateMs - 1), false, "less than minRateMs: 450 bytes a ms would leave 2 s");
  assert.equal(watch(95_000, 1_000_000, 1_000 + minRateMs), false, "over minRateMs, 2 s left");
});

// The registry's GET /tokenlist.json against the token-lists format, as a wallet would read it:
// validated with the schema @uniswap/token-lists ships (its tokenlist.schema.json, with ajv and
// ajv-formats), after an update, a disable, an enable, a removal and an add, each time checking
// that the version moved as the format's rules say (computed here from the two lists' tokens:
// major when a token left, minor when one joined, patch when one changed) and that the ETag
// answers 304 until the list changes. Changes the registry it is given (.ci/ts-smoke runs it on
// a devstack of its own).
//   node tokenlist.mjs <registry URL> <admin key> <PNG icon file>
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv";
import addFormats from "ajv-formats";

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve("@uniswap/token-lists/src/tokenlist.schema.json"), "utf8"));
const ajv = new Ajv({ allErrors: true, verbose: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const [registry, adminKey, iconFile] = process.argv.slice(2);
const admin = { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" };

function expect(ok, what, got) {
  if (!ok) {
    throw new Error(`${what}: got ${JSON.stringify(got)}`);
  }
  console.log(`ok  ${what}`);
}

async function call(method, path, body) {
  const resp = await fetch(registry + path, { method, headers: admin, body: body && JSON.stringify(body) });
  if (!resp.ok) {
    throw new Error(`${method} ${path}: ${resp.status} ${await resp.text()}`);
  }
}

// The list, validated; its ETag answers 304.
async function list(after) {
  const resp = await fetch(`${registry}/tokenlist.json`);
  const body = await resp.json();
  expect(resp.status === 200 && validate(body), `after ${after}: GET /tokenlist.json is a valid token list (tokenlist.schema.json)`,
    validate.errors ?? body);
  const etag = resp.headers.get("ETag");
  const again = await fetch(`${registry}/tokenlist.json`, { headers: { "If-None-Match": etag } });
  expect(again.status === 304, `after ${after}: its ETag answers 304`, again.status);
  return body;
}

// The format's rule, from the tokens alone.
function wantedBump(before, after) {
  const key = (t) => `${t.chainId}/${t.address}`;
  const old = new Map(before.tokens.map((t) => [key(t), JSON.stringify(t)]));
  const now = new Map(after.tokens.map((t) => [key(t), JSON.stringify(t)]));
  if ([...old.keys()].some((k) => !now.has(k))) return "major";
  if ([...now.keys()].some((k) => !old.has(k))) return "minor";
  if ([...now].some(([k, t]) => old.get(k) !== t)) return "patch";
  return "none";
}

function bumped(v, how) {
  switch (how) {
    case "major": return { major: v.major + 1, minor: 0, patch: 0 };
    case "minor": return { major: v.major, minor: v.minor + 1, patch: 0 };
    case "patch": return { ...v, patch: v.patch + 1 };
    default: return v;
  }
}

async function step(before, what, how, change) {
  await change();
  const after = await list(what);
  const rule = wantedBump(before, after);
  const want = bumped(before.version, how);
  const said = how === "none" ? "nothing in the list changed" : `the tokens changed as a ${how} change`;
  expect(rule === how && JSON.stringify(after.version) === JSON.stringify(want) && after.timestamp >= before.timestamp,
    `after ${what}: ${said}, and the version is ${want.major}.${want.minor}.${want.patch}`,
    { rule, version: after.version });
  return after;
}

async function main() {
  const tokens = (await (await fetch(`${registry}/tokens`)).json()).tokens;
  expect(tokens.length >= 3, "the registry lists three tokens to work with", tokens.length);
  const [a, b, c] = tokens;

  let l = await list("the start");
  const entry = l.tokens.find((t) => t.address === a.address);
  const id = entry.extensions.tokenId;
  expect(id.high + id.low.slice(2) === a.tokenId && entry.logoURI === a.icon && /^https?:\/\//.test(entry.logoURI),
    "an entry's tokenId halves make its tokenId, and its logoURI is the absolute icon URL of GET /tokens", entry);
  const logo = await fetch(entry.logoURI);
  expect(logo.status === 200 && /immutable/.test(logo.headers.get("Cache-Control") ?? ""),
    "its logo is served with an immutable cache life", [logo.status, logo.headers.get("Cache-Control")]);

  l = await step(l, "an update (a category)", "patch", () => call("POST", "/tokens", { address: a.address, category: "checked by CI" }));
  l = await step(l, "a disable", "major", () => call("POST", "/tokens", { address: b.address, enabled: false }));
  expect(!l.tokens.some((t) => t.address === b.address), "the disabled token is not listed", l.tokens);
  l = await step(l, "an enable", "minor", () => call("POST", "/tokens", { address: b.address, enabled: true }));
  l = await step(l, "a removal", "major", () => call("DELETE", `/tokens/${c.address}`));
  expect(!l.tokens.some((t) => t.address === c.address), "the removed token is not listed", l.tokens);
  const icon = readFileSync(iconFile).toString("base64");
  l = await step(l, "an add (with an icon)", "minor", () => call("POST", "/tokens", {
    address: c.address, category: c.category, sortOrder: c.sortOrder, underlyingChain: c.underlyingChain, icon: `data:image/png;base64,${icon}`,
  }));
  const added = l.tokens.find((t) => t.address === c.address);
  expect(/^https?:\/\/.+\/icons\/0x[0-9a-f]{40}-[0-9a-f]{8}\.png$/.test(added?.logoURI ?? ""), "the added token is listed with its new icon", added);
  l = await step(l, "a write that changes nothing", "none", () => call("POST", "/tokens", { address: c.address }));
}

main().catch((err) => {
  console.error(`FAIL ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});

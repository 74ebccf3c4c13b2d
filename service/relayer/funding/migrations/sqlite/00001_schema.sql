-- The sponsors' accounts as they were before numbered migrations. IF NOT EXISTS throughout: a
-- database made then (no goose_sponsors table yet) has these already, and takes this migration
-- as a no-op.
-- +goose Up
CREATE TABLE IF NOT EXISTS sponsors (
	id             TEXT   PRIMARY KEY, -- sp_ and 32 hex digits
	name           TEXT   NOT NULL,
	key_hash       TEXT   NOT NULL UNIQUE, -- SHA-256 of the key, hex: the key itself is never stored
	voucher_signer TEXT   NOT NULL, -- 0x hex, '' for none
	credited       TEXT   NOT NULL, -- wei, decimal
	debited        TEXT   NOT NULL, -- wei, decimal
	reserved       TEXT   NOT NULL, -- wei, decimal: the worst case of its reveals in flight
	reveals_paid   BIGINT NOT NULL,
	created_at     BIGINT NOT NULL, -- unix milliseconds
	revoked_at     BIGINT NOT NULL  -- unix milliseconds, 0 while not revoked
);
CREATE TABLE IF NOT EXISTS sponsor_charges (
	chain_id   BIGINT NOT NULL,
	nullifier  TEXT   NOT NULL, -- 0x hex
	sponsor_id TEXT   NOT NULL,
	voucher_id TEXT   NOT NULL, -- 0x hex, '' for a keyed reveal
	reserved   TEXT   NOT NULL, -- wei, decimal: held while state is reserved
	cost       TEXT   NOT NULL, -- wei, decimal: debited once settled
	state      TEXT   NOT NULL, -- reserved, settled
	updated_at BIGINT NOT NULL, -- unix milliseconds
	PRIMARY KEY (chain_id, nullifier)
);
CREATE TABLE IF NOT EXISTS sponsor_vouchers (
	sponsor_id TEXT   NOT NULL,
	voucher_id TEXT   NOT NULL, -- 0x hex
	nullifier  TEXT   NOT NULL, -- the reveal it paid for
	used_at    BIGINT NOT NULL, -- unix milliseconds
	PRIMARY KEY (sponsor_id, voucher_id)
);
CREATE TABLE IF NOT EXISTS sponsor_credit_keys (
	idempotency_key TEXT   PRIMARY KEY, -- the operator's Idempotency-Key, as sent
	sponsor_id      TEXT   NOT NULL,
	amount          TEXT   NOT NULL, -- wei, decimal: what the key credited
	answer          TEXT   NOT NULL, -- JSON: the sponsor as the credit left it
	created_at      BIGINT NOT NULL  -- unix milliseconds
);
CREATE INDEX IF NOT EXISTS sponsor_credit_keys_by_age ON sponsor_credit_keys (created_at);

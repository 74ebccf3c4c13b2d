-- The claims as they were before numbered migrations. IF NOT EXISTS throughout: a database made
-- then (no goose_faucet table yet) has these already, and takes this migration as a no-op.
-- +goose Up
CREATE TABLE IF NOT EXISTS claims (
	chain_id     BIGINT  NOT NULL,
	address      TEXT    NOT NULL, -- lowercase 0x hex
	amount       TEXT    NOT NULL, -- wei, decimal
	status       TEXT    NOT NULL, -- pending, confirmed, failed
	nonce        BIGINT,           -- of its transaction, once signed
	hashes       TEXT    NOT NULL DEFAULT '', -- every signed version, comma-separated, oldest first
	raw          TEXT,             -- the newest signed version, 0x hex
	block_number BIGINT,
	reason       TEXT    NOT NULL DEFAULT '',
	created_at   BIGINT  NOT NULL, -- unix milliseconds
	updated_at   BIGINT  NOT NULL,
	wallet       TEXT    NOT NULL DEFAULT '', -- the paying wallet, lowercase 0x hex
	PRIMARY KEY (chain_id, address)
);
-- Proof-of-work challenges spent, each kept until it expires: a challenge lets one claim through.
CREATE TABLE IF NOT EXISTS pow_spent (
	id         TEXT   PRIMARY KEY, -- the challenge's id, 0x hex
	expires_at BIGINT NOT NULL     -- unix seconds
);
-- Solutions checked against each challenge, kept until it expires; passed is the nonce that met it.
CREATE TABLE IF NOT EXISTS pow_tries (
	id         TEXT    PRIMARY KEY, -- the challenge's id, 0x hex
	tries      INTEGER NOT NULL,
	passed     BIGINT,             -- the nonce that met the challenge
	expires_at BIGINT  NOT NULL     -- unix seconds
);

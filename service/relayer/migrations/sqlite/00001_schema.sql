-- The reveals' record as it was before numbered migrations. IF NOT EXISTS throughout: a database
-- made then (no goose_relayer table yet) has these already, and takes this migration as a no-op.
-- +goose Up
CREATE TABLE IF NOT EXISTS reveal_transactions (
	chain_id   BIGINT NOT NULL,
	wallet     TEXT   NOT NULL, -- lowercase 0x hex
	nonce      BIGINT NOT NULL,
	nullifier  TEXT   NOT NULL, -- 0x hex
	hashes     TEXT   NOT NULL, -- every version signed, comma-separated, oldest first
	raw        TEXT   NOT NULL, -- the newest version, 0x hex
	status     TEXT   NOT NULL, -- pending, settled
	updated_at BIGINT NOT NULL, -- unix milliseconds
	PRIMARY KEY (chain_id, wallet, nonce)
);
CREATE INDEX IF NOT EXISTS reveal_transactions_by_nullifier ON reveal_transactions (chain_id, nullifier);
CREATE TABLE IF NOT EXISTS reveal_outcomes (
	chain_id     BIGINT NOT NULL,
	nullifier    TEXT   NOT NULL, -- 0x hex
	state        TEXT   NOT NULL, -- mined, reverted, dropped (its nonce taken by another transaction: nothing on chain), cancelled
	tx_hash      TEXT   NOT NULL, -- the version mined ('' when dropped)
	block_number BIGINT NOT NULL,
	gas_used     BIGINT NOT NULL,
	reason       TEXT   NOT NULL, -- a revert's, decoded ('' otherwise)
	updated_at   BIGINT NOT NULL, -- unix milliseconds
	PRIMARY KEY (chain_id, nullifier)
);

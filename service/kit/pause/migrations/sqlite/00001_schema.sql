-- The pause as it was before numbered migrations. IF NOT EXISTS throughout: a database made
-- then (no goose_pause table yet) has these already, and takes this migration as a no-op.
-- +goose Up
CREATE TABLE IF NOT EXISTS paused_replicas (
	service   TEXT   NOT NULL,
	replica   TEXT   NOT NULL,
	paused_at BIGINT NOT NULL, -- unix milliseconds
	PRIMARY KEY (service, replica)
);
CREATE TABLE IF NOT EXISTS replica_wallets (
	service TEXT   NOT NULL,
	replica TEXT   NOT NULL,
	wallet  TEXT   NOT NULL, -- EIP-55
	since   BIGINT NOT NULL, -- unix milliseconds
	PRIMARY KEY (service, replica)
);

-- The registry's tables as they were before numbered migrations. IF NOT EXISTS throughout: a
-- database made then (no goose_registry table yet) has these already, and takes this migration
-- as a no-op. The registry keeps no SQLite (its files are DATA_FILE and ICONS_DIR).
-- +goose Up
CREATE TABLE IF NOT EXISTS registry_tokens (
	chain_id BIGINT NOT NULL, -- the chain the tokenId was computed with
	address  TEXT   NOT NULL, -- EIP-55
	entry    TEXT   NOT NULL, -- the stored entry, JSON (as in DATA_FILE)
	PRIMARY KEY (address)
);
CREATE TABLE IF NOT EXISTS registry_icons (
	name       TEXT        NOT NULL PRIMARY KEY, -- content-addressed, as in ICONS_DIR
	data       BYTEA       NOT NULL,
	created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS registry_tokenlist (
	id   SMALLINT NOT NULL PRIMARY KEY CHECK (id = 1), -- one row: the list
	list TEXT     NOT NULL                             -- GET /tokenlist.json as stored, JSON
);
CREATE TABLE IF NOT EXISTS registry_relayers (
	id        SMALLINT NOT NULL PRIMARY KEY CHECK (id = 1), -- one row: the directory
	directory TEXT     NOT NULL                             -- GET /relayers.json as stored, JSON
);

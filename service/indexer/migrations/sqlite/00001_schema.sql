-- The index as it was before numbered migrations. IF NOT EXISTS throughout: a database made
-- then (no goose_indexer table yet) has these already, and takes this migration as a no-op.
-- +goose Up
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (number BIGINT PRIMARY KEY, hash TEXT NOT NULL, parent TEXT NOT NULL);
-- In the order queries read it (by event, then chain order); a rollback deletes by event and
-- block too.
CREATE TABLE IF NOT EXISTS events (
	event        TEXT   NOT NULL,
	block_number BIGINT NOT NULL,
	log_index    BIGINT NOT NULL,
	block_hash   TEXT   NOT NULL,
	tx_hash      TEXT   NOT NULL,
	address      TEXT   NOT NULL,
	args         TEXT   NOT NULL,
	PRIMARY KEY (event, block_number, log_index)
) WITHOUT ROWID; -- the primary key is the table's one B-tree

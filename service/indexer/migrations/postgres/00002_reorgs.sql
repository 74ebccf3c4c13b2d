-- The common ancestors of the latest reorgs, newest the highest seq (the writer keeps the last
-- 64): a stream of any replica, or of an indexer restarted since, tells a client that saw events
-- a reorg removed how far to drop back.
-- +goose Up
CREATE TABLE reorgs (seq BIGINT PRIMARY KEY, ancestor BIGINT NOT NULL);

-- The outbox as it was before numbered migrations. IF NOT EXISTS throughout: a database made
-- then (no goose_webhook table yet) has these already, and takes this migration as a no-op.
-- +goose Up
CREATE TABLE IF NOT EXISTS webhook_outbox (
	id           TEXT   NOT NULL PRIMARY KEY, -- the delivery's id
	service      TEXT   NOT NULL,
	url          TEXT   NOT NULL,
	body         TEXT   NOT NULL, -- the Event, JSON
	attempts     BIGINT NOT NULL,
	next_at      BIGINT NOT NULL, -- unix milliseconds: due then (or held until then by the replica delivering it)
	delivered_at BIGINT,          -- unix milliseconds; NULL until the endpoint answered 2xx
	last_error   TEXT   NOT NULL,
	created_at   BIGINT,          -- unix milliseconds: recorded then
	dead_at      BIGINT           -- unix milliseconds: dead-lettered then (expired, or its endpoint no longer configured)
);
CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (service, delivered_at, next_at);
-- Outboxes made before created_at and dead_at.
ALTER TABLE webhook_outbox ADD COLUMN IF NOT EXISTS created_at BIGINT;
ALTER TABLE webhook_outbox ADD COLUMN IF NOT EXISTS dead_at BIGINT;
CREATE INDEX IF NOT EXISTS webhook_outbox_endpoint_due ON webhook_outbox (service, url, next_at) WHERE delivered_at IS NULL AND dead_at IS NULL;
-- Which replica delivers to which endpoint, as of its last sweep (seen_at, unix milliseconds).
CREATE TABLE IF NOT EXISTS webhook_endpoints (
	service  TEXT   NOT NULL,
	instance TEXT   NOT NULL, -- the replica's name and a random part, one per process
	url      TEXT   NOT NULL,
	seen_at  BIGINT NOT NULL,
	PRIMARY KEY (service, instance, url)
);

--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: claims; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.claims (
    chain_id bigint NOT NULL,
    address text NOT NULL,
    amount text NOT NULL,
    status text NOT NULL,
    nonce bigint,
    hashes text DEFAULT ''::text NOT NULL,
    raw text,
    block_number bigint,
    reason text DEFAULT ''::text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    wallet text DEFAULT ''::text NOT NULL
);


--
-- Name: paused_replicas; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.paused_replicas (
    service text NOT NULL,
    replica text NOT NULL,
    paused_at bigint NOT NULL
);


--
-- Name: pow_spent; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pow_spent (
    id text NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: pow_tries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pow_tries (
    id text NOT NULL,
    tries integer NOT NULL,
    passed bigint,
    expires_at bigint NOT NULL
);


--
-- Name: replica_wallets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.replica_wallets (
    service text NOT NULL,
    replica text NOT NULL,
    wallet text NOT NULL,
    since bigint NOT NULL
);


--
-- Name: webhook_endpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_endpoints (
    service text NOT NULL,
    instance text NOT NULL,
    url text NOT NULL,
    seen_at bigint NOT NULL
);


--
-- Name: webhook_outbox; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_outbox (
    id text NOT NULL,
    service text NOT NULL,
    url text NOT NULL,
    body text NOT NULL,
    attempts bigint NOT NULL,
    next_at bigint NOT NULL,
    delivered_at bigint,
    last_error text NOT NULL,
    created_at bigint,
    dead_at bigint
);


--
-- Data for Name: claims; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.claims VALUES (1337, '0x00000000000000000000000000000000000c0f1d', '100000000000000000000', 'confirmed', 0, '0x1c449f5ff679938fe6f8ac5224d6d212a227ee2ce2857d8f10304f1e9c733061', '0x02f87182053980018402a9def58252089400000000000000000000000000000000000c0f1d89056bc75e2d6310000080c001a0b5267fbb8e693aa58a478dc8287a49eea0bad3fb482e991e897b5a64fd1ff499a059625a99fb45e28473004987d0a6580b4c3037de840cbd5e73936bc2f76707b5', 2, '', 1795904285873, 1795904285936, '0xfcbc2c53073caff7aad1483b9003f7c5a8b5a15e');
INSERT INTO public.claims VALUES (1337, '0x00000000000000000000000000000000000fa11d', '100000000000000000000', 'failed', 1, '0xd4a1d900173a23fee6e999a6b53b8ae7292e3a236b5096d34054adaa49947adc', '0x02f8718205390101840254a3178252089400000000000000000000000000000000000fa11d89056bc75e2d6310000080c080a0e3fa28fa5f01b758b99bf30a78d7fb89cfcd6dba45021a64f9858b4f126eb4c9a04c36d789b6d2804c33e44f2a025ed267f40062755ee46ada5a84c8bdff30c26e', 0, 'the faucet''s operator cancelled the transfer; claim again', 1795904285945, 1795904286956, '0xfcbc2c53073caff7aad1483b9003f7c5a8b5a15e');
INSERT INTO public.claims VALUES (1337, '0x00000000000000000000000000000000000be9d1', '100000000000000000000', 'pending', 2, '0x56e8a4892020039d0c9705d2022c00f2f581c801759d0999e2be63bc55e711df', '0x02f871820539020184018fd1f78252089400000000000000000000000000000000000be9d189056bc75e2d6310000080c080a04a9f7497fe021a9647bdef0e39f7e4a1053cdc58a315c3acdd9dac6ecb3fc7fba0162aa87de41aea28270618e663d5aba451956dfaefba2f7a3da541bdf3095470', NULL, '', 1795904286992, 1795904286995, '0xfcbc2c53073caff7aad1483b9003f7c5a8b5a15e');


--
-- Data for Name: paused_replicas; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.paused_replicas VALUES ('faucet', 'faucet-a', 1795904287000);


--
-- Data for Name: pow_spent; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: pow_tries; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: replica_wallets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.replica_wallets VALUES ('faucet', 'faucet-a', '0xFcBC2c53073caff7AaD1483B9003f7c5a8B5a15e', 1795904285728);


--
-- Data for Name: webhook_endpoints; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: webhook_outbox; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.webhook_outbox VALUES ('bc4580c90cbd4eecd073e0f521435dec', 'faucet', 'http://127.0.0.1:9/hook', '{"id":"bc4580c90cbd4eecd073e0f521435dec","type":"claim.pending","service":"faucet","replica":"faucet-a","time":"2026-11-28T22:18:05.945666721Z","data":{"address":"0x00000000000000000000000000000000000FA11D"}}', 1, 1795904286966, NULL, 'Post "http://127.0.0.1:9/…": dial tcp 127.0.0.1:9: connect: connection refused', 1795904285945, NULL);
INSERT INTO public.webhook_outbox VALUES ('371483d134746c4f64158faa784e81fd', 'faucet', 'http://127.0.0.1:9/hook', '{"id":"371483d134746c4f64158faa784e81fd","type":"claim.failed","service":"faucet","replica":"faucet-a","time":"2026-11-28T22:18:06.957042505Z","data":{"address":"0x00000000000000000000000000000000000FA11D","reason":"the faucet''s operator cancelled the transfer; claim again"}}', 0, 1795904286957, NULL, '', 1795904286957, NULL);
INSERT INTO public.webhook_outbox VALUES ('8c23c7b92d1ab1d443e0d28480a2f982', 'faucet', 'http://127.0.0.1:9/hook', '{"id":"8c23c7b92d1ab1d443e0d28480a2f982","type":"claim.pending","service":"faucet","replica":"faucet-a","time":"2026-11-28T22:18:05.880105317Z","data":{"address":"0x00000000000000000000000000000000000c0f1D"}}', 2, 1795904288958, NULL, 'Post "http://127.0.0.1:9/…": dial tcp 127.0.0.1:9: connect: connection refused', 1795904285880, NULL);
INSERT INTO public.webhook_outbox VALUES ('e4a1ade0b1267c04628dca8538a046f9', 'faucet', 'http://127.0.0.1:9/hook', '{"id":"e4a1ade0b1267c04628dca8538a046f9","type":"claim.pending","service":"faucet","replica":"faucet-a","time":"2026-11-28T22:18:06.993307392Z","data":{"address":"0x00000000000000000000000000000000000BE9D1"}}', 0, 1795904286993, NULL, '', 1795904286993, NULL);
INSERT INTO public.webhook_outbox VALUES ('a7fb5f583eb37efa46a333e2034b9e4c', 'faucet', 'http://127.0.0.1:9/hook', '{"id":"a7fb5f583eb37efa46a333e2034b9e4c","type":"claim.confirmed","service":"faucet","replica":"faucet-a","time":"2026-11-28T22:18:05.937409679Z","data":{"address":"0x00000000000000000000000000000000000c0f1D","blockNumber":2}}', 2, 1795904288995, NULL, 'Post "http://127.0.0.1:9/…": dial tcp 127.0.0.1:9: connect: connection refused', 1795904285937, NULL);
INSERT INTO public.webhook_outbox VALUES ('fcaccc33034edd344986ce05db75badc', 'faucet', 'http://127.0.0.1:9/hook', '{"id":"fcaccc33034edd344986ce05db75badc","type":"replica.paused","service":"faucet","replica":"faucet-a","time":"2026-11-28T22:18:07.001003386Z","data":{"paused":true,"replica":"faucet-a","since":"2026-11-28T22:18:07.000219815Z"}}', 0, 1795904287001, NULL, '', 1795904287001, NULL);


--
-- Name: claims claims_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.claims
    ADD CONSTRAINT claims_pkey PRIMARY KEY (chain_id, address);


--
-- Name: paused_replicas paused_replicas_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.paused_replicas
    ADD CONSTRAINT paused_replicas_pkey PRIMARY KEY (service, replica);


--
-- Name: pow_spent pow_spent_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pow_spent
    ADD CONSTRAINT pow_spent_pkey PRIMARY KEY (id);


--
-- Name: pow_tries pow_tries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pow_tries
    ADD CONSTRAINT pow_tries_pkey PRIMARY KEY (id);


--
-- Name: replica_wallets replica_wallets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.replica_wallets
    ADD CONSTRAINT replica_wallets_pkey PRIMARY KEY (service, replica);


--
-- Name: webhook_endpoints webhook_endpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (service, instance, url);


--
-- Name: webhook_outbox webhook_outbox_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_outbox
    ADD CONSTRAINT webhook_outbox_pkey PRIMARY KEY (id);


--
-- Name: webhook_outbox_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_outbox_due ON public.webhook_outbox USING btree (service, delivered_at, next_at);


--
-- Name: webhook_outbox_endpoint_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_outbox_endpoint_due ON public.webhook_outbox USING btree (service, url, next_at) WHERE ((delivered_at IS NULL) AND (dead_at IS NULL));


--
-- PostgreSQL database dump complete
--



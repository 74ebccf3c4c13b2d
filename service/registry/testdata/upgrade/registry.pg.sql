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
-- Name: registry_icons; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.registry_icons (
    name text NOT NULL,
    data bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: registry_relayers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.registry_relayers (
    id smallint NOT NULL,
    directory text NOT NULL,
    CONSTRAINT registry_relayers_id_check CHECK ((id = 1))
);


--
-- Name: registry_tokenlist; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.registry_tokenlist (
    id smallint NOT NULL,
    list text NOT NULL,
    CONSTRAINT registry_tokenlist_id_check CHECK ((id = 1))
);


--
-- Name: registry_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.registry_tokens (
    chain_id bigint NOT NULL,
    address text NOT NULL,
    entry text NOT NULL
);


--
-- Data for Name: registry_icons; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.registry_icons VALUES ('0x5e1d4d5cf6b73ae6597b8bf0d11042b7c17d97a6-8e2e9fcc.png', '\x89504e470d0a1a0a0000000d4948445200000020000000200806000000737a7af40000008f49444154789c62d97ce619d7fd575fff6a48f3b21c3df7fdaf831937cba64f3fff060b72b2bcfff2eb2fade59878385998ee0b723071b1b33099e8b2335d7ef8f1b727172bd3eee39f7fd3438eee16a2cb0da8ef41724c03e97b90dc80fa1e2437a0be07c90da8ef4172a3d970341b8e66c3d16c389a0d47b3e168361ccd86a3d970341b8e66c3d16c08080000ffffc50544c90f1423930000000049454e44ae426082', '2026-11-28 22:22:00.454617+00');


--
-- Data for Name: registry_relayers; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: registry_tokenlist; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.registry_tokenlist VALUES (1, '{"name":"vaultd","timestamp":"2026-11-28T22:22:00Z","version":{"major":1,"minor":0,"patch":0},"tags":{"stable":{"name":"stable","description":"Registry category stable"}},"tokens":[{"chainId":1337,"address":"0x5E1D4d5cf6B73Ae6597b8bF0d11042B7C17d97A6","name":"Vault Wrapped Ether","symbol":"vWETH","decimals":18,"logoURI":"https://registry.example/icons/0x5e1d4d5cf6b73ae6597b8bf0d11042b7c17d97a6-8e2e9fcc.png","tags":["stable"],"extensions":{"tokenId":{"high":"0x2981bb7de9aa90565d0caf7d9245d1d8","low":"0x2cc6ba341d72340b731e9d7fd4e65ad0"}}}]}');


--
-- Data for Name: registry_tokens; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.registry_tokens VALUES (1337, '0x5E1D4d5cf6B73Ae6597b8bF0d11042B7C17d97A6', '{"address":"0x5E1D4d5cf6B73Ae6597b8bF0d11042B7C17d97A6","name":"Vault Wrapped Ether","symbol":"vWETH","decimals":18,"tokenId":"0x2981bb7de9aa90565d0caf7d9245d1d82cc6ba341d72340b731e9d7fd4e65ad0","iconFile":"0x5e1d4d5cf6b73ae6597b8bf0d11042b7c17d97a6-8e2e9fcc.png","category":"stable","enabled":true,"sortOrder":0,"underlyingChain":""}');
INSERT INTO public.registry_tokens VALUES (1337, '0xbC3c3954CA374E5d1293AB06C89AB11B8379000d', '{"address":"0xbC3c3954CA374E5d1293AB06C89AB11B8379000d","name":"Vault Wrapped USD Coin","symbol":"vUSDC","decimals":6,"tokenId":"0x087e621a94575ba87c445c17f54047b5ba77b8e64d092d09cfca6906a97065a8","category":"","enabled":false,"sortOrder":0,"underlyingChain":""}');


--
-- Name: registry_icons registry_icons_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.registry_icons
    ADD CONSTRAINT registry_icons_pkey PRIMARY KEY (name);


--
-- Name: registry_relayers registry_relayers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.registry_relayers
    ADD CONSTRAINT registry_relayers_pkey PRIMARY KEY (id);


--
-- Name: registry_tokenlist registry_tokenlist_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.registry_tokenlist
    ADD CONSTRAINT registry_tokenlist_pkey PRIMARY KEY (id);


--
-- Name: registry_tokens registry_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.registry_tokens
    ADD CONSTRAINT registry_tokens_pkey PRIMARY KEY (address);


--
-- PostgreSQL database dump complete
--



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
-- Name: blocks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.blocks (
    number bigint NOT NULL,
    hash text NOT NULL,
    parent text NOT NULL
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    event text NOT NULL,
    block_number bigint NOT NULL,
    log_index bigint NOT NULL,
    block_hash text NOT NULL,
    tx_hash text NOT NULL,
    address text NOT NULL,
    args text NOT NULL
);


--
-- Name: meta; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meta (
    key text NOT NULL,
    value text NOT NULL
);


--
-- Data for Name: blocks; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.blocks VALUES (1, '0x53f92a2bbbdfe87388ca6c2dee4dc557480c01cf1ca9574fbdcaa9475853ea6c', '0xcd5a8b1abb309b03e9c62dc68787c94ff1d829244bde5d6969b141e1e1770ff9');
INSERT INTO public.blocks VALUES (2, '0x7960d43ad150c7565e22aecbfce9254e60889cb7ae4e68dd965d15bdff5aa013', '0x53f92a2bbbdfe87388ca6c2dee4dc557480c01cf1ca9574fbdcaa9475853ea6c');
INSERT INTO public.blocks VALUES (3, '0x1509cca63311cf7bb5d7a1686322445457200e821a0dda552ae45fac54837514', '0x7960d43ad150c7565e22aecbfce9254e60889cb7ae4e68dd965d15bdff5aa013');
INSERT INTO public.blocks VALUES (4, '0xe4e5c5fda539ba0c8f406976e6fada6839b126ada3d2afd5da1ebb2b7e98b211', '0x1509cca63311cf7bb5d7a1686322445457200e821a0dda552ae45fac54837514');
INSERT INTO public.blocks VALUES (5, '0xc7a157abd5e31ed9a74adba7471fb56275ee7aab1e2dd09f97bea3b0c5f38bb4', '0xe4e5c5fda539ba0c8f406976e6fada6839b126ada3d2afd5da1ebb2b7e98b211');
INSERT INTO public.blocks VALUES (6, '0x9279c1b69d41649c5f31ac082b11e96b9ddf43d991d7ab8ffbe127045375f6a5', '0xc7a157abd5e31ed9a74adba7471fb56275ee7aab1e2dd09f97bea3b0c5f38bb4');
INSERT INTO public.blocks VALUES (7, '0xa9520a9f43a4ea3313be60258e0b14bff6e9a4133d080e61f74834921755afcf', '0x9279c1b69d41649c5f31ac082b11e96b9ddf43d991d7ab8ffbe127045375f6a5');


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.events VALUES ('CommitmentInserted', 3, 1, '0x1509cca63311cf7bb5d7a1686322445457200e821a0dda552ae45fac54837514', '0xa397080cd49638eb15d9a7fb55ab9b98e81437f15a5d5a6901c5b5bf74d3bf7c', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f', '{"commitment":"0x0e4bb95b7c720ada16a3043869d5d538555b01f6ae72e1a26c029e4136872629","leafIndex":"0","root":"0x0e4bb95b7c720ada16a3043869d5d538555b01f6ae72e1a26c029e4136872629"}');
INSERT INTO public.events VALUES ('Committed', 3, 2, '0x1509cca63311cf7bb5d7a1686322445457200e821a0dda552ae45fac54837514', '0xa397080cd49638eb15d9a7fb55ab9b98e81437f15a5d5a6901c5b5bf74d3bf7c', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f', '{"token":"0x5E1D4d5cf6B73Ae6597b8bF0d11042B7C17d97A6","sender":"0xA00A01b91027B321745d12f33BA208e5FAcFB6A4","amount":"100","commitment":"0x2f78ed2a72299ae57136a55eedb04c2ee53f9d60a734f3f3256785c28cc381c1","leaf":"0x0e4bb95b7c720ada16a3043869d5d538555b01f6ae72e1a26c029e4136872629","leafIndex":"0"}');
INSERT INTO public.events VALUES ('CommitmentInserted', 5, 1, '0xc7a157abd5e31ed9a74adba7471fb56275ee7aab1e2dd09f97bea3b0c5f38bb4', '0x797a957ca9f755b850631111a40e45820775d8b5da10fc9fb2195b8e039a89c0', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f', '{"commitment":"0x16a93baf30ce4ffeba35544ebf7f9d5d38b419aa7aa20ef7fb702d6cea074a87","leafIndex":"1","root":"0x0972ab61300cbc54dd88d68aa77a4964c5bd8d71127c4407de4afcaa31748225"}');
INSERT INTO public.events VALUES ('Committed', 5, 2, '0xc7a157abd5e31ed9a74adba7471fb56275ee7aab1e2dd09f97bea3b0c5f38bb4', '0x797a957ca9f755b850631111a40e45820775d8b5da10fc9fb2195b8e039a89c0', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f', '{"token":"0x5E1D4d5cf6B73Ae6597b8bF0d11042B7C17d97A6","sender":"0xA00A01b91027B321745d12f33BA208e5FAcFB6A4","amount":"101","commitment":"0x0708db474cc6f7c476eafddf331f97a3be630116993104fbe446c8991b886c73","leaf":"0x16a93baf30ce4ffeba35544ebf7f9d5d38b419aa7aa20ef7fb702d6cea074a87","leafIndex":"1"}');
INSERT INTO public.events VALUES ('CommitmentInserted', 7, 1, '0xa9520a9f43a4ea3313be60258e0b14bff6e9a4133d080e61f74834921755afcf', '0x7b715b6938ad4108ea9f53fd40bed9860f8da6a6645228a8f406e1db35084f28', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f', '{"commitment":"0x1158d5ce6867ade09d506031b62d88f91de8469e8905a200ac0d6725e94eb8e7","leafIndex":"2","root":"0x00831f102e1dfb7fceccf99614771745d682d84b9f360152193aaf41f0e19550"}');
INSERT INTO public.events VALUES ('Committed', 7, 2, '0xa9520a9f43a4ea3313be60258e0b14bff6e9a4133d080e61f74834921755afcf', '0x7b715b6938ad4108ea9f53fd40bed9860f8da6a6645228a8f406e1db35084f28', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f', '{"token":"0x5E1D4d5cf6B73Ae6597b8bF0d11042B7C17d97A6","sender":"0xA00A01b91027B321745d12f33BA208e5FAcFB6A4","amount":"102","commitment":"0x07feffbb5fbda3093143287351aa830bb3e307a385b8434c4a4ddc1bff301f56","leaf":"0x1158d5ce6867ade09d506031b62d88f91de8469e8905a200ac0d6725e94eb8e7","leafIndex":"2"}');


--
-- Data for Name: meta; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.meta VALUES ('COMMIT_REVEAL_VAULT_ADDRESS', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f');
INSERT INTO public.meta VALUES ('TOKEN_FACTORY_ADDRESS', '0x730d50Cb8B4a9807da2e002E9D5c21995cDA3551');
INSERT INTO public.meta VALUES ('COMMITMENT_TREE_ADDRESS', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f');
INSERT INTO public.meta VALUES ('chainId', '1337');
INSERT INTO public.meta VALUES ('startBlock', '1');
INSERT INTO public.meta VALUES ('NULLIFIER_REGISTRY_ADDRESS', '0x017B303A427D4C6C380D82C0b0AE26f87c4c968f');


--
-- Name: blocks blocks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.blocks
    ADD CONSTRAINT blocks_pkey PRIMARY KEY (number);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (event, block_number, log_index);


--
-- Name: meta meta_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meta
    ADD CONSTRAINT meta_pkey PRIMARY KEY (key);


--
-- PostgreSQL database dump complete
--



-- The console finds users and orders by any part of an account, nickname,
-- order number or transaction hash (LOWER(column) LIKE '%word%'). Trigram
-- indexes answer those substring searches without reading every row; SQLite
-- (one node, small stores) scans.
--
-- pg_trgm is installed once per database, in public, not in the schema being
-- migrated (a store in a schema of its own, as the tests' are, would take the
-- extension with it when dropped); the indexes name the operator class in the
-- schema where the extension is, which may not be on the search path.
DO $$
DECLARE
    ext text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        -- A role that may not create extensions (managed PostgreSQL often
        -- needs an administrator for it) still gets a working store: the
        -- searches then scan, as on SQLite, until pg_trgm is installed.
        BEGIN
            CREATE EXTENSION pg_trgm SCHEMA public;
        EXCEPTION WHEN insufficient_privilege OR undefined_file OR feature_not_supported THEN
            RAISE WARNING 'pg_trgm unavailable (%): console searches scan instead of using trigram indexes', SQLERRM;
            RETURN;
        END;
    END IF;
    SELECT n.nspname INTO ext FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX users_account_trgm ON users USING gin (LOWER(account) %I.gin_trgm_ops)', ext);
    EXECUTE format('CREATE INDEX users_nickname_trgm ON users USING gin (LOWER(nickname) %I.gin_trgm_ops)', ext);
    EXECUTE format('CREATE INDEX recharge_orders_order_no_trgm ON recharge_orders USING gin (LOWER(order_no) %I.gin_trgm_ops)', ext);
    EXECUTE format('CREATE INDEX recharge_orders_tx_hash_trgm ON recharge_orders USING gin (LOWER(tx_hash) %I.gin_trgm_ops)', ext);
    EXECUTE format('CREATE INDEX exchange_orders_order_no_trgm ON exchange_orders USING gin (LOWER(order_no) %I.gin_trgm_ops)', ext);
END;
$$;

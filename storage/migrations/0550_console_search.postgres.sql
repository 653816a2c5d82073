-- The console finds users and orders by any part of an account, nickname,
-- order number or transaction hash (LOWER(column) LIKE '%word%'). Trigram
-- indexes answer those substring searches without reading every row; SQLite
-- (one node, small stores) scans.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX users_account_trgm ON users USING gin (LOWER(account) gin_trgm_ops);
CREATE INDEX users_nickname_trgm ON users USING gin (LOWER(nickname) gin_trgm_ops);
CREATE INDEX recharge_orders_order_no_trgm ON recharge_orders USING gin (LOWER(order_no) gin_trgm_ops);
CREATE INDEX recharge_orders_tx_hash_trgm ON recharge_orders USING gin (LOWER(tx_hash) gin_trgm_ops);
CREATE INDEX exchange_orders_order_no_trgm ON exchange_orders USING gin (LOWER(order_no) gin_trgm_ops);

-- Recharge orders: a user says "I sent amount USDT on protocol, here is the
-- transaction hash"; an operator confirms (the ledger credits the wallet in
-- the same transaction) or fails it. status 0 under review, 1 completed,
-- 2 failed. A transaction hash is accepted once.
CREATE TABLE recharge_orders (
    id           BIGINT PRIMARY KEY,
    order_no     TEXT NOT NULL,
    user_id      BIGINT NOT NULL,
    amount       BIGINT NOT NULL CHECK (amount > 0),
    protocol     TEXT NOT NULL,
    address      TEXT NOT NULL,
    tx_hash      TEXT NOT NULL,
    status       SMALLINT NOT NULL DEFAULT 0,
    remark       TEXT NOT NULL DEFAULT '',
    reviewed_by  BIGINT NOT NULL DEFAULT 0,
    reviewed_at  BIGINT NOT NULL DEFAULT 0,
    created_at   BIGINT NOT NULL
);
CREATE UNIQUE INDEX recharge_orders_no ON recharge_orders (order_no);
CREATE UNIQUE INDEX recharge_orders_tx ON recharge_orders (tx_hash);
CREATE INDEX recharge_orders_user ON recharge_orders (user_id, created_at);
CREATE INDEX recharge_orders_status ON recharge_orders (status, created_at);

-- Exchange orders (withdrawals to a bank card). Written in the same
-- transaction as the debit wallet -> withdrawal pending; completed (paid
-- out) or failed (refunded) by an operator, once. The bank card is copied,
-- so deleting the card later does not change what was asked.
-- request_key is the ledger idempotency key of the request.
CREATE TABLE exchange_orders (
    id            BIGINT PRIMARY KEY,
    order_no      TEXT NOT NULL,
    user_id       BIGINT NOT NULL,
    amount        BIGINT NOT NULL CHECK (amount > 0),
    bank_card_id  BIGINT NOT NULL,
    bank_name     TEXT NOT NULL,
    holder_name   TEXT NOT NULL,
    card_number   TEXT NOT NULL,
    status        SMALLINT NOT NULL DEFAULT 0,
    remark        TEXT NOT NULL DEFAULT '',
    request_key   TEXT NOT NULL,
    reviewed_by   BIGINT NOT NULL DEFAULT 0,
    reviewed_at   BIGINT NOT NULL DEFAULT 0,
    created_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX exchange_orders_no ON exchange_orders (order_no);
CREATE UNIQUE INDEX exchange_orders_request ON exchange_orders (request_key);
CREATE INDEX exchange_orders_user ON exchange_orders (user_id, created_at);
CREATE INDEX exchange_orders_status ON exchange_orders (status, created_at);

-- The points ledger: double-entry, integer cents.
--
-- Accounts. System accounts have fixed small ids equal to their kind; a
-- user's wallet has the user's id (ids from NewID are far above 100) and is
-- created on its first transfer. balance is maintained by the ledger writer
-- in the same transaction as the entries, so it always equals the sum of the
-- account's entries (`kj ledger check` verifies it).
--   kind 1 wallet, 2 house, 3 recharge clearing, 4 withdrawal pending,
--   5 bets in play, 6 withdrawals paid out.
CREATE TABLE ledger_accounts (
    id          BIGINT PRIMARY KEY,
    kind        SMALLINT NOT NULL,
    owner_id    BIGINT NOT NULL DEFAULT 0,
    balance     BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
INSERT INTO ledger_accounts (id, kind, owner_id, balance, created_at, updated_at) VALUES
    (2, 2, 0, 0, 0, 0),
    (3, 3, 0, 0, 0, 0),
    (4, 4, 0, 0, 0, 0),
    (5, 5, 0, 0, 0, 0),
    (6, 6, 0, 0, 0, 0);

-- Transfers: one row per movement of money from a debit account to a credit
-- account. The idempotency key makes a retried transfer a no-op.
CREATE TABLE ledger_transfers (
    id               BIGINT PRIMARY KEY,
    idempotency_key  TEXT NOT NULL,
    debit_account    BIGINT NOT NULL,
    credit_account   BIGINT NOT NULL,
    amount           BIGINT NOT NULL CHECK (amount > 0),
    kind             TEXT NOT NULL,
    ref              TEXT NOT NULL DEFAULT '',
    created_at       BIGINT NOT NULL
);
CREATE UNIQUE INDEX ledger_transfers_key ON ledger_transfers (idempotency_key);

-- Entries: the two postings of every transfer, signed (debit negative,
-- credit positive). Keyed by account first: an account's history is one
-- index range.
CREATE TABLE ledger_entries (
    account_id   BIGINT NOT NULL,
    transfer_id  BIGINT NOT NULL,
    amount       BIGINT NOT NULL CHECK (amount <> 0),
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (account_id, transfer_id)
);

-- Deleted accounts (a player leaving with their data, docs/PRIVACY.md).
-- The users row stays as a tombstone under its id, which is then the
-- pseudonymous id that the ledger, the bets, the orders and the audit log
-- keep naming: the row's account, password, names, phone and avatar are
-- erased at deletion. deleted_at is when (0: a live account); purged_at is
-- when the retention sweep erased what the money records kept past the
-- deletion (the card an exchange was paid to); 0 until then.
ALTER TABLE users ADD COLUMN deleted_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN purged_at BIGINT NOT NULL DEFAULT 0;
-- The sweep's question, "which deleted accounts are past retention and not
-- yet purged", reads only the few tombstones.
CREATE INDEX users_deleted ON users (deleted_at) WHERE deleted_at > 0;

-- Player protection (kj/protection, docs/PROTECTION.md): limits a player
-- puts on their own deposits and losses, cool-offs and self-exclusions,
-- the reality-check interval, and recharge orders held by a deposit limit
-- or an exclusion.

-- One row per limit a player has set. amount is in effect now (0: none);
-- a raise (or a removal) waits 24 hours: next_amount takes over at
-- next_at (0: nothing waiting).
CREATE TABLE protection_limits (
    user_id     BIGINT NOT NULL,
    kind        TEXT NOT NULL,
    period      TEXT NOT NULL,
    amount      BIGINT NOT NULL,
    next_amount BIGINT NOT NULL DEFAULT 0,
    next_at     BIGINT NOT NULL DEFAULT 0,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind, period)
);

-- Cool-offs and self-exclusions, never deleted: ends_at 0 is permanent.
CREATE TABLE protection_exclusions (
    id          BIGINT PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    kind        TEXT NOT NULL,
    starts_at   BIGINT NOT NULL,
    ends_at     BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX protection_exclusions_user ON protection_exclusions (user_id, starts_at);
CREATE INDEX protection_exclusions_created ON protection_exclusions (created_at);

-- The reality check's interval in minutes (0: off).
CREATE TABLE protection_reality (
    user_id     BIGINT PRIMARY KEY,
    minutes     INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- Recharge orders not credited because of a deposit limit or an
-- exclusion. reason names the limit (deposit.day, ...) or the exclusion;
-- until_at is when it allows the order at the earliest (0: never by
-- itself). An operator's release (released_by) lets the order be credited
-- regardless; released_at is set too when the limit itself allowed it.
CREATE TABLE protection_holds (
    order_id    BIGINT PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    reason      TEXT NOT NULL,
    until_at    BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    released_by BIGINT NOT NULL DEFAULT 0,
    released_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX protection_holds_open ON protection_holds (released_at, created_at);

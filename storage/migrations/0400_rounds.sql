-- Activation windows: one row per window with the rules its next rounds get.
-- An operator's edit applies to rounds created after it; a round keeps the
-- rules it was created with (rounds.odds_bp, min_bet, max_bet, times).
-- enabled: 1 for windows 1..KJ_WINDOW_COUNT; a disabled window finishes its
-- round and opens no new one.
CREATE TABLE round_windows (
    id            BIGINT PRIMARY KEY,          -- the window number shown to players, 1..n
    odds_bp       BIGINT NOT NULL,             -- payout multiple in 1/10000 (19800 = 1.98)
    min_bet       BIGINT NOT NULL,             -- cents
    max_bet       BIGINT NOT NULL,             -- cents
    betting_ms    BIGINT NOT NULL,
    drawing_ms    BIGINT NOT NULL,
    rest_ms       BIGINT NOT NULL,
    enabled       SMALLINT NOT NULL DEFAULT 1,
    rounds_count  BIGINT NOT NULL DEFAULT 0,   -- rounds drawn so far
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);

-- Rounds: seq orders them per window, issue is the number players see.
-- state: 0 open (betting until betting_ends_at), 1 closed (no more bets),
-- 2 drawn (digits stored, settlement under way), 3 settled.
-- seed stays secret until state >= 2; seed_hash is public from creation.
CREATE TABLE rounds (
    id               BIGINT PRIMARY KEY,
    window_id        BIGINT NOT NULL,
    seq              BIGINT NOT NULL,
    issue            TEXT NOT NULL,
    state            SMALLINT NOT NULL DEFAULT 0,
    starts_at        BIGINT NOT NULL,
    betting_ends_at  BIGINT NOT NULL,
    drawing_ends_at  BIGINT NOT NULL,
    rest_ends_at     BIGINT NOT NULL,
    odds_bp          BIGINT NOT NULL,
    min_bet          BIGINT NOT NULL,
    max_bet          BIGINT NOT NULL,
    seed             TEXT NOT NULL,
    seed_hash        TEXT NOT NULL,
    d0               SMALLINT NOT NULL DEFAULT 0,
    d1               SMALLINT NOT NULL DEFAULT 0,
    d2               SMALLINT NOT NULL DEFAULT 0,
    bets_count       BIGINT NOT NULL DEFAULT 0,
    staked           BIGINT NOT NULL DEFAULT 0,
    paid             BIGINT NOT NULL DEFAULT 0,
    settled_count    BIGINT NOT NULL DEFAULT 0,
    closed_at        BIGINT NOT NULL DEFAULT 0,
    drawn_at         BIGINT NOT NULL DEFAULT 0,
    settled_at       BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX rounds_window_seq ON rounds (window_id, seq);
CREATE UNIQUE INDEX rounds_issue ON rounds (issue);
CREATE INDEX rounds_window_state ON rounds (window_id, state, seq);

-- Bets (click records). bet_id is the client's key that makes a resend
-- idempotent; it is unique across players, so another player's key is
-- refused. id is the note number. state: 0 unmatched (not settled),
-- 1 won, 2 lost; payout is what the wallet got back (stake included).
CREATE TABLE round_bets (
    id          BIGINT PRIMARY KEY,
    bet_id      TEXT NOT NULL,
    user_id     BIGINT NOT NULL,
    round_id    BIGINT NOT NULL,
    window_id   BIGINT NOT NULL,
    issue       TEXT NOT NULL,
    content     TEXT NOT NULL,
    amount      BIGINT NOT NULL,
    state       SMALLINT NOT NULL DEFAULT 0,
    payout      BIGINT NOT NULL DEFAULT 0,
    placed_at   BIGINT NOT NULL,
    settled_at  BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX round_bets_bet_id ON round_bets (bet_id);
CREATE INDEX round_bets_round ON round_bets (round_id, state, id);
CREATE INDEX round_bets_user ON round_bets (user_id, placed_at);

-- Which node runs each window: a lease with an expiry, renewed by its
-- holder and taken over by another node once it lapses.
CREATE TABLE round_leases (
    window_id   BIGINT PRIMARY KEY,
    holder      TEXT NOT NULL DEFAULT '',
    expires_at  BIGINT NOT NULL DEFAULT 0,
    epoch       BIGINT NOT NULL DEFAULT 0
);

-- Users: accounts of players and operators.
CREATE TABLE users (
    id                  BIGINT PRIMARY KEY,
    account             TEXT NOT NULL,
    password_hash       TEXT NOT NULL,
    nickname            TEXT NOT NULL DEFAULT '',
    avatar              TEXT NOT NULL DEFAULT '',
    phone               TEXT NOT NULL DEFAULT '',
    invite_code         TEXT NOT NULL,
    superior_id         BIGINT NOT NULL DEFAULT 0,
    is_activation       SMALLINT NOT NULL DEFAULT 0,
    is_operator         SMALLINT NOT NULL DEFAULT 0,
    fund_password_hash  TEXT NOT NULL DEFAULT '',
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
);
CREATE UNIQUE INDEX users_account ON users (account);
CREATE UNIQUE INDEX users_invite_code ON users (invite_code);
CREATE INDEX users_nickname ON users (nickname);
CREATE INDEX users_superior ON users (superior_id);

-- Sign-in sessions: one row per login on a platform. Only hashes of the
-- three secrets are kept. state: 0 active, 1 signed out, 2 replaced by a
-- newer login on the same platform (its token answers 403).
CREATE TABLE auth_sessions (
    id               BIGINT PRIMARY KEY,
    user_id          BIGINT NOT NULL,
    platform         INTEGER NOT NULL,
    token_hash       TEXT NOT NULL,
    jwt_hash         TEXT NOT NULL,
    chat_token_hash  TEXT NOT NULL,
    token_expires_at BIGINT NOT NULL,
    jwt_expires_at   BIGINT NOT NULL,
    state            SMALLINT NOT NULL DEFAULT 0,
    created_at       BIGINT NOT NULL
);
CREATE UNIQUE INDEX auth_sessions_token ON auth_sessions (token_hash);
CREATE UNIQUE INDEX auth_sessions_jwt ON auth_sessions (jwt_hash);
CREATE UNIQUE INDEX auth_sessions_chat ON auth_sessions (chat_token_hash);
CREATE INDEX auth_sessions_user ON auth_sessions (user_id, platform, state);

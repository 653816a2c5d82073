-- Accounts: image captchas and SMS codes live in the store so any node can
-- check an answer another node issued; both are single use (deleted when
-- checked) and carry their own expiry. Only hashes of the answers are kept.
CREATE TABLE captchas (
    id          TEXT PRIMARY KEY,
    answer_hash TEXT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX captchas_expires ON captchas (expires_at);

-- One live code per phone and purpose (forget, setPhone); a new code
-- replaces the old one.
CREATE TABLE sms_codes (
    phone      TEXT NOT NULL,
    purpose    TEXT NOT NULL,
    code_hash  TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (phone, purpose)
);
CREATE INDEX sms_codes_expires ON sms_codes (expires_at);

-- Operators are few and /user/mine picks one per request (customer service).
CREATE INDEX users_operators ON users (id) WHERE is_operator = 1;

-- When and from where a user last signed in (shown to operators).
ALTER TABLE users ADD COLUMN last_login_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN last_login_ip TEXT NOT NULL DEFAULT '';

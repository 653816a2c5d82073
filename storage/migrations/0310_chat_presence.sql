-- Presence a user shows to friends and chat peers: when their last chat
-- socket closed (unix ms, 0 never), and whether they hide it (then others
-- see neither online nor last seen).
ALTER TABLE users ADD COLUMN last_seen_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN presence_hidden SMALLINT NOT NULL DEFAULT 0;

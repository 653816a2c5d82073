-- A notice goes to every user (user_id 0) or to one user.
ALTER TABLE notices ADD COLUMN user_id BIGINT NOT NULL DEFAULT 0;
CREATE INDEX notices_user ON notices (user_id, id);

-- Notices operators publish to every user, and who has read what. A user
-- has read a notice when its id is at or below the user's read-all mark
-- (notice ids grow with time) or when a notice_reads row says so; read-all
-- moves the mark instead of writing a row per notice.
CREATE TABLE notices (
    id          BIGINT PRIMARY KEY,
    title       TEXT NOT NULL,
    content     TEXT NOT NULL,
    created_by  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE notice_reads (
    user_id    BIGINT NOT NULL,
    notice_id  BIGINT NOT NULL,
    read_at    BIGINT NOT NULL,
    PRIMARY KEY (user_id, notice_id)
);
CREATE INDEX notice_reads_notice ON notice_reads (notice_id);

CREATE TABLE notice_read_marks (
    user_id  BIGINT PRIMARY KEY,
    upto     BIGINT NOT NULL,
    read_at  BIGINT NOT NULL
);

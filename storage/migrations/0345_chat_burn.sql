-- Settings of the SDK's last calls (docs/PROTOCOL.md "Disappearing
-- messages"): do not disturb for everything, and private chat
-- (burn after reading) of a 1:1 conversation.

-- SetGlobalRecvMessageOpt: 0 normal, 1 receive nothing, 2 receive without
-- notification; the user's, on every device.
ALTER TABLE users ADD COLUMN chat_recv_opt SMALLINT NOT NULL DEFAULT 0;

-- ResetConversationGroupAtType: the @messages up to at_seq no longer mark
-- the conversation (groupAtType) for this user, read or not.
ALTER TABLE chat_user_conversations ADD COLUMN at_seq BIGINT NOT NULL DEFAULT 0;

-- Private chat is a setting of the conversation, shared by both users of
-- a 1:1 chat: on or off, and how many seconds a message lives once read.
-- Kept on the row every conversation list already joins, so showing it
-- costs no query.
ALTER TABLE chat_conversations ADD COLUMN private_chat SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE chat_conversations ADD COLUMN burn_duration INTEGER NOT NULL DEFAULT 30;

-- The seq ranges sent while private chat was on: (from_seq, to_seq], to_seq
-- 0 while still on. Sends do not look at it: whether a message is private
-- follows from its seq, so a send costs nothing more.
CREATE TABLE chat_private_spans (
    conversation_id  TEXT NOT NULL,
    from_seq         BIGINT NOT NULL,
    to_seq           BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (conversation_id, from_seq)
);

-- How far each reader's reads were turned into burns (the next read
-- schedules what lies past it, including what a send of the reader marked
-- read on the way).
CREATE TABLE chat_burn_reads (
    conversation_id  TEXT NOT NULL,
    reader_id        BIGINT NOT NULL,
    seq              BIGINT NOT NULL,
    PRIMARY KEY (conversation_id, reader_id)
);

-- Burns due: the messages of sender_id in (from_seq, to_seq] are deleted
-- at burn_at (unix ms) by the sweep, one row per read, not per message.
CREATE TABLE chat_burns (
    id               BIGINT PRIMARY KEY,
    conversation_id  TEXT NOT NULL,
    sender_id        BIGINT NOT NULL,
    from_seq         BIGINT NOT NULL,
    to_seq           BIGINT NOT NULL,
    burn_at          BIGINT NOT NULL
);
CREATE INDEX chat_burns_due ON chat_burns (burn_at);

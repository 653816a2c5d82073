-- Reactions and edits of chat messages (docs/PROTOCOL.md "Reactions and
-- edits"). Each change is also a notice with a seq in the conversation
-- (content types 2901, 2902) so an offline device catches up by seq; these
-- tables are the current state a history page is folded with, so a reload
-- shows it without replaying the notices.

-- One row per (message, emoji, user who reacted with it).
CREATE TABLE chat_message_reactions (
    conversation_id  TEXT NOT NULL,
    seq              BIGINT NOT NULL,   -- the message reacted to
    emoji            TEXT NOT NULL,
    user_id          BIGINT NOT NULL,
    created_at       BIGINT NOT NULL,
    PRIMARY KEY (conversation_id, seq, emoji, user_id)
);

-- The last edit of a message; its text is in chat_messages.content.
CREATE TABLE chat_message_edits (
    conversation_id  TEXT NOT NULL,
    seq              BIGINT NOT NULL,
    edited_at        BIGINT NOT NULL,
    edit_count       INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (conversation_id, seq)
);

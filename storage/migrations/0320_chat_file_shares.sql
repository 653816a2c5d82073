-- Who may fetch a chat attachment: its uploader, and the members of every
-- conversation it was sent in (si_<a>_<b>, sg_<group>, cs_<visitor> for
-- customer service). A share is recorded when a message naming the file is
-- sent; access is decided at each fetch from the conversation's current
-- members, so leaving a group ends it.
CREATE TABLE chat_file_shares (
    file_id          BIGINT NOT NULL,
    conversation_id  TEXT NOT NULL,
    PRIMARY KEY (file_id, conversation_id)
);

-- The key that signs attachment URLs when KJ_MEDIA_SECRETS is empty: made
-- once by whichever node starts first, so every node of a cluster signs
-- and checks alike.
CREATE TABLE media_secrets (
    id      INT PRIMARY KEY,
    secret  TEXT NOT NULL
);

-- Chat: conversations, messages, per-user conversation state, friends,
-- blacklist, groups (and channels), members, applications, uploaded files.
-- User and group ids are users.id / chat_groups.id (BIGINT); the protocol
-- carries them as decimal strings.

-- One row per conversation: a 1:1 chat (si_<a>_<b>) or a group or channel
-- (sg_<groupID>). max_seq is the conversation's seq counter; a send locks
-- this row, so seqs are assigned in the store, in the persisting
-- transaction, whichever node accepted the send.
CREATE TABLE chat_conversations (
    id            TEXT PRIMARY KEY,
    session_type  SMALLINT NOT NULL,           -- 1 single, 3 group
    group_id      BIGINT NOT NULL DEFAULT 0,
    max_seq       BIGINT NOT NULL DEFAULT 0,
    latest_time   BIGINT NOT NULL DEFAULT 0,   -- send time of the message at max_seq
    created_at    BIGINT NOT NULL
);

-- Messages, stored once per conversation (never copied per member).
-- content is the JSON of the typed element (textElem, pictureElem, ...).
CREATE TABLE chat_messages (
    conversation_id    TEXT NOT NULL,
    seq                BIGINT NOT NULL,
    server_msg_id      TEXT NOT NULL,
    client_msg_id      TEXT NOT NULL,
    send_id            BIGINT NOT NULL,
    recv_id            BIGINT NOT NULL DEFAULT 0,
    group_id           BIGINT NOT NULL DEFAULT 0,
    session_type       SMALLINT NOT NULL,
    msg_from           SMALLINT NOT NULL,      -- 100 user, 200 system
    content_type       INTEGER NOT NULL,
    content            TEXT NOT NULL,
    sender_nickname    TEXT NOT NULL DEFAULT '',
    sender_face_url    TEXT NOT NULL DEFAULT '',
    sender_platform_id SMALLINT NOT NULL DEFAULT 0,
    create_time        BIGINT NOT NULL,
    send_time          BIGINT NOT NULL,
    ex                 TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (conversation_id, seq)
);
-- A resend with the same clientMsgID finds the stored message.
CREATE UNIQUE INDEX chat_messages_client ON chat_messages (conversation_id, client_msg_id);

-- Messages one user deleted for themselves (DeleteMessage).
CREATE TABLE chat_message_deletions (
    user_id          BIGINT NOT NULL,
    conversation_id  TEXT NOT NULL,
    seq              BIGINT NOT NULL,
    PRIMARY KEY (user_id, conversation_id, seq)
);

-- One row per (user, conversation): read position, cleared range, pin,
-- draft. A user sees seqs in (min_seq, end_seq or max_seq]; end_seq is set
-- when a member leaves a group. The row is hidden while hide_seq >= the
-- visible max seq (hide_seq -1 = shown).
CREATE TABLE chat_user_conversations (
    user_id          BIGINT NOT NULL,
    conversation_id  TEXT NOT NULL,
    peer_id          BIGINT NOT NULL DEFAULT 0,   -- the other user of a 1:1 chat
    group_id         BIGINT NOT NULL DEFAULT 0,
    read_seq         BIGINT NOT NULL DEFAULT 0,
    min_seq          BIGINT NOT NULL DEFAULT 0,
    end_seq          BIGINT NOT NULL DEFAULT 0,
    hide_seq         BIGINT NOT NULL DEFAULT -1,
    is_pinned        SMALLINT NOT NULL DEFAULT 0,
    draft_text       TEXT NOT NULL DEFAULT '',
    draft_time       BIGINT NOT NULL DEFAULT 0,
    recv_opt         SMALLINT NOT NULL DEFAULT 0,
    created_at       BIGINT NOT NULL,
    PRIMARY KEY (user_id, conversation_id)
);

-- Friendship is stored in both directions; remark belongs to the owner.
CREATE TABLE chat_friends (
    owner_id     BIGINT NOT NULL,
    friend_id    BIGINT NOT NULL,
    remark       TEXT NOT NULL DEFAULT '',
    add_source   SMALLINT NOT NULL DEFAULT 0,
    operator_id  BIGINT NOT NULL DEFAULT 0,
    ex           TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (owner_id, friend_id)
);

-- Friend applications; handle_result 0 pending, 1 accepted, -1 refused.
CREATE TABLE chat_friend_requests (
    from_id        BIGINT NOT NULL,
    to_id          BIGINT NOT NULL,
    req_msg        TEXT NOT NULL,
    handle_result  SMALLINT NOT NULL DEFAULT 0,
    handle_msg     TEXT NOT NULL DEFAULT '',
    handler_id     BIGINT NOT NULL DEFAULT 0,
    ex             TEXT NOT NULL DEFAULT '',
    created_at     BIGINT NOT NULL,
    handled_at     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (from_id, to_id)
);
CREATE INDEX chat_friend_requests_to ON chat_friend_requests (to_id);

CREATE TABLE chat_blacklist (
    owner_id    BIGINT NOT NULL,
    blocked_id  BIGINT NOT NULL,
    ex          TEXT NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (owner_id, blocked_id)
);

-- Groups and channels (group_type 2 group, 3 channel). status 0 normal,
-- 2 dismissed, 3 muted (only owner and admins speak).
-- need_verification 0 applications need approval, invitations do not;
-- 1 both need approval; 2 anyone may join.
CREATE TABLE chat_groups (
    id                        BIGINT PRIMARY KEY,
    name                      TEXT NOT NULL,
    face_url                  TEXT NOT NULL DEFAULT '',
    introduction              TEXT NOT NULL DEFAULT '',
    notification              TEXT NOT NULL DEFAULT '',
    notification_user_id      BIGINT NOT NULL DEFAULT 0,
    notification_update_time  BIGINT NOT NULL DEFAULT 0,
    owner_id                  BIGINT NOT NULL,
    creator_id                BIGINT NOT NULL,
    group_type                SMALLINT NOT NULL DEFAULT 2,
    need_verification         SMALLINT NOT NULL DEFAULT 0,
    look_member_info          SMALLINT NOT NULL DEFAULT 0,
    apply_member_friend       SMALLINT NOT NULL DEFAULT 0,
    status                    SMALLINT NOT NULL DEFAULT 0,
    member_count              INTEGER NOT NULL DEFAULT 0,
    ex                        TEXT NOT NULL DEFAULT '',
    created_at                BIGINT NOT NULL,
    updated_at                BIGINT NOT NULL
);
CREATE INDEX chat_groups_name ON chat_groups (name);

-- Members; role_level 20 member, 60 admin, 100 owner. muted_until is the
-- unix ms deadline of a member mute, 0 when not muted (it is reset to 0 when
-- the unmute has been announced, so a restart finds the ones still due).
CREATE TABLE chat_group_members (
    group_id     BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    role_level   SMALLINT NOT NULL DEFAULT 20,
    nickname     TEXT NOT NULL DEFAULT '',
    face_url     TEXT NOT NULL DEFAULT '',
    muted_until  BIGINT NOT NULL DEFAULT 0,
    join_time    BIGINT NOT NULL,
    join_source  SMALLINT NOT NULL DEFAULT 0,
    inviter_id   BIGINT NOT NULL DEFAULT 0,
    operator_id  BIGINT NOT NULL DEFAULT 0,
    ex           TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX chat_group_members_user ON chat_group_members (user_id);
CREATE INDEX chat_group_members_muted ON chat_group_members (muted_until) WHERE muted_until > 0;

-- Applications to join a group (or invitations that need approval).
CREATE TABLE chat_group_requests (
    group_id       BIGINT NOT NULL,
    user_id        BIGINT NOT NULL,
    req_msg        TEXT NOT NULL DEFAULT '',
    join_source    SMALLINT NOT NULL DEFAULT 0,
    inviter_id     BIGINT NOT NULL DEFAULT 0,
    handle_result  SMALLINT NOT NULL DEFAULT 0,
    handle_msg     TEXT NOT NULL DEFAULT '',
    handler_id     BIGINT NOT NULL DEFAULT 0,
    ex             TEXT NOT NULL DEFAULT '',
    created_at     BIGINT NOT NULL,
    handled_at     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX chat_group_requests_user ON chat_group_requests (user_id);

-- Files uploaded for chat messages; media URLs in messages must name one.
CREATE TABLE chat_files (
    id            BIGINT PRIMARY KEY,
    owner_id      BIGINT NOT NULL,
    path          TEXT NOT NULL,             -- under the files directory: chat/<owner>/<id>.<ext>
    content_type  TEXT NOT NULL,
    size          BIGINT NOT NULL,
    name          TEXT NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX chat_files_path ON chat_files (path);

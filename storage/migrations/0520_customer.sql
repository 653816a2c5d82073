-- Customer-service chat. A visitor is one person talking to customer
-- service, with or without an account (user_id 0 until a signed-in user is
-- linked). Visitors hold a secret visitor key (cookie kj_visitor or header
-- X-Visitor-Id); only its SHA-256 is stored, and one visitor may have
-- several keys (a signed-in user on several devices). agent_id is the
-- operator account answering (0: none yet).
CREATE TABLE customer_visitors (
    id               BIGINT PRIMARY KEY,
    user_id          BIGINT NOT NULL DEFAULT 0,
    agent_id         BIGINT NOT NULL DEFAULT 0,
    created_at       BIGINT NOT NULL,
    last_message_at  BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX customer_visitors_user ON customer_visitors (user_id) WHERE user_id <> 0;
CREATE INDEX customer_visitors_agent ON customer_visitors (agent_id, last_message_at);

CREATE TABLE customer_visitor_keys (
    key_hash    TEXT PRIMARY KEY,
    visitor_id  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX customer_visitor_keys_visitor ON customer_visitor_keys (visitor_id);

-- from_agent 0: written by the visitor, 1: by an agent (agent_id).
-- status 1: sent, 2: read by the other side.
CREATE TABLE customer_messages (
    id          BIGINT PRIMARY KEY,
    visitor_id  BIGINT NOT NULL,
    from_agent  SMALLINT NOT NULL,
    agent_id    BIGINT NOT NULL DEFAULT 0,
    content     TEXT NOT NULL,
    status      SMALLINT NOT NULL DEFAULT 1,
    created_at  BIGINT NOT NULL
);
CREATE INDEX customer_messages_visitor ON customer_messages (visitor_id, id);

-- Customer service's desk. customer_agents: an operator's "taking chats"
-- switch and the name players see in the chat header ('' : the app's
-- service name); an operator without a row takes no chats. A visitor's
-- waiting_since is when the first visitor message an agent has not yet
-- answered was written (0: nothing waits); an enquiry waiting longer than
-- KJ_CUSTOMER_UNCLAIMED_AFTER is shown to every agent. A message's context
-- is what the visitor asked about (a listing, a video, an amount), as JSON
-- ('' : none).
CREATE TABLE customer_agents (
    user_id       BIGINT PRIMARY KEY,
    taking        SMALLINT NOT NULL DEFAULT 0,
    display_name  TEXT NOT NULL DEFAULT '',
    updated_at    BIGINT NOT NULL DEFAULT 0
);
ALTER TABLE customer_visitors ADD COLUMN waiting_since BIGINT NOT NULL DEFAULT 0;
CREATE INDEX customer_visitors_waiting ON customer_visitors (waiting_since) WHERE waiting_since <> 0;
ALTER TABLE customer_messages ADD COLUMN context TEXT NOT NULL DEFAULT '';

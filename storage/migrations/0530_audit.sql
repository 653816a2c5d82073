-- Every operator action: who (operator_id), what (action, target, detail
-- as JSON) and when. Written in the transaction of the action itself.
CREATE TABLE audit_log (
    id           BIGINT PRIMARY KEY,
    operator_id  BIGINT NOT NULL,
    action       TEXT NOT NULL,
    target       TEXT NOT NULL DEFAULT '',
    detail       TEXT NOT NULL DEFAULT '{}',
    created_at   BIGINT NOT NULL
);
CREATE INDEX audit_log_action ON audit_log (action, id);
CREATE INDEX audit_log_operator ON audit_log (operator_id, id);

-- One row per running kj process: how many change events about users'
-- reads it has published on the bus (storage/userview), so another node can
-- tell that the bus lost one, or that a node wrote while cut off from the
-- bus. The row named 'manual' is for hand-written changes: raising its seq
-- makes every node drop its copies (docs/OPERATIONS.md).
CREATE TABLE change_marks (
    origin TEXT PRIMARY KEY,
    seq BIGINT NOT NULL,
    at_ms BIGINT NOT NULL
);
INSERT INTO change_marks (origin, seq, at_ms) VALUES ('manual', 0, 0);

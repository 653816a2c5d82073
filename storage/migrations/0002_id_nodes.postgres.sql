-- Node numbers for ids (storage.NewID puts one in every id): each kj
-- process that writes takes the next number when it starts, so two nodes
-- of a cluster never make the same id in the same millisecond. The 1024
-- numbers wrap around; a process would have to outlive 1023 later starts
-- to share its number. The embedded store has one process and no sequence.
CREATE SEQUENCE id_node_seq MINVALUE 0 MAXVALUE 1023 START 1 CYCLE;

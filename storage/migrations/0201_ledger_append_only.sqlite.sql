-- Transfers and entries are append-only: a correction is a reversing
-- transfer, never an edit. The store itself refuses UPDATE and DELETE.
CREATE TRIGGER ledger_transfers_no_update BEFORE UPDATE ON ledger_transfers
BEGIN SELECT RAISE(ABORT, 'ledger: transfers are append-only'); END;
CREATE TRIGGER ledger_transfers_no_delete BEFORE DELETE ON ledger_transfers
BEGIN SELECT RAISE(ABORT, 'ledger: transfers are append-only'); END;
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger: entries are append-only'); END;
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger: entries are append-only'); END;

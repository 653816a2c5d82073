-- Every batch rewrites the balance of each account it touches. Leaving
-- room on each page lets those updates stay HOT (same page, no index
-- change), which keeps the accounts table and its index small.
ALTER TABLE ledger_accounts SET (fillfactor = 50);

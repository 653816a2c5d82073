package storage

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strings"
)

// LedgerReport is the outcome of CheckLedger.
type LedgerReport struct {
	Accounts  int
	Transfers int
	Entries   int
	// Total is the sum of all balances; it must be zero.
	Total    *big.Int
	Problems []LedgerProblem
}

// LedgerProblem is one broken invariant.
type LedgerProblem struct {
	AccountID int64 // 0 when the problem is not about one account
	Kind      AccountKind
	What      string
}

func (p LedgerProblem) String() string {
	if p.AccountID == 0 {
		return p.What
	}
	return fmt.Sprintf("account %d (%s): %s", p.AccountID, accountRefByID(p.AccountID), p.What)
}

// OK reports whether every invariant holds.
func (r LedgerReport) OK() bool { return len(r.Problems) == 0 }

func (r LedgerReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d accounts, %d transfers, %d entries, balances sum to %s", r.Accounts, r.Transfers, r.Entries, r.Total)
	if r.OK() {
		b.WriteString(": ok")
		return b.String()
	}
	fmt.Fprintf(&b, ": %d problem(s)", len(r.Problems))
	for _, p := range r.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// CheckLedger verifies the ledger's invariants: the balances of all
// accounts sum to zero; every stored balance equals the sum of its entries;
// no wallet (nor holding account) is negative; every transfer has exactly
// its two entries (-amount on the debit account, +amount on the credit
// account) and every entry belongs to a transfer and an account. Each query
// reads one snapshot, so it may run beside a live writer.
func CheckLedger(ctx context.Context, q Querier) (LedgerReport, error) {
	r := LedgerReport{Total: new(big.Int)}
	add := func(id int64, kind AccountKind, format string, args ...any) {
		r.Problems = append(r.Problems, LedgerProblem{AccountID: id, Kind: kind, What: fmt.Sprintf(format, args...)})
	}

	// Balances against their entries, in one statement so both sides come
	// from the same snapshot.
	rows, err := q.Query(ctx, `SELECT a.id, a.kind, a.owner_id, a.balance, COALESCE(e.total, '0'), COALESCE(e.n, 0)
		FROM ledger_accounts a
		LEFT JOIN (SELECT account_id, CAST(SUM(amount) AS TEXT) AS total, COUNT(*) AS n FROM ledger_entries GROUP BY account_id) e
		ON e.account_id = a.id
		ORDER BY a.id`)
	if err != nil {
		return r, err
	}
	for rows.Next() {
		var id, owner, bal, n int64
		var kind int16
		var sum big.Int
		var total string // SUM of BIGINT is NUMERIC on PostgreSQL: read as text, exact
		if err := rows.Scan(&id, &kind, &owner, &bal, &total, &n); err != nil {
			rows.Close()
			return r, err
		}
		if _, ok := sum.SetString(total, 10); !ok {
			rows.Close()
			return r, fmt.Errorf("ledger check: entry sum %q of account %d", total, id)
		}
		k := AccountKind(kind)
		r.Accounts++
		r.Entries += int(n)
		r.Total.Add(r.Total, big.NewInt(bal))
		if sum.Cmp(big.NewInt(bal)) != 0 {
			add(id, k, "stored balance %d, entries sum to %s", bal, &sum)
		}
		if k.NoOverdraft() && bal < 0 {
			add(id, k, "negative balance %d", bal)
		}
		if (k == AccountWallet) != (id > maxSystemAccount) || (k == AccountWallet && owner != id) {
			add(id, k, "kind %d does not match its id (owner %d)", kind, owner)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return r, err
	}
	if r.Total.Sign() != 0 {
		add(0, 0, "balances of all accounts sum to %s, not 0", r.Total)
	}

	// Entries of accounts that do not exist.
	orphans, err := int64Rows(1)(q.Query(ctx, `SELECT DISTINCT account_id FROM ledger_entries
		WHERE account_id NOT IN (SELECT id FROM ledger_accounts)`))
	if err != nil {
		return r, err
	}
	for _, row := range orphans {
		add(row[0], 0, "has entries but no account row")
	}

	// Every transfer is exactly its two postings.
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM ledger_transfers`).Scan(&r.Transfers); err != nil {
		return r, err
	}
	bad, err := int64Rows(4)(q.Query(ctx, `SELECT t.id, COUNT(e.transfer_id),
			COALESCE(SUM(CASE WHEN e.account_id = t.debit_account AND e.amount = -t.amount THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN e.account_id = t.credit_account AND e.amount = t.amount THEN 1 ELSE 0 END), 0)
		FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id
		GROUP BY t.id, t.debit_account, t.credit_account, t.amount
		HAVING COUNT(e.transfer_id) <> 2
			OR COALESCE(SUM(CASE WHEN e.account_id = t.debit_account AND e.amount = -t.amount THEN 1 ELSE 0 END), 0) <> 1
			OR COALESCE(SUM(CASE WHEN e.account_id = t.credit_account AND e.amount = t.amount THEN 1 ELSE 0 END), 0) <> 1
		ORDER BY t.id LIMIT 100`))
	if err != nil {
		return r, err
	}
	for _, row := range bad {
		add(0, 0, "transfer %d has %d entries (%d matching debit, %d matching credit), want its two postings", row[0], row[1], row[2], row[3])
	}
	strays, err := int64Rows(1)(q.Query(ctx, `SELECT DISTINCT e.transfer_id FROM ledger_entries e
		WHERE e.transfer_id NOT IN (SELECT id FROM ledger_transfers) ORDER BY e.transfer_id LIMIT 100`))
	if err != nil {
		return r, err
	}
	for _, row := range strays {
		add(0, 0, "entries of transfer %d, which does not exist", row[0])
	}
	sort.SliceStable(r.Problems, func(i, j int) bool { return r.Problems[i].AccountID < r.Problems[j].AccountID })
	return r, nil
}

// int64Rows reads rows of n integer columns.
func int64Rows(n int) func(rows Rows, err error) ([][]int64, error) {
	return func(rows Rows, err error) ([][]int64, error) {
		return CollectRows(rows, err, func(r Rows) ([]int64, error) {
			row := make([]int64, n)
			dest := make([]any, n)
			for i := range row {
				dest[i] = &row[i]
			}
			return row, r.Scan(dest...)
		})
	}
}

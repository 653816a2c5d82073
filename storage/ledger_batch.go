package storage

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// CommitLedgerBatch writes ops in one transaction (group commit) and returns
// one OpResult per op, in order. Ops are applied one after the other against
// running balances, so a later op sees the effect of an earlier one of the
// same batch; an op that fails (insufficient balance, reused key, failing
// hook) is left out and the others still commit. Every account touched gets
// one balance UPDATE for the whole batch, however many transfers hit it —
// which is what keeps hot accounts (the house, bets in play) cheap.
//
// The returned error is a failure of the batch as a whole (store
// unreachable, commit refused): then nothing of it is known to be written
// and every submitter should retry with the same idempotency keys.
// Conflicts with a concurrent writer on another node (same key, changed
// balance, deadlock) are retried here first.
func CommitLedgerBatch(ctx context.Context, db DB, now int64, ops []Op, maxTransfers int) ([]OpResult, error) {
	for attempt := 1; ; attempt++ {
		b := newLedgerBatch(ops, now, maxTransfers)
		// A retry reads its balances under row locks: optimistic reads keep
		// writers parallel, but on an account other writers keep moving they
		// can lose every time, and the batch would fail although nothing is
		// wrong with it. Locked, the recomputed batch cannot be overtaken.
		b.lockAccounts = attempt > 1
		err := db.Tx(ctx, func(tx Tx) error { return b.run(ctx, tx) })
		if err == nil {
			return b.out, nil
		}
		if attempt < 5 && retryableLedgerError(err) && ctx.Err() == nil {
			continue
		}
		return nil, err
	}
}

// errBalanceMoved: another writer changed a checked balance between our
// read and our update; the batch is recomputed.
var errBalanceMoved = errors.New("ledger: balance changed by a concurrent writer")

func retryableLedgerError(err error) bool {
	if errors.Is(err, errBalanceMoved) || errors.Is(err, ErrConflict) {
		return true
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

type ledgerAccount struct {
	kind  AccountKind
	start int64 // balance as read
	bal   int64 // running balance within the batch
}

type batchKey struct {
	t  Transfer
	id int64
}

type ledgerBatch struct {
	ops          []Op
	now          int64
	maxTransfers int
	out          []OpResult

	lockAccounts bool // read balances with FOR UPDATE (PostgreSQL), in id order

	existing map[string]StoredTransfer // keys already in the store
	inBatch  map[string]batchKey       // keys written by earlier ops of this batch
	accounts map[int64]*ledgerAccount

	// rows to write
	tIDs, tDebit, tCredit, tAmount []int64
	tKey, tKind, tRef              []string
	eAccount, eTransfer, eAmount   []int64
}

func newLedgerBatch(ops []Op, now int64, maxTransfers int) *ledgerBatch {
	return &ledgerBatch{ops: ops, now: now, maxTransfers: maxTransfers, out: make([]OpResult, len(ops)),
		inBatch: map[string]batchKey{}, accounts: map[int64]*ledgerAccount{}}
}

func (b *ledgerBatch) run(ctx context.Context, tx Tx) error {
	touchWallets(tx, b.ops)
	var keys []string
	ids := map[int64]bool{}
	for i, op := range b.ops {
		if err := ValidateOp(op, b.maxTransfers); err != nil {
			b.out[i].Err = err
			continue
		}
		for _, t := range op.Transfers {
			keys = append(keys, t.IdempotencyKey)
			ids[t.Debit.ID()], ids[t.Credit.ID()] = true, true
		}
	}
	if len(keys) == 0 {
		return nil
	}
	accountIDs := make([]int64, 0, len(ids))
	for id := range ids {
		accountIDs = append(accountIDs, id)
	}
	sort.Slice(accountIDs, func(i, j int) bool { return accountIDs[i] < accountIDs[j] })

	if err := b.load(ctx, tx, keys, accountIDs); err != nil {
		return err
	}
	var missing []int64
	for _, id := range accountIDs {
		if b.accounts[id] == nil && id > maxSystemAccount {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		if err := b.openWallets(ctx, tx, missing); err != nil {
			return err
		}
	}

	for i, op := range b.ops {
		if b.out[i].Err != nil {
			continue
		}
		if err := b.apply(ctx, tx, i, op); err != nil {
			return err
		}
	}
	if len(b.tIDs) == 0 {
		return nil
	}
	return b.write(ctx, tx)
}

// apply runs one op against the running balances. It returns an error only
// for a failure of the whole transaction; the op's own failure goes to out.
func (b *ledgerBatch) apply(ctx context.Context, tx Tx, i int, op Op) error {
	res := make([]Result, len(op.Transfers))
	replayed := 0
	for j, t := range op.Transfers {
		if s, ok := b.existing[t.IdempotencyKey]; ok {
			if !t.sameBody(s.Transfer) {
				b.out[i].Err = fmt.Errorf("%w: key %q", ErrKeyReused, t.IdempotencyKey)
				return nil
			}
			res[j] = Result{TransferID: s.ID, CreatedAt: s.CreatedAt, Replayed: true}
			replayed++
		} else if k, ok := b.inBatch[t.IdempotencyKey]; ok {
			if !t.sameBody(k.t) {
				b.out[i].Err = fmt.Errorf("%w: key %q", ErrKeyReused, t.IdempotencyKey)
				return nil
			}
			res[j] = Result{TransferID: k.id, CreatedAt: b.now, Replayed: true}
			replayed++
		}
	}
	if replayed == len(op.Transfers) {
		b.out[i].Results = res
		return nil
	}
	if replayed > 0 {
		// The transfers of an op commit together, so a partly known op
		// reuses keys of some other op.
		b.out[i].Err = fmt.Errorf("%w: %d of %d keys of the operation were used before", ErrKeyReused, replayed, len(op.Transfers))
		return nil
	}

	type undo struct {
		a   *ledgerAccount
		bal int64
	}
	var undos []undo
	rollback := func() {
		for k := len(undos) - 1; k >= 0; k-- {
			undos[k].a.bal = undos[k].bal
		}
	}
	for j, t := range op.Transfers {
		d, c := b.accounts[t.Debit.ID()], b.accounts[t.Credit.ID()]
		var err error
		switch {
		case d == nil:
			err = fmt.Errorf("%w: %v", ErrUnknownAccount, t.Debit)
		case c == nil:
			err = fmt.Errorf("%w: %v", ErrUnknownAccount, t.Credit)
		case d.kind.NoOverdraft() && d.bal < t.Amount:
			err = fmt.Errorf("%w: %v has %d, needs %d", ErrInsufficientBalance, t.Debit, d.bal, t.Amount)
		case c.bal > math.MaxInt64-t.Amount || d.bal < math.MinInt64+t.Amount:
			err = fmt.Errorf("%w: balance would overflow", ErrInvalidTransfer)
		}
		if err != nil {
			rollback()
			b.out[i].Err = err
			return nil
		}
		undos = append(undos, undo{d, d.bal}, undo{c, c.bal})
		d.bal -= t.Amount
		c.bal += t.Amount
		res[j] = Result{TransferID: NewID(), CreatedAt: b.now, DebitBalance: d.bal, CreditBalance: c.bal}
	}
	if op.Hook != nil {
		if _, err := tx.Exec(ctx, `SAVEPOINT ledger_op`); err != nil {
			return err
		}
		if herr := op.Hook(ctx, tx); herr != nil {
			if _, err := tx.Exec(ctx, `ROLLBACK TO SAVEPOINT ledger_op`); err != nil {
				return fmt.Errorf("ledger: undo a failed hook: %w (hook: %v)", err, herr)
			}
			if _, err := tx.Exec(ctx, `RELEASE SAVEPOINT ledger_op`); err != nil {
				return err
			}
			rollback()
			b.out[i].Err = herr
			return nil
		}
		if _, err := tx.Exec(ctx, `RELEASE SAVEPOINT ledger_op`); err != nil {
			return err
		}
	}
	for j, t := range op.Transfers {
		id := res[j].TransferID
		b.inBatch[t.IdempotencyKey] = batchKey{t: t, id: id}
		b.tIDs = append(b.tIDs, id)
		b.tKey = append(b.tKey, t.IdempotencyKey)
		b.tDebit = append(b.tDebit, t.Debit.ID())
		b.tCredit = append(b.tCredit, t.Credit.ID())
		b.tAmount = append(b.tAmount, t.Amount)
		b.tKind = append(b.tKind, t.Kind)
		b.tRef = append(b.tRef, t.Ref)
		b.eAccount = append(b.eAccount, t.Debit.ID(), t.Credit.ID())
		b.eTransfer = append(b.eTransfer, id, id)
		b.eAmount = append(b.eAmount, -t.Amount, t.Amount)
	}
	b.out[i].Results = res
	return nil
}

// load reads the transfers already written under keys and the accounts.
func (b *ledgerBatch) load(ctx context.Context, tx Tx, keys []string, accountIDs []int64) error {
	b.existing = map[string]StoredTransfer{}
	if ptx, ok := PgxTx(tx); ok {
		return b.loadPG(ctx, ptx, keys, accountIDs)
	}
	for _, chunk := range chunks(len(keys), 500) {
		part := keys[chunk[0]:chunk[1]]
		rows, err := tx.Query(ctx, `SELECT id, idempotency_key, debit_account, credit_account, amount, kind, ref, created_at
			FROM ledger_transfers WHERE idempotency_key IN (`+placeholders(len(part), 1)+`)`, anySlice(part)...)
		if err != nil {
			return err
		}
		if err := b.scanTransfers(rows); err != nil {
			return err
		}
	}
	return b.loadAccounts(ctx, tx, accountIDs)
}

func (b *ledgerBatch) loadAccounts(ctx context.Context, tx Tx, ids []int64) error {
	if tx.Dialect() == Postgres {
		rows, err := tx.Query(ctx, `SELECT id, kind, balance FROM ledger_accounts WHERE id = ANY($1)`, ids)
		if err != nil {
			return err
		}
		return b.scanAccounts(rows)
	}
	for _, chunk := range chunks(len(ids), 500) {
		part := ids[chunk[0]:chunk[1]]
		rows, err := tx.Query(ctx, `SELECT id, kind, balance FROM ledger_accounts WHERE id IN (`+placeholders(len(part), 1)+`)`, anySlice(part)...)
		if err != nil {
			return err
		}
		if err := b.scanAccounts(rows); err != nil {
			return err
		}
	}
	return nil
}

func (b *ledgerBatch) scanTransfers(rows Rows) error {
	defer rows.Close()
	for rows.Next() {
		var s StoredTransfer
		var debit, credit int64
		if err := rows.Scan(&s.ID, &s.IdempotencyKey, &debit, &credit, &s.Amount, &s.Kind, &s.Ref, &s.CreatedAt); err != nil {
			return err
		}
		s.Debit, s.Credit = accountRefByID(debit), accountRefByID(credit)
		b.existing[s.IdempotencyKey] = s
	}
	return rows.Err()
}

func (b *ledgerBatch) scanAccounts(rows Rows) error {
	defer rows.Close()
	for rows.Next() {
		var id, bal int64
		var kind int16
		if err := rows.Scan(&id, &kind, &bal); err != nil {
			return err
		}
		b.accounts[id] = &ledgerAccount{kind: AccountKind(kind), start: bal, bal: bal}
	}
	return rows.Err()
}

// openWallets creates the wallets of existing users among ids (a wallet is
// opened by its first transfer) and loads them; ids that are not users stay
// unknown.
func (b *ledgerBatch) openWallets(ctx context.Context, tx Tx, ids []int64) error {
	for _, chunk := range chunks(len(ids), 500) {
		part := ids[chunk[0]:chunk[1]]
		args := append([]any{b.now}, anySlice(part)...)
		if _, err := tx.Exec(ctx, `INSERT INTO ledger_accounts (id, kind, owner_id, balance, created_at, updated_at)
			SELECT id, 1, id, 0, $1, $1 FROM users WHERE id IN (`+placeholders(len(part), 2)+`)
			ON CONFLICT (id) DO NOTHING`, args...); err != nil {
			return err
		}
	}
	return b.loadAccounts(ctx, tx, ids)
}

// moved returns the accounts whose balance the batch changed, in id order
// (one lock order for every writer, so two nodes never deadlock), and each
// one's change.
func (b *ledgerBatch) moved() (ids, deltas []int64) {
	ids = make([]int64, 0, len(b.accounts))
	for id, a := range b.accounts {
		if a.bal != a.start {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	deltas = make([]int64, len(ids))
	for i, id := range ids {
		a := b.accounts[id]
		deltas[i] = a.bal - a.start
	}
	return ids, deltas
}

// write inserts the new transfers and entries and moves each touched
// balance once.
func (b *ledgerBatch) write(ctx context.Context, tx Tx) error {
	ids, deltas := b.moved()
	if ptx, ok := PgxTx(tx); ok {
		return b.writePG(ctx, ptx, ids, deltas)
	}
	err := insertRows(ctx, tx, `INSERT INTO ledger_transfers (id, idempotency_key, debit_account, credit_account, amount, kind, ref, created_at)
			VALUES `, len(b.tIDs), 8, 100, func(args []any, i int) []any {
		return append(args, b.tIDs[i], b.tKey[i], b.tDebit[i], b.tCredit[i], b.tAmount[i], b.tKind[i], b.tRef[i], b.now)
	})
	if err != nil {
		return err
	}
	err = insertRows(ctx, tx, `INSERT INTO ledger_entries (account_id, transfer_id, amount, created_at) VALUES `,
		len(b.eAccount), 4, 200, func(args []any, i int) []any {
			return append(args, b.eAccount[i], b.eTransfer[i], b.eAmount[i], b.now)
		})
	if err != nil {
		return err
	}
	for i, id := range ids {
		if _, err := tx.Exec(ctx, `UPDATE ledger_accounts SET balance = balance + $1, updated_at = $2 WHERE id = $3`,
			deltas[i], b.now, id); err != nil {
			return err
		}
	}
	return nil
}

// insertRows runs insert (a statement ending in VALUES) for n rows of
// width columns, at most per rows a statement; row appends the values of
// row i to args.
func insertRows(ctx context.Context, q Querier, insert string, n, width, per int, row func(args []any, i int) []any) error {
	for _, c := range chunks(n, per) {
		args := make([]any, 0, (c[1]-c[0])*width)
		var sb strings.Builder
		sb.WriteString(insert)
		for i := c[0]; i < c[1]; i++ {
			if i > c[0] {
				sb.WriteByte(',')
			}
			sb.WriteString("(" + placeholders(width, len(args)+1) + ")")
			args = row(args, i)
		}
		if _, err := q.Exec(ctx, sb.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// chunks splits 0..n into [from, to) ranges of at most size.
func chunks(n, size int) [][2]int {
	var out [][2]int
	for i := 0; i < n; i += size {
		out = append(out, [2]int{i, min(i+size, n)})
	}
	return out
}

// placeholders returns "$from, $from+1, ..." n times.
func placeholders(n, from int) string {
	b := make([]byte, 0, n*5)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(from+i), 10)
	}
	return string(b)
}

func anySlice[T any](v []T) []any {
	out := make([]any, len(v))
	for i := range v {
		out[i] = v[i]
	}
	return out
}

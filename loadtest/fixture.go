package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"kj/auth"
	"kj/internal/clock"
	"kj/storage"
)

// The bulk fixture. Signing up through the API costs an argon2id hash per
// account (~20 ms of a core here), so 18,000 sign-ups would take minutes of
// the very CPU being measured. The fixture writes the same rows the API
// would, straight into the store: users with one shared argon2id hash of a
// known password (so HTTP sign-in still works for the k6 login storm), a
// signed-in session per user made by auth.Sessions.SignIn (the code the
// sign-in route runs), and optionally a funded wallet through the ledger's
// batch commit. It runs before `kj serve` starts on the schema.
//
//	go run ./loadtest/cmd/kjload fixture -users 10000 -fund 100000 -out accounts.json

// FixturePassword is the password of every fixture account.
const FixturePassword = "load-abc123"

// Account is one fixture user with a live sign-in.
type Account struct {
	ID        int64  `json:"userId,string"` // a string: JavaScript numbers cannot hold every int64
	Account   string `json:"account"`
	Password  string `json:"password"`
	Token     string `json:"token"`
	JWT       string `json:"jwt"`
	ChatToken string `json:"chatToken"`
}

// FixtureOptions size the fixture.
type FixtureOptions struct {
	Users    int
	Prefix   string // account names are <prefix><n>; "ld" when empty
	Platform int    // sign-in platform; 5 (web) when 0
	Fund     int64  // cents credited to every wallet; 0 leaves wallets empty
	TokenTTL time.Duration
}

// LoadUsers writes the fixture's users, sessions and (optionally) funds.
func LoadUsers(ctx context.Context, db storage.DB, o FixtureOptions) ([]Account, error) {
	if o.Users <= 0 {
		return nil, nil
	}
	if o.Prefix == "" {
		o.Prefix = "ld"
	}
	if o.Platform == 0 {
		o.Platform = 5
	}
	if o.TokenTTL == 0 {
		o.TokenTTL = 24 * time.Hour
	}
	hash, err := auth.HashPassword(FixturePassword)
	if err != nil {
		return nil, err
	}
	sessions := &auth.Sessions{DB: db, Clock: clock.Real{}, TokenTTL: o.TokenTTL, JWTTTL: 720 * time.Hour}
	accounts := make([]Account, o.Users)
	now := time.Now().UnixMilli()
	const chunk = 500
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for from := 0; from < o.Users; from += chunk {
		to := min(from+chunk, o.Users)
		g.Go(func() error {
			return db.Tx(gctx, func(tx storage.Tx) error {
				for i := from; i < to; i++ {
					id := storage.NewID()
					name := fmt.Sprintf("%s%06d", o.Prefix, i)
					if err := storage.CreateUser(gctx, tx, storage.User{ID: id, Account: name, PasswordHash: hash,
						Nickname: name, InviteCode: fmt.Sprintf("pro_%s%d", o.Prefix, i), CreatedAt: now, UpdatedAt: now}); err != nil {
						return fmt.Errorf("fixture user %s: %w", name, err)
					}
					t, _, err := sessions.SignIn(gctx, tx, id, o.Platform)
					if err != nil {
						return fmt.Errorf("fixture sign-in %s: %w", name, err)
					}
					accounts[i] = Account{ID: id, Account: name, Password: FixturePassword, Token: t.Token, JWT: t.JWT, ChatToken: t.ChatToken}
				}
				return nil
			})
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if o.Fund > 0 {
		if err := Fund(ctx, db, accounts, o.Fund); err != nil {
			return nil, err
		}
	}
	return accounts, nil
}

// Fund credits cents to each account's wallet from recharge clearing, as a
// confirmed recharge does, 2,000 transfers per ledger transaction.
func Fund(ctx context.Context, db storage.DB, accounts []Account, cents int64) error {
	now := time.Now().UnixMilli()
	var mu sync.Mutex
	var firstErr error
	for from := 0; from < len(accounts); from += 2000 {
		var ops []storage.Op
		for _, a := range accounts[from:min(from+2000, len(accounts))] {
			ops = append(ops, storage.Op{Transfers: []storage.Transfer{{Debit: storage.RechargeClearing, Credit: storage.Wallet(a.ID),
				Amount: cents, Kind: storage.KindRecharge, IdempotencyKey: fmt.Sprintf("load-fund-%d", a.ID)}}})
		}
		res, err := storage.CommitLedgerBatch(ctx, db, now, ops, 0)
		if err != nil {
			return fmt.Errorf("fund wallets: %w", err)
		}
		for _, r := range res {
			if r.Err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = fmt.Errorf("fund wallet: %w", r.Err)
				}
				mu.Unlock()
			}
		}
	}
	return firstErr
}

// WriteAccounts saves accounts as JSON (the k6 scripts read this file).
func WriteAccounts(path string, accounts []Account) error {
	b, err := json.Marshal(accounts)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

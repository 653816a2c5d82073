package engine

// `kj admin`: operator chores run against the configured store — the same
// KJ_ variables and flags as `kj serve` — so they also work beside a
// running node (PostgreSQL, or the SQLite file in WAL mode).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"kj/auth"
	"kj/engine/config"
	"kj/httpapi"
	"kj/storage"
)

const adminUsage = `usage: kj admin create-operator --account NAME --password PW [store flags]

  --account NAME    the operator's account (4-20 letters, digits or _)
  --password PW     its password (6-20, letters and digits); "-" reads it
                    from the first line of standard input, keeping it out
                    of the process list
  store flags       --database-url, --data-dir ... as for kj serve
`

// Admin runs `kj admin <subcommand> ...`.
func Admin(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, adminUsage)
		return nil
	}
	switch args[0] {
	case "create-operator":
		own, rest, err := takeFlags(args[1:], "account", "password")
		if err != nil {
			return err
		}
		if own["password"] == "-" {
			line, err := bufio.NewReader(stdin).ReadString('\n')
			if err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("reading the password from stdin: %w", err)
			}
			own["password"] = strings.TrimRight(line, "\r\n")
		}
		cfg, err := config.Load(rest, os.Getenv)
		if err != nil {
			return err
		}
		ctx := context.Background()
		db, err := OpenStore(ctx, cfg)
		if err != nil {
			return err
		}
		defer db.Close()
		if _, err := storage.Migrate(ctx, db); err != nil {
			return err
		}
		u, err := CreateOperator(ctx, db, time.Now(), own["account"], own["password"])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "operator %s created (user id %s) in the %s store\n", u.Account, u.IDString(), db.Dialect())
		return nil
	}
	return fmt.Errorf("admin: unknown subcommand %q\n\n%s", args[0], adminUsage)
}

// CreateOperator makes an operator account (activated, its own invite
// code), checking the account and password by the same rules as
// /register. An existing account is an error, never overwritten.
func CreateOperator(ctx context.Context, db storage.DB, now time.Time, account, password string) (storage.User, error) {
	if err := httpapi.ValidateAccount(account); err != nil {
		return storage.User{}, fmt.Errorf("--account: %s", cliMessage(err))
	}
	if err := httpapi.ValidatePassword("password", password); err != nil {
		return storage.User{}, fmt.Errorf("--password: %s", cliMessage(err))
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return storage.User{}, err
	}
	u := storage.User{ID: storage.NewID(), Account: account, PasswordHash: hash, Nickname: account,
		IsActivation: 1, IsOperator: 1, CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli()}
	for attempt := 0; ; attempt++ {
		u.InviteCode = httpapi.NewInviteCode()
		err = db.Tx(ctx, func(tx storage.Tx) error {
			if _, err := storage.UserByAccount(ctx, tx, account); err == nil {
				return fmt.Errorf("account %q already exists", account)
			} else if !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			return storage.CreateUser(ctx, tx, u)
		})
		if errors.Is(err, storage.ErrConflict) && strings.Contains(err.Error(), "invite_code") && attempt < 3 {
			continue
		}
		if errors.Is(err, storage.ErrConflict) {
			return storage.User{}, fmt.Errorf("account %q already exists", account)
		}
		return u, err
	}
}

// cliMessage renders an API validation error in English for the terminal.
func cliMessage(err error) string {
	var e *httpapi.Error
	if errors.As(err, &e) {
		return httpapi.Translate("en-US", e.Key, e.Args)
	}
	return err.Error()
}

// takeFlags removes --name VALUE and --name=VALUE for the given names from
// args, returning them and the remaining arguments (the store flags).
// Every name is required.
func takeFlags(args []string, names ...string) (map[string]string, []string, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	got := map[string]string{}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !want[name] {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("--%s needs a value\n\n%s", name, adminUsage)
			}
			i++
			value = args[i]
		}
		got[name] = value
	}
	for _, n := range names {
		if got[n] == "" {
			return nil, nil, fmt.Errorf("--%s is required\n\n%s", n, adminUsage)
		}
	}
	return got, rest, nil
}

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
	"strings"
	"time"

	"kj/httpapi"
	"kj/internal/apierr"
	"kj/storage"
)

const adminUsage = `usage: kj admin create-operator --account NAME --password PW [--role admin|agent] [store flags]

  --account NAME    the operator's account (4-20 letters, digits or _)
  --password PW     its password (6-20, letters and digits); "-" reads it
                    from the first line of standard input, keeping it out
                    of the process list
  --role ROLE       admin (default: everything, manages operators) or agent
                    (customer service, review queues, activation)
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
		own, rest, err := takeFlags(args[1:], "account", "password", "role?")
		if err != nil {
			return err
		}
		switch own["role"] {
		case "":
			own["role"] = storage.OperatorAdmin
		case storage.OperatorAdmin, storage.OperatorAgent:
		default: // refused before the store is opened (or created)
			return fmt.Errorf("--role: want admin or agent, not %q\n\n%s", own["role"], adminUsage)
		}
		if own["password"] == "-" {
			line, err := bufio.NewReader(stdin).ReadString('\n')
			if err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("reading the password from stdin: %w", err)
			}
			own["password"] = strings.TrimRight(line, "\r\n")
		}
		ctx := context.Background()
		_, db, _, err := commandStore(ctx, rest, true)
		if err != nil {
			return err
		}
		defer db.Close()
		u, err := CreateOperator(ctx, db, time.Now(), own["account"], own["password"], own["role"])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "operator %s (%s) created (user id %s) in the %s store\n", u.Account, own["role"], u.IDString(), db.Dialect())
		return nil
	}
	return fmt.Errorf("admin: unknown subcommand %q\n\n%s", args[0], adminUsage)
}

// CreateOperator makes an operator account with a role (activated, its
// own invite code), checking the account and password by the same rules as
// /register, with its audit row (by the command line, from "cli", naming
// the system account). An existing account is an error, never overwritten.
func CreateOperator(ctx context.Context, db storage.DB, now time.Time, account, password, role string) (storage.User, error) {
	u, err := httpapi.CreateOperator(ctx, db, now, account, password, role, httpapi.CommandLineActor())
	var e *apierr.Error
	switch {
	case errors.Is(err, httpapi.ErrOperatorExists):
		return u, fmt.Errorf("account %q already exists", account)
	case errors.As(err, &e):
		flag := "--role"
		if strings.HasPrefix(e.Key, "account.") {
			flag = "--account"
		} else if strings.HasPrefix(e.Key, "password.") {
			flag = "--password"
		}
		return u, fmt.Errorf("%s: %s", flag, cliMessage(err))
	}
	return u, err
}

// cliMessage renders an API validation error in English for the terminal.
func cliMessage(err error) string {
	var e *apierr.Error
	if errors.As(err, &e) {
		return apierr.Translate("en-US", e.Key, e.Args)
	}
	return err.Error()
}

// takeFlags removes --name VALUE and --name=VALUE for the given names from
// args, returning them and the remaining arguments (the store flags).
// Every name is required unless it ends in "?".
func takeFlags(args []string, names ...string) (map[string]string, []string, error) {
	want := map[string]bool{}
	var required []string
	for _, n := range names {
		if n, optional := strings.CutSuffix(n, "?"); optional {
			want[n] = true
			continue
		}
		want[n] = true
		required = append(required, n)
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
	for _, n := range required {
		if got[n] == "" {
			return nil, nil, fmt.Errorf("--%s is required\n\n%s", n, adminUsage)
		}
	}
	return got, rest, nil
}

// Command kj is the whole product in one binary: the chat engine, the points
// wallet, the activation windows and the embedded web app.
//
//	kj serve      run a node (the default when no command is given)
//	kj migrate    apply schema migrations and exit
//	kj admin      operator chores (create-operator)
//	kj seed --demo  fill an empty store with demo content
//	kj ledger check  verify the ledger's invariants (exit 1 listing offenders)
//	kj version    print the version
//
// Every command reads KJ_ environment variables and matching flags; see
// docs/CONFIGURATION.md for the table.
package main

import (
	"fmt"
	"os"

	"kj/engine"
)

const usage = `usage: kj <command> [flags]

commands:
  serve      run a node: HTTP API, chat gateway, web app (default)
  migrate    apply schema migrations and exit
  admin      operator chores: kj admin create-operator --account NAME --password PW
  seed       seed --demo: fill an EMPTY store with demo content and a customer-service operator
  ledger check  verify the ledger: balances sum to zero, equal their entries,
             no wallet negative; exits 1 listing the offending accounts
  version    print the version
`

func main() {
	args := os.Args[1:]
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = engine.Serve(args)
	case "migrate":
		err = engine.Migrate(args)
	case "admin":
		err = engine.Admin(args, os.Stdin, os.Stdout)
	case "seed":
		err = engine.Seed(args, os.Stdout)
	case "ledger":
		err = engine.Ledger(args)
	case "version":
		fmt.Println("kj", engine.Version)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "kj: unknown command %q\n\n%s", cmd, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kj:", err)
		os.Exit(1)
	}
}

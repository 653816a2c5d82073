package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"kj/loadtest"
)

// k6 runs k6 scripts against a kj it starts: for each script a fresh
// PostgreSQL schema, the bulk fixture (funded accounts with live sessions,
// written to a JSON file the script reads), one activation window with
// short phases for the bet burst, and kj serve trusting X-Forwarded-For
// (the login storm's virtual users each send their own). k6's exit status
// says whether the script's thresholds held.
func k6(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("kjload k6", flag.ContinueOnError)
	bin := fs.String("k6", "bin/k6", "k6 binary (make k6 builds it with go install go.k6.io/k6@v1.8.1)")
	kj := fs.String("kj", "", "prebuilt kj binary (default: go build)")
	users := fs.Int("users", 1000, "fixture accounts")
	if err := fs.Parse(args); err != nil {
		return err
	}
	scripts := fs.Args()
	if len(scripts) == 0 {
		return fmt.Errorf("name the scripts to run, e.g. loadtest/k6/login.js")
	}
	if _, err := os.Stat(*bin); err != nil {
		return fmt.Errorf("k6 binary %s: %w (make k6 builds it)", *bin, err)
	}
	logf := func(format string, a ...any) {
		fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05.000")+" "+format+"\n", a...)
	}
	var failed []string
	for _, script := range scripts {
		if err := k6Script(ctx, *bin, *kj, script, *users, logf); err != nil {
			logf("%s: %v", script, err)
			failed = append(failed, filepath.Base(script))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("k6 thresholds failed or the run broke: %s", strings.Join(failed, ", "))
	}
	return nil
}

func k6Script(ctx context.Context, k6bin, kj, script string, users int, logf func(string, ...any)) error {
	st, err := loadtest.NewStack(ctx, loadtest.StackOptions{Bin: kj, Log: logf, Env: map[string]string{
		"KJ_TRUST_PROXY": "true", "KJ_WINDOW_COUNT": "1", "KJ_WINDOW_BETTING": "10s", "KJ_WINDOW_DRAWING": "2s", "KJ_WINDOW_REST": "3s",
	}})
	if err != nil {
		return err
	}
	defer st.Close(context.Background())
	accounts, err := loadtest.LoadUsers(ctx, st.DB, loadtest.FixtureOptions{Users: users, Fund: 10_000_000})
	if err != nil {
		return err
	}
	file := filepath.Join(st.Dir, "accounts.json")
	if err := loadtest.WriteAccounts(file, accounts); err != nil {
		return err
	}
	if err := st.Start(ctx); err != nil {
		return err
	}
	node := st.Nodes[0]
	logf("k6 run %s against %s (%d accounts)", script, node.URL, len(accounts))
	cmd := exec.CommandContext(ctx, k6bin, "run", "--quiet", script)
	cmd.Env = append(os.Environ(), "BASE_URL="+node.URL, "WS_URL=ws://"+node.Addr, "ACCOUNTS="+file)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

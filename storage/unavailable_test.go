package storage

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestUnavailableTellsAnOutageFromABadRequest(t *testing.T) {
	// A real refused connection: a port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, connErr := pgx.Connect(ctx, "postgres://postgres@"+addr+"/x?sslmode=disable&connect_timeout=2")
	if connErr == nil {
		t.Fatal("connected to a closed port")
	}
	_, dialErr := net.Dial("tcp", addr)
	for _, err := range []error{
		connErr,
		fmt.Errorf("load user: %w", connErr),
		dialErr, // what Redis's client returns when its server is down
		&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"},
		&pgconn.PgError{Code: "57P03", Message: "the database system is starting up"},
		&pgconn.PgError{Code: "08006", Message: "connection failure"},
	} {
		if !Unavailable(err) {
			t.Errorf("Unavailable(%v) = false, want true", err)
		}
	}
	for _, err := range []error{
		nil,
		ErrNotFound,
		errors.New("bad input"),
		&pgconn.PgError{Code: "23505", Message: "duplicate key"},
		&pgconn.PgError{Code: "40P01", Message: "deadlock detected"},
	} {
		if Unavailable(err) {
			t.Errorf("Unavailable(%v) = true, want false", err)
		}
	}
}

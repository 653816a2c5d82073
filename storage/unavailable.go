package storage

import (
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err says a server the node depends on (the
// store, or Redis, which fails the same ways) could not be reached or went
// away mid-request — a refused or reset connection, a server shutting
// down or still starting up — rather than that the request itself was
// wrong. Such a request may succeed when tried again, and the client is
// told so ("system busy", HTTP 503) instead of getting an internal error.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P01-57P03: the server is
		// shutting down, crashed, or cannot accept sessions yet.
		return len(pe.Code) == 5 && (pe.Code[:2] == "08" || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03")
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}

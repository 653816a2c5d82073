package loadtest

import (
	"context"
	"io"
)

// Worker is the generator child process (kjload worker).
func Worker(ctx context.Context, in io.Reader, out, log io.Writer) error { return nil }

package loadtest

import (
	"context"
	"time"
)

// profileEnv is the server settings a profiled run needs.
func profileEnv(o *Options) map[string]string { return nil }

// startProfile captures server profiles during the step offered at rate;
// it returns a function that waits for the captures to finish.
func startProfile(ctx context.Context, o *Options, st *Stack, name string, r Ramp, rate float64) func() {
	_ = time.Second
	return func() {}
}

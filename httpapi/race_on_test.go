//go:build race

package httpapi

// raceDetector says the tests run with -race, whose instrumentation makes
// code tens of times slower (the pure-Go SQLite most), so bounds on time
// are scaled by it.
const raceDetector = true

package ledger

import (
	"github.com/prometheus/client_golang/prometheus"

	"kj/internal/metrics"
)

var (
	batchTransfers = metrics.Histogram("kj_ledger_batch_transfers",
		"Transfers written per ledger transaction (group commit size).", prometheus.ExponentialBuckets(1, 4, 8))
	commitSeconds = metrics.Histogram("kj_ledger_commit_duration_seconds",
		"Time to write and commit one ledger batch.", metrics.DurationBuckets)
	ackSeconds = metrics.Histogram("kj_ledger_ack_duration_seconds",
		"Time from a submission to its acknowledgement after commit.", metrics.DurationBuckets)
	transfersTotal = metrics.CounterVec("kj_ledger_transfers_total",
		"Transfers submitted, by outcome: written, replayed, failed (refused), error (batch failed).", "outcome")
	writerRestarts = metrics.Counter("kj_ledger_writer_restarts_total",
		"Restarts of a ledger writer actor by its supervisor.")
	queueDepth = metrics.GaugeVec("kj_ledger_queue_operations",
		"Operations waiting for the next ledger batch, per shard.", "shard")
)

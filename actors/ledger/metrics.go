package ledger

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var (
	batchTransfers = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "kj_ledger_batch_transfers",
		Help:    "Transfers written per ledger transaction (group commit size).",
		Buckets: prometheus.ExponentialBuckets(1, 4, 8),
	})
	commitSeconds = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "kj_ledger_commit_duration_seconds",
		Help:    "Time to write and commit one ledger batch.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	})
	ackSeconds = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "kj_ledger_ack_duration_seconds",
		Help:    "Time from a submission to its acknowledgement after commit.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	})
	transfersTotal = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "kj_ledger_transfers_total",
		Help: "Transfers submitted, by outcome: written, replayed, failed (refused), error (batch failed).",
	}, []string{"outcome"})
	writerRestarts = promauto.NewCounter(prometheus.CounterOpts{
		Name: "kj_ledger_writer_restarts_total",
		Help: "Restarts of a ledger writer actor by its supervisor.",
	})
	queueDepth = promauto.NewGaugeVec(prometheus.GaugeOpts{
		Name: "kj_ledger_queue_operations",
		Help: "Operations waiting for the next ledger batch, per shard.",
	}, []string{"shard"})
)

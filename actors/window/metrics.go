package window

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var (
	phaseLateness = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "kj_rounds_phase_lateness_seconds",
		Help:    "How long after its deadline a window's timer was handled (W5).",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .02, .05, .1, .25, .5, 1},
	})
	betsTotal = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "kj_rounds_bets_total",
		Help: "Bets by outcome: accepted, late, balance, refused, error.",
	}, []string{"outcome"})
	betBatchSize = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "kj_rounds_bet_batch_size",
		Help:    "Bets written per desk transaction.",
		Buckets: []float64{1, 2, 5, 10, 25, 50, 100, 250, 500, 1000},
	})
	betBatchSeconds = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "kj_rounds_bet_batch_duration_seconds",
		Help:    "Time to write one batch of bets, retries included.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
	})
	betsSettled = promauto.NewCounter(prometheus.CounterOpts{
		Name: "kj_rounds_bets_settled_total",
		Help: "Bets given their result.",
	})
	settleSeconds = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "kj_rounds_settle_duration_seconds",
		Help:    "Time to settle one round, all batches.",
		Buckets: []float64{.001, .005, .01, .05, .1, .25, .5, 1, 2.5, 5},
	})
	roundsCreated = promauto.NewCounter(prometheus.CounterOpts{
		Name: "kj_rounds_created_total",
		Help: "Rounds scheduled (seed committed).",
	})
	windowsRunning = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "kj_rounds_windows_running",
		Help: "Window actors running on this node (leases held).",
	})
)

var deskRetries = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "kj_rounds_desk_retries_total",
	Help: "Desk transactions run again (a ledger balance moved by another writer, a deadlock).",
}, []string{"what"})

package storage

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Store statements counted by what they were run for: the API labels each
// request's context with its route (QueryCounterFor(route).Context), and
// every statement run with that context, in or out of a transaction, counts
// once against it (kj_store_queries_total{route}). The reads the node
// answers from memory (/user/mine, /user/amount ...) are held to 0 in the
// steady state by tests that read Queries.

var storeQueries = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "kj_store_queries_total",
	Help: "Store statements run, by the API route they were run for.",
}, []string{"route"})

// QueryCounter counts the statements of one label (an API route).
type QueryCounter struct {
	n      atomic.Int64
	metric prometheus.Counter
}

var queryCounters sync.Map // label → *QueryCounter

// QueryCounterFor is the counter of label, made on first use.
func QueryCounterFor(label string) *QueryCounter {
	if c, ok := queryCounters.Load(label); ok {
		return c.(*QueryCounter)
	}
	c, _ := queryCounters.LoadOrStore(label, &QueryCounter{metric: storeQueries.WithLabelValues(label)})
	return c.(*QueryCounter)
}

type queryCounterKey struct{}

// Context returns ctx labelled so that the statements run with it count
// against c.
func (c *QueryCounter) Context(ctx context.Context) context.Context {
	return context.WithValue(ctx, queryCounterKey{}, c)
}

// Count is the number of statements counted so far.
func (c *QueryCounter) Count() int64 { return c.n.Load() }

// Queries is the number of statements run so far for label.
func Queries(label string) int64 { return QueryCounterFor(label).Count() }

// countQuery counts one statement against the label of ctx, if any.
func countQuery(ctx context.Context) {
	if c, ok := ctx.Value(queryCounterKey{}).(*QueryCounter); ok {
		c.n.Add(1)
		c.metric.Inc()
	}
}

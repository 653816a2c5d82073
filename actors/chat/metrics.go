package chat

import (
	"strconv"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// supervision restarts a failed actor (its state is reloaded from the
// store) up to 10 times a minute, then stops it.
var supervision = actor.NewOneForOneStrategy(10, time.Minute, func(reason any) actor.Directive {
	actorRestarts.Inc()
	return actor.RestartDirective
})

// testHook, when set by a test, sees every message an actor receives
// (kind: session, user, conversation, group) and may panic to exercise
// supervision.
var testHook atomic.Pointer[func(kind string, msg any)]

var (
	connections = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "kj_chat_connections", Help: "Open chat sockets on this node.",
	})
	socketsOpened  = counter("kj_chat_sockets_opened_total", "Chat sockets signed in on this node (a reconnect storm shows as its rate).")
	refusedSockets = counter("kj_chat_refused_sockets_total", "Sockets refused for a bad or replaced chat token.")
	kickedSockets  = counter("kj_chat_kicked_sockets_total", "Sockets closed because their sign-in was replaced or ended.")
	slowConsumers  = counter("kj_chat_slow_consumer_disconnects_total", "Sockets disconnected because their outbound queue was full.")
	framesIn       = counter("kj_chat_frames_in_total", "Frames read from chat sockets.")
	framesOut      = counter("kj_chat_frames_out_total", "Frames written to chat sockets.")
	requests       = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "kj_chat_requests_total", Help: "Chat requests by call name (known calls only).",
	}, []string{"call"})
	requestErrors = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "kj_chat_request_errors_total", Help: "Chat requests answered with an error, by code.",
	}, []string{"code"})
	messagesStored = counter("kj_chat_messages_stored_total", "Messages and notices committed.")
	commitBatch    = histogram("kj_chat_commit_batch_size", "Sends committed per chat writer transaction (many conversations per transaction).",
		[]float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096})
	commitSeconds = histogram("kj_chat_commit_duration_seconds", "Time of one commit transaction.", latencyBuckets)
	sendSeconds   = histogram("kj_chat_send_duration_seconds", "From a send reaching its conversation actor to the durable acknowledgement.", latencyBuckets)
	actorRestarts = counter("kj_chat_actor_restarts_total", "Chat actors restarted by their supervisor.")
)

// latencyBuckets span half a millisecond to a second: commits, and the
// sends that wait for them.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}

// counter registers a counter of this node.
func counter(name, help string) prometheus.Counter {
	return promauto.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}

// histogram registers a histogram of this node.
func histogram(name, help string, buckets []float64) prometheus.Histogram {
	return promauto.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets})
}

// codeBucket keeps the error label set small.
func codeBucket(code int) string { return strconv.Itoa(code) }

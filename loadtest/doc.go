// Package loadtest is the load harness of docs/PERFORMANCE.md: it starts what a
// workload needs (a fresh PostgreSQL schema, `kj serve` on loopback, Redis
// and NATS in cluster mode, HAProxy in front of the nodes for the failover
// workload C1), loads fixtures straight into the store, drives
// the real protocols (HTTP API, the chat websocket, bets) from one or more
// generator processes, ramps the offered rate, records latency in HDR
// histograms from a timestamp carried in each payload, counts errors and
// losses, stops by itself within a bounded time, and writes
// results/<workload>.json plus a PNG of latency against rate.
//
// The command is loadtest/cmd/kjload; the Go benchmarks it also runs (W4L,
// W4/W5, W7) live beside the code they measure.
package loadtest

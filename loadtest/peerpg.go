package loadtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The durable peer: Centrifugo v6.9.1 with its PostgreSQL stream broker
// (broker.type "postgres", internal/pgstreambroker in its source) on the
// PostgreSQL kj's runs use. A client's publish calls the broker's SQL
// function <prefix>_stream_publish in one autocommit statement (a shard
// lock, the channel's meta row, the history INSERT, pg_notify), and the
// publish is answered only once that statement returned, i.e. after the
// commit, which waits for the WAL flush when synchronous_commit is on.
// Subscribers are fed by outbox workers, one per shard, that read the
// committed rows: woken by LISTEN/NOTIFY (use_notify on) or by polling
// every poll_interval (off).
//
// In v6.9.1 the publish function calls pg_notify whatever use_notify says
// (schema.sql), so every publishing commit takes PostgreSQL's notify lock,
// which serialises such commits across the whole server in both settings;
// use_notify only decides how the outbox workers wake.
//
// The broker is new and its keys may change: they are pinned here, for
// v6.9.1 (internal/configtypes/engine.go, PostgresStreamBroker), and
// StartPeerWith runs `centrifugo checkconfig --strict` on the file first,
// so a key the version does not know fails the run.

// pgPeerPrefix is the broker's table prefix (tables cf_stream, cf_stream_meta, …).
const pgPeerPrefix = "cf"

// pgPollInterval is the outbox workers' idle poll: the default 100 ms with
// NOTIFY to wake them; 10 ms without, so polling alone adds at most 10 ms
// to a delivery (8 shards × 100 polls/s of an idle server).
func pgPollInterval(v PeerOptions) string {
	if v.UseNotify {
		return "100ms"
	}
	return "10ms"
}

// pgPeerConfig turns cfg into the durable peer's configuration: the
// PostgreSQL broker on dsn, and history with recovery forced on the group
// and pair namespaces (publications are durable and recoverable).
func pgPeerConfig(cfg map[string]any, dsn string, v PeerOptions) {
	cfg["broker"] = map[string]any{
		"enabled": true,
		"type":    "postgres",
		"postgres": map[string]any{
			"dsn":              dsn,
			"use_notify":       v.UseNotify,
			"pool_size":        16,
			"num_shards":       8,
			"table_prefix":     pgPeerPrefix,
			"binary_data":      false,
			"stream_retention": "24h",
			"outbox": map[string]any{
				"poll_interval": pgPollInterval(v),
				"batch_size":    1000,
			},
		},
	}
	ch := cfg["channel"].(map[string]any)
	for _, ns := range ch["namespaces"].([]map[string]any) {
		if ns["name"] == "group" || ns["name"] == "pair" {
			ns["history_size"] = 1000
			ns["history_ttl"] = "24h"
			ns["force_recovery"] = true
		}
	}
}

// peerDB is a database created for one start of the peer.
type peerDB struct {
	name, dsn string
	admin     string // the URL it was created through
}

// createPeerDB creates an empty database on the load runs' PostgreSQL
// server (DatabaseURL) for the broker to make its schema in.
func createPeerDB(ctx context.Context) (*peerDB, error) {
	admin := DatabaseURL()
	u, err := url.Parse(admin)
	if err != nil {
		return nil, fmt.Errorf("peer database: %w", err)
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "kjload_peer_" + hex.EncodeToString(b)
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return nil, fmt.Errorf("peer database: PostgreSQL unreachable at %s: %w", admin, err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return nil, fmt.Errorf("peer database: %w", err)
	}
	u.Path = "/" + name
	return &peerDB{name: name, dsn: u.String(), admin: admin}, nil
}

// drop removes the database (its connections are the stopped peer's).
func (d *peerDB) drop() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, d.admin)
	if err != nil {
		return
	}
	defer conn.Close(context.Background())
	_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{d.name}.Sanitize()+" WITH (FORCE)")
}

// checkPeerCommits checks that the durable peer answers a publish only
// once the publication is committed: PostgreSQL has synchronous_commit and
// fsync on, and each of n publishes, made one at a time over a socket of
// the harness's own, is visible to another connection at the moment its
// reply arrives (a row becomes visible only after its commit record was
// flushed). It returns what it checked, for the result's config.
func checkPeerCommits(ctx context.Context, srv *PeerServer, n int) (map[string]any, error) {
	if srv.db == nil {
		return nil, fmt.Errorf("%s has no database", srv.Spec.Name)
	}
	db, err := pgx.Connect(ctx, srv.db.dsn)
	if err != nil {
		return nil, err
	}
	defer db.Close(context.Background())
	settings := map[string]string{}
	for _, k := range []string{"synchronous_commit", "fsync"} {
		var v string
		if err := db.QueryRow(ctx, "SHOW "+k).Scan(&v); err != nil {
			return nil, err
		}
		settings[k] = v
		if v != "on" {
			return nil, fmt.Errorf("PostgreSQL has %s = %s: the peer's commits would not be durable", k, v)
		}
	}
	const channel = "pair:probe"
	type reply struct {
		text    string
		visible bool
		err     error
		code    int64
	}
	replies := make(chan reply, 1)
	stream := fmt.Sprintf("probe%d", time.Now().UnixNano()%1e6)
	query := srv.rowQuery
	if query == "" {
		query = "SELECT count(*) FROM " + pgPeerPrefix + "_stream WHERE channel = $1 AND data->>'t' = $2"
	}
	acked := func(sched, code int64, _ []byte) {
		// In the read loop, before anything else: the row must be there
		// as the reply arrives.
		text := Payload{Stream: stream, N: uint64(sched), Sched: sched}.String()
		var c int
		err := db.QueryRow(ctx, query, channel, text).Scan(&c)
		replies <- reply{text: text, visible: c == 1, err: err, code: code}
	}
	conn, err := DialPeer(ctx, srv.WSURL(), "", "probe", PeerToken(srv.Secret, "probe", time.Now().Add(time.Hour)), channel, nil, acked)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	for i := 1; i <= n; i++ {
		// N and Sched are both i, so the reply's scheduled time names the text.
		if err := conn.Publish(channel, Payload{Stream: stream, N: uint64(i), Sched: int64(i)}); err != nil {
			return nil, err
		}
		select {
		case r := <-replies:
			switch {
			case r.err != nil:
				return nil, r.err
			case r.code != 0:
				return nil, fmt.Errorf("probe publish refused with code %d", r.code)
			case !r.visible:
				return nil, fmt.Errorf("publish %d answered before its row %q was committed", i, r.text)
			}
		case <-time.After(10 * time.Second):
			return nil, fmt.Errorf("probe publish %d not answered in 10 s", i)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return map[string]any{"publishesChecked": n, "postgres": settings,
		"check": "each publish's row was visible to another connection when its reply arrived"}, nil
}

// describePgPeer says in words how the durable peer was configured.
func describePgPeer(v PeerOptions) string {
	parts := []string{"PostgreSQL stream broker (broker.type postgres) on the load runs' PostgreSQL, a database of its own",
		"num_shards 8, pool_size 16", "history_size 1000, history_ttl 24h, force_recovery on the pair and group namespaces",
		fmt.Sprintf("use_notify %v, outbox poll_interval %s", v.UseNotify, pgPollInterval(v))}
	return strings.Join(parts, "; ")
}

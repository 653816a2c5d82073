package loadtest

import "context"

// The chat floor is W2's second yardstick beside the durable peer: the
// plainest durable relay (loadtest/cmd/floorchat: gorilla/websocket, one
// group-committing goroutine writing a batch as one INSERT through pgx,
// one goroutine sending what was committed). It speaks the peer's
// protocol, so the generator drives it exactly as it drives Centrifugo,
// and it runs in the same run after kj and the peer, on the same
// PostgreSQL. kj's cost per message is read against it: what a socket
// read, a batched row and two socket writes cost on this box at the same
// moment (-floor, W2 only).
var chatFloorSpec = PeerSpec{Name: "floorchat", Version: "harness", Module: "kj/loadtest/cmd/floorchat", Broker: "postgres"}

// chatFloorRowQuery counts the floor's rows of one channel holding one
// payload text (checkPeerCommits).
const chatFloorRowQuery = "SELECT count(*) FROM floor_messages WHERE channel = $1 AND data::jsonb->>'t' = $2"

// StartChatFloor builds cmd/floorchat into <module>/bin/peer/floorchat
// and runs it on a free loopback port, on a database of its own (dropped
// by Stop), with a fresh connection-token key.
func StartChatFloor(ctx context.Context, o *Options) (*PeerServer, error) {
	bin, err := buildHarnessServer(ctx, chatFloorSpec.Name)
	if err != nil {
		return nil, err
	}
	p, err := newPeerServer(chatFloorSpec)
	if err != nil {
		return nil, err
	}
	p.rowQuery = chatFloorRowQuery
	if p.db, err = createPeerDB(ctx); err != nil {
		p.Stop()
		return nil, err
	}
	if err := p.launch(ctx, bin, "-addr", p.Addr, "-secret", p.Secret, "-db", p.db.dsn); err != nil {
		return nil, err
	}
	o.logf("chat floor: pid %d on %s", p.PID, p.Addr)
	return p, nil
}

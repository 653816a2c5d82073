package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// The floor is the peer of the HTTP workloads (W4, W6): the plainest
// server the standard library makes (loadtest/cmd/floor: net/http and
// encoding/json, no middleware) answering kj's routes with kj's JSON
// shapes from memory. It is what kj's cost per request is judged against
// (issue 38): run in the same run, with the same generator, after kj's
// server has stopped, and measured like kj's, by its pid.
const floorPeer = "floor"

func init() {
	Peers[floorPeer] = PeerSpec{Name: floorPeer, Version: "harness", Module: "kj/loadtest/cmd/floor"}
}

// floorUser is one user as cmd/floor reads them.
type floorUser struct {
	ID      int64  `json:"userId,string"`
	Account string `json:"account"`
	Token   string `json:"token"`
	Balance int64  `json:"balance"`
}

// checkHTTPPeer refuses a peer other than the floor for an HTTP workload.
func checkHTTPPeer(o *Options, workload string) error {
	if o.Peer != "" && o.Peer != floorPeer {
		return fmt.Errorf("%s runs against the floor peer only (-peer floor), not %q", workload, o.Peer)
	}
	return nil
}

// StartFloor builds cmd/floor into <module>/bin/peer/floor and runs it on
// a free loopback port with accounts (the same users, tokens and ids kj
// served), each holding balance cents; args are more of its flags.
func StartFloor(ctx context.Context, o *Options, accounts []Account, balance int64, args ...string) (*PeerServer, error) {
	bin, err := buildHarnessServer(ctx, floorPeer)
	if err != nil {
		return nil, err
	}
	p, err := newPeerServer(Peers[floorPeer])
	if err != nil {
		return nil, err
	}
	users := make([]floorUser, len(accounts))
	for i, a := range accounts {
		users[i] = floorUser{ID: a.ID, Account: a.Account, Token: a.Token, Balance: balance}
	}
	b, err := json.Marshal(users)
	if err != nil {
		p.Stop()
		return nil, err
	}
	usersPath := filepath.Join(p.dir, "users.json")
	if err := os.WriteFile(usersPath, b, 0o600); err != nil {
		p.Stop()
		return nil, err
	}
	if err := p.launch(ctx, bin, append([]string{"-addr", p.Addr, "-users", usersPath}, args...)...); err != nil {
		return nil, err
	}
	o.logf("floor: pid %d on %s, %d users", p.PID, p.Addr, len(users))
	return p, nil
}

// URL is the peer's HTTP base.
func (p *PeerServer) URL() string { return "http://" + p.Addr }

// answerSizes are the body sizes of one answer of each path (to the first
// account), so a result shows kj and the floor answer alike.
func answerSizes(ctx context.Context, api *LeanAPI, token string, paths ...string) (map[string]int, error) {
	out := map[string]int{}
	for _, p := range paths {
		status, body, err := api.Body(ctx, api.Prepare(p, token, nil))
		if err != nil {
			return nil, err
		}
		if err := decodeEnvelope(status, body, nil); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out[p] = len(body)
	}
	return out, nil
}

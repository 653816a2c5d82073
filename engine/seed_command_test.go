package engine

import (
	"bytes"
	"encoding/json"
	"image"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestSeedCommandThenServe runs `kj seed --demo` on an embedded store and
// serves it: the content, its files and customer service are live.
func TestSeedCommandThenServe(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KJ_DATABASE_URL", "")
	t.Setenv("KJ_DATA_DIR", dir)
	var out bytes.Buffer
	if err := Seed([]string{"--log-level", "error"}, &out); err == nil || !strings.Contains(err.Error(), "--demo") {
		t.Fatalf("seed without --demo: %v", err)
	}
	if err := Seed([]string{"--demo"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `account "service", password "`) {
		t.Fatalf("seed output: %s", out.String())
	}
	if err := Seed([]string{"--demo"}, &out); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("second seed: %v", err)
	}

	base := startNode(t, map[string]string{"KJ_DATA_DIR": dir})
	resp, err := http.Post(base+"/api/indexCarousel", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Code int `json:"code"`
		Data []struct {
			Image string `json:"image"`
		} `json:"data"`
	}
	json.NewDecoder(resp.Body).Decode(&env)
	resp.Body.Close()
	if env.Code != 0 || len(env.Data) != 3 {
		t.Fatalf("carousel: %+v", env)
	}
	resp, err = http.Get(base + env.Data[0].Image)
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(resp.Body)
	resp.Body.Close()
	if err != nil || img.Bounds().Dx() != 750 {
		t.Fatalf("banner image: %v", err)
	}
	if code, body := get(t, base+"/files/demo/sunrise.mp4"); code != 200 || !strings.HasPrefix(body[4:], "ftyp") {
		t.Fatalf("video file: %d", code)
	}
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/ws/customer", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	var init map[string]any
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	// The visitor writes to the service's public id; no agent has taken the
	// enquiry yet, so no operator's name is shown (the app names the
	// service itself), and never the seeded service account's.
	if err := ws.ReadJSON(&init); err != nil || init["type"] != "init" || init["serviceId"] == nil || init["serviceId"] == "" || init["serviceName"] != "" {
		t.Fatalf("customer socket on the node: %v %v", init, err)
	}
}

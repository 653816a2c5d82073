package httpapi

import (
	"testing"
	"time"

	"kj/internal/bus"
)

// A save published while the node was cut off from the bus never drops
// the node's copy; once the bus is back every copy is dropped (and a store
// read from before does not put one back).
func TestSettingsCacheDropsEverythingWhenTheBusResumes(t *testing.T) {
	t.Parallel()
	b := bus.NewMemory()
	defer b.Close()
	sc := newSettingsCache(b)
	sc.vals["notice"] = cachedSetting{raw: []byte(`"old"`), found: true, at: time.Now()}
	seq := sc.seq
	b.Resume()
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if len(sc.vals) != 0 || sc.seq == seq {
		t.Fatalf("after the bus resumed the node keeps %d settings (seq %d → %d)", len(sc.vals), seq, sc.seq)
	}
}

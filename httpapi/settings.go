package httpapi

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"kj/internal/bus"
	"kj/storage"
	"kj/storage/userview"
)

// SettingsChangedSubject carries the name of an operator setting (app
// settings, the update manifest, the video limit) that changed, so every
// node drops its copy.
const SettingsChangedSubject = "kj.cache.settings"

// settingsAge bounds how long a node serves a setting changed without a
// bus event (a direct store edit); operators' saves reach every node at
// once over the bus. It is the players' copies' backstop too (/getBaseData
// answers from both).
const settingsAge = userview.MaxAge

// settingsCache keeps the operator settings the app reads on every start
// (/getDomainInfo, /getBaseData, /resource/download ...) in the node. A
// save drops the setting here when it commits and, through the bus, on
// every node; a load that began before a drop is not kept.
type settingsCache struct {
	mu   sync.Mutex
	vals map[string]cachedSetting
	seq  uint64
}

type cachedSetting struct {
	raw   json.RawMessage // nil when the operator has not set it
	found bool
	at    time.Time
}

func newSettingsCache(b bus.Bus) *settingsCache {
	sc := &settingsCache{vals: map[string]cachedSetting{}}
	if b != nil {
		if _, err := b.Subscribe(SettingsChangedSubject, func(_ string, name []byte) { sc.drop(string(name)) }); err != nil {
			return nil // no bus to hear other nodes' saves: read the store every time
		}
		// A save published while the bus was down never came.
		bus.OnResume(b, sc.dropAll)
	}
	return sc
}

func (sc *settingsCache) dropAll() {
	sc.mu.Lock()
	clear(sc.vals)
	sc.seq++
	sc.mu.Unlock()
}

func (sc *settingsCache) drop(name string) {
	sc.mu.Lock()
	delete(sc.vals, name)
	sc.seq++
	sc.mu.Unlock()
}

// setting decodes the named operator setting into dst and reports whether
// the operator has set it, from the node's copy when it is fresh.
func (s *Server) setting(ctx context.Context, name string, dst any) (bool, error) {
	sc := s.settings
	if sc == nil {
		return storage.GetSetting(ctx, s.DB, name, dst)
	}
	now := s.Clock.Now()
	sc.mu.Lock()
	v, ok := sc.vals[name]
	seq := sc.seq
	sc.mu.Unlock()
	// While the bus is down a save on another node would go unheard.
	if !ok || now.Sub(v.at) >= settingsAge || (s.Bus != nil && !bus.Up(s.Bus)) {
		var raw json.RawMessage
		found, err := storage.GetSetting(ctx, s.DB, name, &raw)
		if err != nil {
			return false, err
		}
		v = cachedSetting{raw: raw, found: found, at: now}
		sc.mu.Lock()
		if sc.seq == seq {
			sc.vals[name] = v
		}
		sc.mu.Unlock()
	}
	if !v.found {
		return false, nil
	}
	return true, json.Unmarshal(v.raw, dst)
}

// settingChanged drops a saved setting here and on every node; call it
// after the save committed.
func (s *Server) settingChanged(ctx context.Context, name string) {
	if s.settings != nil {
		s.settings.drop(name)
	}
	if s.Bus != nil {
		_ = s.Bus.Publish(ctx, SettingsChangedSubject, []byte(name))
	}
}

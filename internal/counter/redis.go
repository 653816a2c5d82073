package counter

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis keeps counters as Redis integers with a TTL; expiry follows Redis's
// own clock.
type Redis struct {
	rdb    redis.UniversalClient
	prefix string
}

// NewRedis uses rdb with keys under prefix (e.g. "kj:counter:").
func NewRedis(rdb redis.UniversalClient, prefix string) *Redis {
	return &Redis{rdb: rdb, prefix: prefix}
}

func (r *Redis) Incr(ctx context.Context, key string, n int64, ttl time.Duration) (int64, error) {
	pipe := r.rdb.TxPipeline()
	v := pipe.IncrBy(ctx, r.prefix+key, n)
	// NX: only the first increment of a window sets the expiry.
	pipe.Do(ctx, "PEXPIRE", r.prefix+key, ttl.Milliseconds(), "NX")
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, err
	}
	return v.Val(), nil
}

func (r *Redis) Get(ctx context.Context, key string) (int64, time.Duration, error) {
	pipe := r.rdb.Pipeline()
	v := pipe.Get(ctx, r.prefix+key)
	ttl := pipe.PTTL(ctx, r.prefix+key)
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return 0, 0, err
	}
	n, err := v.Int64()
	if errors.Is(err, redis.Nil) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	return n, max(ttl.Val(), 0), nil
}

func (r *Redis) Delete(ctx context.Context, key string) error {
	return r.rdb.Del(ctx, r.prefix+key).Err()
}

func (r *Redis) Ping(ctx context.Context) error { return r.rdb.Ping(ctx).Err() }

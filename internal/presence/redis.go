package presence

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"kj/internal/clock"
)

// Redis keeps presence in one sorted set per user: member = connection id,
// score = expiry in unix milliseconds. Expired members are pruned on read.
type Redis struct {
	rdb    redis.UniversalClient
	prefix string
	clock  clock.Clock
}

// NewRedis uses rdb with keys under prefix (e.g. "kj:presence:").
func NewRedis(rdb redis.UniversalClient, prefix string, c clock.Clock) *Redis {
	return &Redis{rdb: rdb, prefix: prefix, clock: c}
}

func (r *Redis) key(userID string) string { return r.prefix + userID }

func (r *Redis) Add(ctx context.Context, userID, connID string, ttl time.Duration) error {
	exp := r.clock.Now().Add(ttl)
	pipe := r.rdb.TxPipeline()
	pipe.ZAdd(ctx, r.key(userID), redis.Z{Score: float64(exp.UnixMilli()), Member: connID})
	// The key itself outlives its newest member by a little, so an abandoned
	// user's set disappears on its own.
	pipe.PExpire(ctx, r.key(userID), ttl+time.Minute)
	_, err := pipe.Exec(ctx)
	return err
}

func (r *Redis) Remove(ctx context.Context, userID, connID string) error {
	return r.rdb.ZRem(ctx, r.key(userID), connID).Err()
}

func (r *Redis) Connections(ctx context.Context, userID string) ([]string, error) {
	now := strconv.FormatInt(r.clock.Now().UnixMilli(), 10)
	pipe := r.rdb.TxPipeline()
	pipe.ZRemRangeByScore(ctx, r.key(userID), "-inf", now)
	members := pipe.ZRange(ctx, r.key(userID), 0, -1)
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	return members.Val(), nil
}

func (r *Redis) Online(ctx context.Context, userID string) (bool, error) {
	c, err := r.Connections(ctx, userID)
	return len(c) > 0, err
}

func (r *Redis) Ping(ctx context.Context) error { return r.rdb.Ping(ctx).Err() }

// Close leaves the shared client open; the engine owns it.
func (r *Redis) Close() error { return nil }

package storage

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// Planner statistics on PostgreSQL. kj's hot statements are prepared once
// per connection, and PostgreSQL plans a prepared statement once for every
// parameter value after a few runs. A plan made while a table was nearly
// empty (a new deployment, a load test's fresh schema) stays until
// statistics are gathered again: the chat writer's seq allocation, planned
// as a hash join over a sequential scan of chat_conversations because the
// table "had 860 rows", scanned every conversation in every commit (4 to
// 12 ms per commit at 5,000 conversations, most of a W2 run's database
// time). Autovacuum's analyze is what normally gathers them, and with it
// the plans are made again; where it is off — for the server (the test
// box's configuration) or for a table — kj does that part of its job
// itself, on the same rule.

// staleTablesPG lists the tables of the current schema that autovacuum
// will not analyze and that have changed since their last analyze by more
// than autovacuum's own threshold (autovacuum_analyze_threshold plus
// autovacuum_analyze_scale_factor of the rows). It reads pg_class for the
// schema and asks the statistics only of those tables, where the view
// pg_stat_user_tables computes some twenty counters for every table of the
// database before the schema is filtered. Where autovacuum is off its cost
// is mostly pg_class itself: on the test box, whose tests create and drop
// schemas all day, pg_class had grown to 56 MB of dead rows, and this query
// took 15-230 ms there (the view's 30-180 ms); on a catalog that is
// vacuumed it is a few milliseconds.
const staleTablesPG = `SELECT c.relname
	FROM pg_class c
	WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'm')
	  AND (current_setting('autovacuum') = 'off'
	       OR EXISTS (SELECT 1 FROM unnest(c.reloptions) o
	                  WHERE lower(o) ~ '^autovacuum_enabled=(f|false|off|n|no|0)$'))
	  AND pg_stat_get_mod_since_analyze(c.oid) > current_setting('autovacuum_analyze_threshold')::float8
	      + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)
	ORDER BY c.relname`

// AnalyzeStale analyzes the tables autovacuum would have analyzed by now
// had it been on for them, and returns their names. A table another
// session is analyzing (another node) is skipped, not waited for.
func (p *PG) AnalyzeStale(ctx context.Context) ([]string, error) {
	rows, err := p.Pool.Query(ctx, staleTablesPG)
	if err != nil {
		return nil, pgErr(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, pgErr(err)
	}
	for i, name := range names {
		if _, err := p.Pool.Exec(ctx, "ANALYZE (SKIP_LOCKED) "+pgx.Identifier{name}.Sanitize()); err != nil {
			return names[:i], pgErr(err)
		}
	}
	return names, nil
}

// analyzeTimeout bounds one pass of KeepStatistics.
const analyzeTimeout = 5 * time.Minute

// KeepStatistics runs AnalyzeStale every interval until the returned stop
// is called. Where autovacuum is on for every table, each run is one
// catalog query that finds nothing.
func (p *PG) KeepStatistics(every time.Duration, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		told := false
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// An analyze samples a fixed number of rows, so it takes seconds
			// even on a table of millions; a bound of one interval could cut
			// it short every time. The ticker drops the ticks it misses.
			rctx, rcancel := context.WithTimeout(ctx, analyzeTimeout)
			names, err := p.AnalyzeStale(rctx)
			rcancel()
			switch {
			case err != nil && ctx.Err() == nil:
				log.Warn("analyze tables", "err", err)
			case len(names) > 0 && !told:
				told = true
				log.Info("autovacuum does not analyze kj's tables here: kj analyzes them when they change", "tables", names)
			case len(names) > 0:
				log.Debug("analyzed", "tables", names)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

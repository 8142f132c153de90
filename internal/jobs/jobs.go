package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/quire-docs/quire/store"
)

// New returns a runner with quire's job handlers.
func New(st Store, log *slog.Logger) *Runner {
	return &Runner{Store: st, st: st, Log: log, Handlers: map[string]Handler{
		store.JobAnalyseConversations: analyseConversations(st, log),
		PurgeDeletedSpaces: {
			Every: time.Hour,
			Run: func(ctx context.Context, _ string) error {
				n, err := st.PurgeDeletedSpaces(ctx)
				if err == nil && n > 0 {
					log.Info("purged deleted spaces", "count", n)
				}
				if err != nil {
					return err
				}
				// The same hourly sweep deletes expired app sessions (each sign-in deletes them too).
				_, err = st.PurgeExpiredSessions(ctx)
				return err
			},
		},
	}}
}

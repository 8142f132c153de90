package sqlstore

import (
	"context"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // only this benchmark's binary links it: the package does not
	"github.com/quire-docs/quire/store/postgres/pgtest"
)

// The content model's figures on PostgreSQL, beside SQLite's (make bench starts a cluster).
func BenchmarkRevisions20000PagesPostgres(b *testing.B) {
	ctx := context.Background()
	st, err := OpenPostgres(ctx, "pgx", pgtest.Database(b, "this benchmark (make bench starts a cluster)"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	benchRevisionsOn(b, st, 20000, func() int64 {
		var size int64
		if err := st.reader.QueryRowContext(ctx, `SELECT pg_database_size(current_database())`).Scan(&size); err != nil {
			b.Fatal(err)
		}
		return size
	})
}

package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // only this benchmark's binary links it: the package does not
)

// The content model's figures on PostgreSQL, beside SQLite's (make bench starts a cluster).
func BenchmarkRevisions20000PagesPostgres(b *testing.B) {
	admin := os.Getenv("QUIRE_TEST_POSTGRES_URL")
	if admin == "" {
		b.Skip("QUIRE_TEST_POSTGRES_URL is not set (make bench starts a cluster)")
	}
	ctx := context.Background()
	name := fmt.Sprintf("quire_bench_%d", os.Getpid())
	a, err := sql.Open("pgx", admin)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Exec(`CREATE DATABASE ` + name); err != nil {
		b.Fatal(err)
	}
	defer a.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
	u, err := url.Parse(admin)
	if err != nil {
		b.Fatal(err)
	}
	u.Path = "/" + name
	st, err := OpenPostgres(ctx, "pgx", u.String())
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

package sqlstore

import (
	"context"
	"database/sql"
	"testing"
)

// A PostgreSQL write transaction runs its prepared statements on their generic plans (planned once
// per connection, not at every execution); reads keep PostgreSQL's choice, which search relies on.
func TestWritesRunGenericPlans(t *testing.T) {
	st, _ := postgresSpace(t, "plans@example.com")
	ctx := context.Background()
	for _, contended := range []bool{false, true} {
		var mode string
		if err := st.writeOnce(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable}, contended, func(tx *Tx) error {
			return tx.QueryRowContext(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&mode)
		}); err != nil {
			t.Fatal(err)
		}
		if mode != "force_generic_plan" {
			t.Errorf("a write (contended: %v) plans with plan_cache_mode %q", contended, mode)
		}
	}
	var mode string
	if err := st.reader.QueryRowContext(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "auto" {
		t.Errorf("a read plans with plan_cache_mode %q, want auto", mode)
	}
}

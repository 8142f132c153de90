package sqlstore

import (
	"context"
)

// Three-way merge of page trees, page by page and field by field, against the last common
// revision (base): a field changed on one side only takes that side; changed the same way on
// both, it merges cleanly; changed differently on both, the page is a conflict. A page deleted on
// one side and changed on the other is a conflict too; deleted on one side and untouched on the
// other, it is deleted.

// loadBodies returns the markdown of page bodies.
func loadBodies(ctx context.Context, q querier, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	for start := 0; start < len(ids); start += 500 {
		in, args := inList(q, "id", ids[start:min(start+500, len(ids))])
		if err := queryInto(ctx, q, "bodies", `SELECT id, markdown FROM page_bodies WHERE `+in, args, out,
			func(sc scanner) (id int64, md string, err error) {
				err = sc.Scan(&id, &md)
				return
			}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

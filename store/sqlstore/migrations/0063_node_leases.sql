-- Leases (issue 31, store/sqlstore/lease.go): a node that reads a lot holds a lease, renewed every
-- few milliseconds with the cluster's write count it has seen, and serves cached reads without
-- asking the count while the lease runs. A write, once committed and counted, returns only when
-- every other node holding a lease has seen its count, or its lease has run out. PostgreSQL only:
-- SQLite has one process.
-- if postgres
CREATE TABLE quire_node_leases (
    node_id TEXT COLLATE "C" PRIMARY KEY,
    lease_until TIMESTAMPTZ NOT NULL,
    seen_version BIGINT NOT NULL
);
-- A write's count, and whether another node's lease has not yet seen it. Two statements, the
-- second with a snapshot of its own (a VOLATILE function's statements each take one), so it sees
-- every lease committed before the count moved on: a lease taken after that reads the new count.
CREATE FUNCTION quire_count_write(writer TEXT, OUT version BIGINT, OUT waiting BOOLEAN)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    version := nextval('quire_data_version');
    waiting := EXISTS (SELECT 1 FROM quire_node_leases
        WHERE node_id <> writer AND lease_until > now() AND seen_version < version);
END
$$;
-- end if

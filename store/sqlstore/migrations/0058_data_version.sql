-- The cluster's count of committed writes (issue 31): every write transaction takes the next
-- value once it has committed, and a node serves a cached read only while the count it read
-- after the request began is the one the entry was read at (cache.go). A sequence, not a row:
-- nextval never waits on another transaction and is never rolled back. SQLite has one process
-- writing and counts in memory.
-- if postgres
CREATE SEQUENCE quire_data_version;
-- end if

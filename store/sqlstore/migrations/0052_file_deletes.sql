-- Files can be removed (a git pull drops the files its repository no longer has): a file row with
-- deleted_from set is gone from its line from that seq on, and hides the file's rows of the lines
-- its line forked from. A file removed from a line that did not add it gets a row there holding
-- only that (valid_from = deleted_from).
ALTER TABLE file_versions ADD COLUMN deleted_from BIGINT;

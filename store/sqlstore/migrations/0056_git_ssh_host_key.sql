-- Git Sync over SSH (issue 29 item 3): the SSH server's host key a link requires, pinned by a
-- request or recorded on its first connection (trust on first use), authorized_keys form; ''
-- for none yet (and for http(s) and file remotes). The private key travels in
-- sealed_credentials with the other credentials.
ALTER TABLE space_git ADD COLUMN ssh_host_key TEXT NOT NULL DEFAULT '';
